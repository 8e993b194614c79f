//! Time `find_invoice_qr` on each given PDF (or every PDF in a directory)
//! and print the median per file:
//! `cargo run --release -p reimburse-invoice-qr --example qr_bench -- [-n N] PATH...`.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut iterations = 100usize;
    let mut files: Vec<PathBuf> = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "-n" {
            iterations = args
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(iterations)
                .max(1);
            continue;
        }
        let path = PathBuf::from(arg);
        match std::fs::read_dir(&path) {
            Ok(entries) => {
                let mut pdfs: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "pdf"))
                    .collect();
                pdfs.sort();
                files.extend(pdfs);
            }
            Err(_) => files.push(path),
        }
    }
    if files.is_empty() {
        eprintln!("usage: bench [-n N] FILE.pdf|DIR...");
        return ExitCode::FAILURE;
    }
    let mut medians = Vec::new();
    for path in &files {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                continue;
            }
        };
        let kind = reimburse_invoice_qr::find_invoice_qr(&bytes)
            .map_or_else(|| "--".to_owned(), |q| q.kind);
        let mut times: Vec<f64> = (0..iterations)
            .map(|_| {
                let start = Instant::now();
                let found = reimburse_invoice_qr::find_invoice_qr(&bytes);
                let elapsed = start.elapsed().as_secs_f64() * 1e6;
                drop(std::hint::black_box(found));
                elapsed
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        medians.push(median);
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        println!("{median:9.1} µs  type {kind:>2}  {name}");
    }
    if !medians.is_empty() {
        let mut sorted = medians.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
        let mean = medians.iter().sum::<f64>() / medians.len() as f64;
        println!(
            "{} files: median {median:.1} µs, mean {mean:.1} µs, max {:.1} µs",
            medians.len(),
            sorted.last().copied().unwrap_or(0.0)
        );
    }
    ExitCode::SUCCESS
}
