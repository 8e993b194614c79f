//! Parse each given PDF many times and print the median time per file:
//! `cargo run --release -p reimburse-pdf-text --example pdf_text_bench -- [-n N] FILE.pdf...`.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    let mut iterations = 200usize;
    let mut files = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "-n" {
            iterations = args
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(iterations)
                .max(1);
        } else {
            files.push(arg);
        }
    }
    if files.is_empty() {
        eprintln!("usage: bench [-n N] FILE.pdf...");
        return ExitCode::FAILURE;
    }
    let mut medians = Vec::new();
    for path in &files {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        // Warm up caches and the allocator.
        let runs = match reimburse_pdf_text::parse(&bytes) {
            Ok(doc) => doc.pages.iter().map(|p| p.runs.len()).sum::<usize>(),
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let mut times: Vec<f64> = (0..iterations)
            .map(|_| {
                let start = Instant::now();
                let doc = reimburse_pdf_text::parse(&bytes);
                let elapsed = start.elapsed().as_secs_f64() * 1e6;
                drop(std::hint::black_box(doc));
                elapsed
            })
            .collect();
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        medians.push(median);
        let name = std::path::Path::new(path)
            .file_name()
            .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
        println!(
            "{median:9.1} µs  {:7.1} KB  {runs:5} runs  {name}",
            bytes.len() as f64 / 1024.0
        );
    }
    if !medians.is_empty() {
        let total: f64 = medians.iter().sum();
        let mut sorted = medians.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
        println!(
            "{} files: total {total:.1} µs, mean {:.1} µs, median {median:.1} µs, max {:.1} µs",
            medians.len(),
            total / medians.len() as f64,
            sorted.last().copied().unwrap_or(0.0)
        );
    }
    ExitCode::SUCCESS
}
