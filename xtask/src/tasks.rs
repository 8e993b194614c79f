//! The commands themselves: run, test, bench.

use crate::install::ensure_system_packages;
use anyhow::{Context, bail};
use std::path::PathBuf;
use std::process::Command;

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}

fn cargo(args: &[&str]) -> anyhow::Result<()> {
    eprintln!("xtask: cargo {}", args.join(" "));
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .current_dir(workspace_root())
        .status()
        .with_context(|| format!("cannot run cargo {}", args.join(" ")))?;
    if !status.success() {
        bail!("cargo {} failed ({status})", args.join(" "));
    }
    Ok(())
}

/// `cargo xtask run`: the service on 127.0.0.1:8080 with its data in ./data.
pub fn run(extra: &[String]) -> anyhow::Result<()> {
    ensure_system_packages()?;
    let mut args = vec!["run", "--release", "--package", "reimburse", "--", "serve"];
    let has = |flag: &str| {
        extra
            .iter()
            .any(|a| a == flag || a.starts_with(&format!("{flag}=")))
    };
    if !has("--data-dir") && std::env::var_os("REIMBURSE_DATA_DIR").is_none() {
        args.extend(["--data-dir", "data"]);
    }
    args.extend(extra.iter().map(String::as_str));
    cargo(&args)
}

/// `cargo xtask test`: what CI runs.
pub fn test() -> anyhow::Result<()> {
    ensure_system_packages()?;
    cargo(&["fmt", "--all", "--check"])?;
    cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])?;
    cargo(&["test", "--workspace"])
}

/// `cargo xtask bench NAME`.
pub fn bench(args: &[String]) -> anyhow::Result<()> {
    match args.first().map(String::as_str) {
        Some("sse") => cargo(&["bench", "--package", "reimburse", "--bench", "sse"]),
        Some(other) => bail!("unknown benchmark `{other}` (known: sse)"),
        None => bail!("name a benchmark: cargo xtask bench sse"),
    }
}
