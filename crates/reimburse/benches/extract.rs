//! Extraction speed over the real corpora, against pdfplumber's extract_text in the same run.
//!
//! A documented harness (not criterion): every invoice document of both corpora is extracted
//! as the service does it (`extract_with` and the page OCR). Files read from their text layer
//! alone run REPEATS times on one thread (median per file; then the median over files, the
//! total, and the peak RSS of this process); files that needed OCR (a lying text layer, a
//! payee only in a seal) run OCR_REPEATS times and are reported apart, in ms per page. When `REIMBURSE_BENCH_PYTHON` names a Python with pdfplumber (the xtask sets one up
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
const OCR_REPEATS: usize = 5;

/// `REIMBURSE_CORPUS` (directories separated by `:`), else `shared/corpus/invoices` and
/// `invoices-2` in an ancestor.
fn corpus_dirs() -> Vec<PathBuf> {
    if let Some(dirs) = std::env::var_os("REIMBURSE_CORPUS") {
        return std::env::split_paths(&dirs).collect();
    }
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    loop {
        let candidate = dir.join("shared/corpus");
        if candidate.is_dir() {
            return ["invoices", "invoices-2"]
                .iter()
                .map(|d| candidate.join(d))
                .filter(|d| d.is_dir())
                .collect();
        }
        assert!(dir.pop(), "corpus not found: set REIMBURSE_CORPUS");
    }
}

/// Whether the record needed the page OCR.
fn used_ocr(record: &domain::InvoiceRecord) -> bool {
    !record.text_source.is_empty() || record.flags.iter().any(|f| f.source == "seal")
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
    let mut files: Vec<PathBuf> = corpus_dirs()
        .iter()
        .flat_map(|dir| std::fs::read_dir(dir).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "pdf" || e == "ofd" || e == "xml")
        })
        .collect();
    files.sort();
    let ocr = page_ocr::PageOcr::new();
    let mut per_file = Vec::new();
    let mut ocr_files: Vec<(String, f64, usize)> = Vec::new();
    let mut total = 0.0;
    let mut text_layer_files = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let first = extraction::extract_with(&bytes, &name, Some(&ocr));
        let needs_ocr = first.as_ref().is_ok_and(used_ocr);
        let repeats = if needs_ocr { OCR_REPEATS } else { REPEATS };
        let mut samples = Vec::with_capacity(repeats);
        for _ in 0..repeats {
            let start = Instant::now();
            let outcome = extraction::extract_with(&bytes, &name, Some(&ocr));
            samples.push(start.elapsed().as_secs_f64() * 1000.0);
            std::hint::black_box(outcome.is_ok());
        }
        let m = median(&mut samples);
        if needs_ocr {
            let pages = first.map_or(1, |r| r.page_count.max(1) as usize);
            ocr_files.push((name, m, pages));
            continue;
        }
        total += m;
        text_layer_files.push(path.clone());
        per_file.push((name, m));
    }
    let mut medians: Vec<f64> = per_file.iter().map(|(_, m)| *m).collect();
    let overall = median(&mut medians);
    let slowest = per_file.iter().map(|(_, m)| *m).fold(0.0, f64::max);
    println!(
        "extraction from the text layer: {} of {} corpus files, {REPEATS} runs each, one thread:",
        per_file.len(),
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
            let pdfs: Vec<PathBuf> = text_layer_files
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
    println!(
        "files that needed the page OCR (pdftoppm + PP-OCR), {OCR_REPEATS} runs each, reported apart:"
    );
    for (name, m, pages) in &ocr_files {
        println!(
            "    {:8.1} ms per page ({pages} page(s), {m:.1} ms)  {name}",
            m / *pages as f64
        );
    }
}
