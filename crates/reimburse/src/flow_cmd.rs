//! `reimburse flow check FILE`: a flow file checked on its own, before any claim is submitted;
//! each problem is printed as `FILE:LINE: message`, and the exit code says whether there were any.

use crate::cli::FlowCommand;
use anyhow::{Context, bail};

pub fn run(command: &FlowCommand) -> anyhow::Result<()> {
    match command {
        FlowCommand::Check { file } => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            // The file itself stands in for the invoices a real claim would upload: the check
            // only needs a path that exists.
            let sample = std::path::absolute(file)?;
            let problems = finance_bot::check_flow(&text, &sample);
            let mut out = std::io::stdout().lock();
            for problem in &problems {
                let at = problem.line.map(|l| format!(":{l}")).unwrap_or_default();
                std::io::Write::write_all(
                    &mut out,
                    format!("{}{at}: {}\n", file.display(), problem.message).as_bytes(),
                )?;
            }
            if !problems.is_empty() {
                bail!("{} problem(s) in {}", problems.len(), file.display());
            }
            std::io::Write::write_all(
                &mut out,
                format!("{}: 流程检查通过\n", file.display()).as_bytes(),
            )?;
            Ok(())
        }
    }
}
