//! `cargo xtask fixtures`: regenerates the committed synthetic invoices and their golden JSON.

use anyhow::{Context, bail};
use std::process::Command;

/// Runs the generator of `crates/invoice-fixtures` into `fixtures/invoices/`.
pub fn fixtures() -> anyhow::Result<()> {
    let root = crate::tasks::workspace_root();
    let args = [
        "run",
        "--package",
        "reimburse-invoice-fixtures",
        "--example",
        "generate_fixtures",
        "--",
        "fixtures/invoices",
    ];
    eprintln!("xtask: cargo {}", args.join(" "));
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .current_dir(&root)
        .status()
        .context("cannot run cargo")?;
    if !status.success() {
        bail!("generating the fixtures failed ({status})");
    }
    Ok(())
}
