//! The public-API snapshots: each library crate's public API as sorted lines in the committed
//! `crates/<dir>/public-api.txt`, so that a change to it shows in the diff under review.
//! `cargo xtask public-api [DIR...]` writes them; `cargo xtask test` fails when one differs.
//!
//! The lines come from rustdoc's JSON output, which is unstable: stable rustdoc emits it with
//! `RUSTC_BOOTSTRAP=1`. That variable is given to rustdoc alone (this program is cargo's
//! `RUSTDOC` and runs the real one with it), not to cargo, since build scripts that probe for
//! nightly features (proc-macro2, anyhow, thiserror) rerun when it changes and everything
//! after them would be rebuilt twice, once with and once without.

mod render;
mod signature;

use crate::tasks::workspace_root;
use anyhow::{Context, bail};
use std::collections::HashSet;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;

/// Set for cargo's children: this program is then a rustdoc wrapper running the one it names.
pub(crate) const WRAPPER_ENV: &str = "XTASK_RUSTDOC_WRAPPED";

const SNAPSHOT: &str = "public-api.txt";

/// As cargo's `RUSTDOC`: run the real rustdoc with nightly options allowed, exit as it does.
pub(crate) fn rustdoc_wrapper(real: OsString) -> anyhow::Result<()> {
    let status = Command::new(&real)
        .args(std::env::args_os().skip(1))
        .env("RUSTC_BOOTSTRAP", "1")
        .status()
        .with_context(|| format!("cannot run {}", real.to_string_lossy()))?;
    std::process::exit(status.code().unwrap_or(1));
}

/// The library crates' directories under crates/ (each is the package `reimburse-<dir>`).
fn library_crates() -> anyhow::Result<Vec<String>> {
    let crates = workspace_root().join("crates");
    let mut dirs: Vec<String> = std::fs::read_dir(&crates)
        .with_context(|| format!("cannot list {}", crates.display()))?
        .flatten()
        .filter(|e| e.path().join("src/lib.rs").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|dir| dir != "reimburse")
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// One `cargo doc` writing `target/doc/reimburse_<dir>.json` for each of `dirs`.
fn rustdoc_json(dirs: &[String]) -> anyhow::Result<()> {
    let real = std::env::var_os("RUSTDOC").unwrap_or_else(|| "rustdoc".into());
    let me = std::env::current_exe().context("cannot find xtask's own executable")?;
    let mut flags = std::env::var("RUSTDOCFLAGS").unwrap_or_default();
    // Doc-comment lints (links to private items) are not this check's business.
    flags.push_str(" -Z unstable-options --output-format json --cap-lints allow");
    let mut args = vec!["doc".to_owned(), "--no-deps".into(), "--lib".into()];
    for dir in dirs {
        args.extend(["--package".to_owned(), format!("reimburse-{dir}")]);
    }
    eprintln!("xtask: cargo {} (rustdoc JSON)", args.join(" "));
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(&args)
        .env("RUSTDOC", &me)
        .env(WRAPPER_ENV, &real)
        .env("RUSTDOCFLAGS", flags.trim())
        .current_dir(workspace_root())
        .status()
        .context("cannot run cargo doc")?;
    if !status.success() {
        bail!("cargo doc (rustdoc JSON for the public-API snapshots) failed ({status})");
    }
    Ok(())
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|p| {
            if p.is_absolute() {
                p
            } else {
                workspace_root().join(p)
            }
        })
        .unwrap_or_else(|| workspace_root().join("target"))
}

/// The snapshot of `crates/<dir>` from its rustdoc JSON, as the file's text.
fn snapshot(dir: &str) -> anyhow::Result<String> {
    let package = format!("reimburse-{dir}");
    let json = target_dir().join(format!("doc/{}.json", package.replace('-', "_")));
    let text = std::fs::read_to_string(&json)
        .with_context(|| format!("cannot read {}", json.display()))?;
    let doc: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", json.display()))?;
    let version = doc["format_version"].as_u64().unwrap_or(0);
    if version != render::FORMAT_VERSION {
        eprintln!(
            "xtask: warning: {} has rustdoc JSON format {version}, the snapshot renderer was \
             written for {} (xtask/src/public_api/): lines may change with the toolchain",
            json.display(),
            render::FORMAT_VERSION
        );
    }
    let lines = render::render(&doc).with_context(|| format!("reading {}", json.display()))?;
    let mut out =
        format!("# {package}'s public API: `cargo xtask public-api {dir}` writes this file\n");
    for line in lines {
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// `cargo xtask public-api [DIR...]`: (re)write the snapshots of the named crates, or of all;
/// `cargo xtask public-api --check`: only compare, as `cargo xtask test` does.
pub fn regenerate(args: &[String]) -> anyhow::Result<()> {
    if args.iter().any(|a| a == "--check") {
        return check();
    }
    let all = library_crates()?;
    let dirs: Vec<String> = if args.is_empty() {
        all.clone()
    } else {
        args.iter()
            .map(|a| a.trim_start_matches("crates/").trim_end_matches('/'))
            .map(|a| a.strip_prefix("reimburse-").unwrap_or(a).to_owned())
            .collect()
    };
    if let Some(unknown) = dirs.iter().find(|d| !all.contains(d)) {
        bail!(
            "`{unknown}` is not a library crate under crates/ (known: {})",
            all.join(", ")
        );
    }
    // All of them, as the check does, so that features unify as they do there.
    rustdoc_json(&all)?;
    for dir in &dirs {
        let path = workspace_root().join("crates").join(dir).join(SNAPSHOT);
        let text = snapshot(dir)?;
        let lines = text.lines().count() - 1;
        // An unchanged file keeps its time: cargo's doc fingerprint of a package is the newest
        // file in it, and a rewrite would have the next check document the crate again.
        if std::fs::read_to_string(&path).is_ok_and(|old| old == text) {
            eprintln!("xtask: crates/{dir}/{SNAPSHOT}: {lines} lines, unchanged");
            continue;
        }
        std::fs::write(&path, &text).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("xtask: crates/{dir}/{SNAPSHOT}: {lines} lines, written");
    }
    Ok(())
}

/// Part of `cargo xtask test`: every library crate's public API is its committed snapshot.
pub fn check() -> anyhow::Result<()> {
    let dirs = library_crates()?;
    rustdoc_json(&dirs)?;
    let mut report = String::new();
    for dir in &dirs {
        let path = workspace_root().join("crates").join(dir).join(SNAPSHOT);
        let now = snapshot(dir)?;
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed != now {
            report.push_str(&format!(
                "--- crates/{dir}/{SNAPSHOT} (committed)\n+++ now\n"
            ));
            report.push_str(&diff(&committed, &now));
        }
    }
    if !report.is_empty() {
        bail!(
            "the public API differs from its snapshots:\n{report}\nIf the change is meant, run \
             `cargo xtask public-api` and review the diff of crates/*/{SNAPSHOT} with the code."
        );
    }
    eprintln!(
        "xtask: the public APIs of {} crates match their snapshots",
        dirs.len()
    );
    Ok(())
}

/// The lines only in `old` (`-`) and only in `new` (`+`), where they stand in the files (the
/// unified diff of two sorted snapshots, without context); lines that only moved are left out.
fn diff(old: &str, new: &str) -> String {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let in_old: HashSet<&str> = old.iter().copied().collect();
    let in_new: HashSet<&str> = new.iter().copied().collect();
    let (mut i, mut j) = (0, 0);
    let mut out = String::new();
    while i < old.len() || j < new.len() {
        match (old.get(i), new.get(j)) {
            (Some(a), Some(b)) if a == b => (i, j) = (i + 1, j + 1),
            (Some(a), _) if !in_new.contains(a) => {
                out.push_str(&format!("-{a}\n"));
                i += 1;
            }
            (_, Some(b)) if !in_old.contains(b) => {
                out.push_str(&format!("+{b}\n"));
                j += 1;
            }
            (Some(_), _) => i += 1,
            (None, _) => j += 1,
        }
    }
    if out.is_empty() && old != new {
        out.push_str("(the same lines in another order)\n");
    }
    out
}

#[cfg(test)]
mod tests;
