//! Extraction speed over the real corpus, against pdfplumber's extract_text in the same run.
//!
//! A documented harness (not criterion): for every invoice document in the corpus it runs
//! `extraction::extract` (text layer, fields, cross-checks) REPEATS times on one thread and
//! takes the median per file; then the median over files, the total, and the peak RSS of this
//! process. When `REIMBURSE_BENCH_PYTHON` names a Python with pdfplumber (the xtask sets one up
//! in a throwaway venv), pdfplumber's `extract_text` alone is timed on the same PDFs and the
//! speed-up is printed. Run with `cargo xtask bench extract`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    reason = "bench code: a failed step should abort loudly"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const REPEATS: usize = 200;

fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("REIMBURSE_CORPUS") {
        return PathBuf::from(dir);
    }
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let candidate = dir.join("shared/corpus/invoices");
        if candidate.is_dir() {
            return candidate;
        }
        assert!(dir.pop(), "corpus not found: set REIMBURSE_CORPUS");
    }
}

fn median(samples: &mut [f64]) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kib| kib / 1024.0)
}

fn pdfplumber_median(python: &str, pdfs: &[PathBuf]) -> Option<f64> {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../xtask/scripts/pdfplumber_bench.py");
    let output = Command::new(python)
        .arg(script)
        .arg("5")
        .args(pdfs)
        .output()
        .ok()?;
    if !output.status.success() {
        eprintln!(
            "pdfplumber bench failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        return None;
    }
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).ok()?;
    json["median_ms"].as_f64()
}

fn main() {
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "pdf" || e == "ofd" || e == "xml")
        })
        .collect();
    files.sort();
    let mut per_file = Vec::new();
    let mut total = 0.0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut samples = Vec::with_capacity(REPEATS);
        for _ in 0..REPEATS {
            let start = Instant::now();
            let outcome = extraction::extract(&bytes, &name);
            samples.push(start.elapsed().as_secs_f64() * 1000.0);
            std::hint::black_box(outcome.is_ok());
        }
        let m = median(&mut samples);
        total += m;
        per_file.push((name, m));
    }
    let mut medians: Vec<f64> = per_file.iter().map(|(_, m)| *m).collect();
    let overall = median(&mut medians);
    let slowest = per_file.iter().map(|(_, m)| *m).fold(0.0, f64::max);
    println!(
        "extraction over {} corpus files, {REPEATS} runs each, one thread:",
        files.len()
    );
    println!(
        "  median {overall:.3} ms per invoice   slowest file {slowest:.3} ms   sum of medians {total:.2} ms"
    );
    println!("  peak RSS {:.1} MiB", peak_rss_mib());
    println!(
        "  target <= 2 ms per invoice -> {}",
        if overall <= 2.0 { "met" } else { "MISSED" }
    );
    match std::env::var("REIMBURSE_BENCH_PYTHON") {
        Ok(python) => {
            let pdfs: Vec<PathBuf> = files
                .iter()
                .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
                .cloned()
                .collect();
            let mut ours: Vec<f64> = per_file
                .iter()
                .filter(|(name, _)| name.ends_with(".pdf"))
                .map(|(_, m)| *m)
                .collect();
            let ours = median(&mut ours);
            match pdfplumber_median(&python, &pdfs) {
                Some(theirs) => {
                    let ratio = theirs / ours;
                    println!(
                        "pdfplumber extract_text alone on the same {} PDFs: median {theirs:.2} ms per invoice",
                        pdfs.len()
                    );
                    println!(
                        "  ours {ours:.3} ms -> {ratio:.0}x faster (target >= 20x -> {})",
                        if ratio >= 20.0 { "met" } else { "MISSED" }
                    );
                }
                None => println!("pdfplumber comparison unavailable"),
            }
        }
        Err(_) => println!(
            "(set REIMBURSE_BENCH_PYTHON, or use `cargo xtask bench extract`, for the pdfplumber comparison)"
        ),
    }
    for (name, m) in &per_file {
        println!("    {m:8.3} ms  {name}");
    }
}
