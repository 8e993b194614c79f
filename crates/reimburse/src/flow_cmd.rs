//! `reimburse flow check FILE`: a flow file checked on its own, before any claim is submitted;
//! each problem is printed as `FILE:LINE: message`, and the exit code says whether there were
//! any. `reimburse flow try FILE`: the flow run against the portal with a sample claim up to
//! its final submit, a screenshot of every step in a folder, a captcha asked on the terminal.

use crate::cli::{FlowCommand, TryArgs};
use anyhow::{Context, bail};
use finance_bot::{
    AnswerFuture, Bot, BotOptions, Challenge, ClaimKind, FlowFile, Person, WebDriverTarget,
};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

pub fn run(command: &FlowCommand) -> anyhow::Result<()> {
    match command {
        FlowCommand::Check { file } => check(file),
        FlowCommand::Try(args) => try_flow(args),
    }
}

fn check(file: &Path) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    // The file itself stands in for the invoices a real claim would upload: the check only
    // needs a path that exists.
    let sample = std::path::absolute(file)?;
    let problems = finance_bot::check_flow(&text, &sample);
    let mut out = std::io::stdout().lock();
    for problem in &problems {
        let at = problem.line.map(|l| format!(":{l}")).unwrap_or_default();
        writeln!(out, "{}{at}: {}", file.display(), problem.message)?;
    }
    if !problems.is_empty() {
        bail!("{} problem(s) in {}", problems.len(), file.display());
    }
    writeln!(out, "{}: 流程检查通过", file.display())?;
    Ok(())
}

/// A small valid PDF standing in for the invoices (the sample claim's attachment).
const SAMPLE_PDF: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n\
2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

fn try_flow(args: &TryArgs) -> anyhow::Result<()> {
    let flow = FlowFile::load(&args.file)?;
    let out = match &args.out {
        Some(out) => out.clone(),
        None => PathBuf::from(format!("flow-try-{}", session_store::utc_timestamp()))
            .components()
            .map(|c| c.as_os_str().to_string_lossy().replace(':', ""))
            .collect(),
    };
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let out = std::path::absolute(&out)?;
    let sample = out.join("sample-invoice.pdf");
    std::fs::write(&sample, SAMPLE_PDF)?;
    let kind = if args.kind == "travel" {
        ClaimKind::Travel
    } else {
        ClaimKind::General
    };
    let mut submission = finance_bot::sample_submission(kind, &sample);
    submission.config.username.clone_from(&args.username);
    submission.config.password = domain::Password::new(&args.password);
    let options = BotOptions {
        webdriver: WebDriverTarget::Local {
            chromedriver_path: args.chromedriver.clone(),
            chromium_path: args.chromium.clone(),
        },
        screenshot_dir: out.clone(),
        step_timeout: Duration::from_secs(args.step_timeout.max(1)),
        headless: !args.headed,
        base_url: args.base_url.clone(),
        work_dir: Some(out.clone()),
        person: Some(Arc::new(Terminal)),
        ..BotOptions::default()
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let tried = runtime.block_on(Bot::try_flow(&flow, &submission, &options, out.clone()));
    let mut stdout = std::io::stdout().lock();
    for shot in &tried.screenshots {
        writeln!(stdout, "{}", shot.display())?;
    }
    writeln!(
        stdout,
        "{} 张截图在 {}",
        tried.screenshots.len(),
        out.display()
    )?;
    if let Some(error) = tried.error {
        bail!("{error}");
    }
    match (tried.stopped_before, flow.steps(kind)) {
        (Some(index), Some(steps)) => writeln!(
            stdout,
            "已停在第{index}步「{}」之前，未提交",
            steps.get(index - 1).map(|s| s.label()).unwrap_or_default()
        )?,
        _ => writeln!(stdout, "流程中没有提交按钮（click），已全部运行")?,
    }
    Ok(())
}

/// The person at the terminal: the picture is saved beside the screenshots, the prompt goes
/// to stderr, the answer is the next line on stdin.
#[derive(Debug)]
struct Terminal;

impl Person for Terminal {
    fn ask(&self, challenge: Challenge) -> AnswerFuture<'_> {
        Box::pin(async move {
            {
                let mut err = std::io::stderr().lock();
                if let Some(refusal) = &challenge.refusal {
                    let _ = writeln!(err, "门户提示：{refusal}");
                }
                let _ = writeln!(
                    err,
                    "{}（第{}/{}次，{}秒内输入，图片已存入截图文件夹）：",
                    challenge.prompt,
                    challenge.attempt,
                    challenge.attempts,
                    challenge.wait.as_secs()
                );
            }
            let line = tokio::task::spawn_blocking(|| {
                let mut line = String::new();
                std::io::stdin().lock().read_line(&mut line).ok()?;
                Some(line)
            });
            tokio::time::timeout(challenge.wait, line)
                .await
                .ok()
                .and_then(Result::ok)
                .flatten()
        })
    }
}
