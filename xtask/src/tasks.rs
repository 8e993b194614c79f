//! The commands themselves: run, test, bench.

use crate::install::ensure_system_packages;
use anyhow::{Context, bail};
use std::path::PathBuf;
use std::process::Command;

pub(crate) fn workspace_root() -> PathBuf {
    // `cargo run` sets the variable at run time too: prefer it, since a
    // binary built in a target directory shared with another checkout
    // carries that checkout's path.
    let manifest_dir =
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").into());
    PathBuf::from(manifest_dir)
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}

fn cargo(args: &[&str]) -> anyhow::Result<()> {
    cargo_with_env(args, &[])
}

fn cargo_with_env(args: &[&str], env: &[(&str, &str)]) -> anyhow::Result<()> {
    eprintln!("xtask: cargo {}", args.join(" "));
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(args)
        .envs(env.iter().copied())
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
    // `cargo xtask run -- --addr …` (the README's form) hands the `--` on too.
    let extra = extra.strip_prefix(&["--".to_owned()]).unwrap_or(extra);
    ensure_system_packages()?;
    // Screenshots are read offline by these models; without them every screenshot fails.
    crate::models::ensure_models()?;
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
    crate::models::ensure_models()?;
    cargo(&["fmt", "--all", "--check"])?;
    cargo(&[
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ])?;
    // After clippy, whose check builds of the dependencies rustdoc reuses.
    crate::public_api::check()?;
    // The library crates' docs (missing_docs is checked by clippy above): rustdoc's own
    // lints, such as a link to an item that does not exist or is private.
    cargo_with_env(
        &[
            "doc",
            "--workspace",
            "--no-deps",
            "--exclude",
            "reimburse",
            "--exclude",
            "xtask",
        ],
        &[("RUSTDOCFLAGS", "-D warnings")],
    )?;
    slim_extraction()?;
    // The ledger's tests run on PostgreSQL too, and fail rather than skip without it. The
    // cluster is stopped and removed when this returns, whatever the outcome.
    let cluster = crate::postgres::Cluster::start()?;
    let url = cluster.url();
    cargo_with_env(
        &["test", "--workspace"],
        &[
            ("REIMBURSE_TEST_POSTGRES_URL", &url),
            ("REIMBURSE_REQUIRE_POSTGRES", "1"),
        ],
    )
}

/// Extraction as a program that reads only PDFs' text layers builds it: without any of its
/// optional features, and with each alone, it compiles without a warning; without any, its
/// tests pass (a format left out is an error that says so, never a panic).
fn slim_extraction() -> anyhow::Result<()> {
    for features in ["", "ocr", "ofd", "qr", "xml"] {
        cargo(&[
            "clippy",
            "--package",
            "reimburse-extraction",
            "--all-targets",
            "--no-default-features",
            "--features",
            features,
            "--",
            "-D",
            "warnings",
        ])?;
    }
    cargo(&[
        "test",
        "--package",
        "reimburse-extraction",
        "--no-default-features",
    ])
}

/// `cargo xtask bench NAME`.
pub fn bench(args: &[String]) -> anyhow::Result<()> {
    match args.first().map(String::as_str) {
        Some("sse") => cargo(&["bench", "--package", "reimburse", "--bench", "sse"]),
        Some("package") => {
            ensure_system_packages()?;
            cargo(&[
                "bench",
                "--package",
                "reimburse-claim-print",
                "--bench",
                "package",
            ])
        }
        Some("process") => {
            ensure_system_packages()?;
            cargo(&["bench", "--package", "reimburse", "--bench", "process"])
        }
        Some("agent") => {
            ensure_system_packages()?;
            crate::models::ensure_models()?;
            cargo(&["bench", "--package", "reimburse", "--bench", "agent"])
        }
        Some("ocr") => {
            ensure_system_packages()?;
            crate::models::ensure_models()?;
            ocr_engines()
        }
        Some("ledger") => {
            ensure_system_packages()?;
            let cluster = crate::postgres::Cluster::start()?;
            let url = cluster.url();
            cargo_with_env(
                &[
                    "bench",
                    "--package",
                    "reimburse-ledger",
                    "--bench",
                    "ledger",
                ],
                &[("REIMBURSE_BENCH_POSTGRES_URL", &url)],
            )
        }
        Some("extract") => {
            let python = bench_venv(&["pdfplumber"], "pdfplumber")?;
            let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .args(["bench", "--package", "reimburse", "--bench", "extract"])
                .env("REIMBURSE_BENCH_PYTHON", python)
                .current_dir(workspace_root())
                .status()
                .context("cannot run cargo bench")?;
            if !status.success() {
                bail!("extraction benchmark failed ({status})");
            }
            Ok(())
        }
        Some(other) => {
            bail!("unknown benchmark `{other}` (known: sse, extract, process, agent, ocr, ledger)")
        }
        None => bail!(
            "name a benchmark: cargo xtask bench sse | extract | process | agent | ocr | ledger"
        ),
    }
}

/// The PP-OCR engine (onnxruntime through `ort`, in process) against the Python RapidOCR pipeline on the same
/// screenshots, each on one thread and on two.
fn ocr_engines() -> anyhow::Result<()> {
    let root = workspace_root();
    let mut images: Vec<PathBuf> = std::fs::read_dir(root.join("fixtures/screenshots"))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "png" || e == "jpg"))
        .collect();
    images.sort();
    let cargo_bin = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let python = bench_venv(&["rapidocr_onnxruntime==1.4.4"], "rapidocr_onnxruntime")?;
    for threads in ["1", "2"] {
        let status = Command::new(&cargo_bin)
            .args([
                "run",
                "--quiet",
                "--release",
                "--package",
                "reimburse-pp-ocr",
                "--example",
            ])
            .args(["pp_ocr_bench", "--"])
            .args(&images)
            .env("REIMBURSE_OCR_THREADS", threads)
            .current_dir(&root)
            .status()
            .context("cannot run the pp-ocr bench")?;
        if !status.success() {
            bail!("pp-ocr bench failed ({status})");
        }
        let out = Command::new(&python)
            .arg(root.join("xtask/scripts/rapidocr_bench.py"))
            .arg(threads)
            .args(&images)
            .output()
            .context("cannot run the RapidOCR bench")?;
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        eprintln!(
            "RapidOCR (Python, onnxruntime): {}",
            String::from_utf8_lossy(&out.stdout).trim()
        );
    }
    Ok(())
}

/// A throwaway virtualenv under target/ for the benchmarks' Python peers, with `packages`
/// installed unless `module` already imports. Returns its python.
fn bench_venv(packages: &[&str], module: &str) -> anyhow::Result<PathBuf> {
    let venv = workspace_root().join("target/bench-venv");
    let python = venv.join("bin/python");
    let has = |python: &PathBuf| {
        Command::new(python)
            .args(["-c", &format!("import {module}")])
            .status()
            .map(|s| s.success())
            .unwrap_or(false)
    };
    if has(&python) {
        return Ok(python);
    }
    if !python.is_file() {
        eprintln!("xtask: creating {}", venv.display());
        let created = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()?;
        if !created.success() {
            bail!("python3 -m venv failed (Debian: apt-get install python3-venv)");
        }
    }
    eprintln!(
        "xtask: installing {} into {}",
        packages.join(" "),
        venv.display()
    );
    let installed = Command::new(&python)
        .args(["-m", "pip", "install", "--quiet"])
        .args(packages)
        .status()?;
    if !installed.success() || !has(&python) {
        bail!("pip install {} failed", packages.join(" "));
    }
    Ok(python)
}

/// `cargo xtask fuzz [MINUTES]`: mutation fuzzing of the extractor over the corpus and the
/// fixtures (see crates/extraction/examples/fuzz_extract.rs).
pub fn fuzz(args: &[String]) -> anyhow::Result<()> {
    let minutes: u64 = args.first().and_then(|m| m.parse().ok()).unwrap_or(10);
    let root = workspace_root();
    let mut seeds: Vec<String> = Vec::new();
    for dir in [
        root.join("../shared/corpus/invoices"),
        root.join("fixtures/invoices"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path
                .extension()
                .is_some_and(|e| e == "pdf" || e == "ofd" || e == "xml")
            {
                seeds.push(path.display().to_string());
            }
        }
    }
    seeds.sort();
    let seconds = (minutes * 60).to_string();
    let mut command = vec![
        "run",
        "--release",
        "--package",
        "reimburse-extraction",
        "--example",
        "fuzz_extract",
        "--",
        &seconds,
        "target/fuzz-extract",
    ];
    command.extend(seeds.iter().map(String::as_str));
    cargo(&command)
}

/// `cargo xtask fuzz-http [CASES]`: the HTTP fuzz tests (crates/http-api/tests/fuzz_http.rs:
/// sign-in off, signed out and signed in, each with CASES requests) with more cases than
/// `cargo xtask test` runs, printing their figures.
pub fn fuzz_http(args: &[String]) -> anyhow::Result<()> {
    let cases = args.first().map_or("20000", String::as_str);
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args([
            "test",
            "--release",
            "--package",
            "reimburse-http-api",
            "--test",
            "fuzz_http",
            "--",
            "--nocapture",
        ])
        .env("REIMBURSE_HTTP_FUZZ_CASES", cases)
        .current_dir(workspace_root())
        .status()
        .context("cannot run cargo test")?;
    if !status.success() {
        bail!("HTTP fuzz failed ({status})");
    }
    Ok(())
}

/// The pictures of the printed claim in docs/images (committed): the fixture package's page 1
/// and its first 粘贴单, rendered by the default template and poppler.
pub fn print_images() -> anyhow::Result<()> {
    ensure_system_packages()?;
    cargo(&[
        "run",
        "--release",
        "--package",
        "reimburse-claim-print",
        "--example",
        "docs_images",
    ])
}

/// `cargo xtask screenshots`: the page tests (crates/http-api/tests/pages.rs) with a PNG of
/// each state they reach written to target/screenshots (not committed).
pub fn screenshots() -> anyhow::Result<()> {
    ensure_system_packages()?;
    let dir = workspace_root().join("target/screenshots");
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .args(["test", "--package", "reimburse-http-api", "--test", "pages"])
        .env("REIMBURSE_SCREENSHOTS_DIR", &dir)
        .current_dir(workspace_root())
        .status()
        .context("cannot run cargo test")?;
    if !status.success() {
        bail!("page tests failed ({status})");
    }
    let mut names: Vec<String> = std::fs::read_dir(&dir)?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    eprintln!("xtask: {} screenshots in {}:", names.len(), dir.display());
    for name in names {
        eprintln!("  {name}");
    }
    Ok(())
}
