//! Median time per file of the whole extraction (PDF parse, QR, fields, checks), with the
//! PDF parse and the QR decode timed on their own for comparison:
//! `cargo run --release -p reimburse-extraction --example extract_bench -- [-n N] FILE...`.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::process::ExitCode;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    let mut iterations = 100usize;
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
        eprintln!("usage: bench [-n N] FILE...");
        return ExitCode::FAILURE;
    }
    let mut medians: Vec<(f64, f64, f64)> = Vec::new();
    println!(
        "{:>9} {:>9} {:>9} {:>9}  file (µs)",
        "total", "parse", "qr", "rest"
    );
    for path in &files {
        let Ok(bytes) = std::fs::read(path) else {
            eprintln!("{path}: unreadable");
            continue;
        };
        let name = std::path::Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let ok = reimburse_extraction::extract(&bytes, &name).is_ok();
        let time = |f: &dyn Fn()| {
            let times: Vec<f64> = (0..iterations)
                .map(|_| {
                    let start = Instant::now();
                    f();
                    start.elapsed().as_secs_f64() * 1e6
                })
                .collect();
            median(times)
        };
        let total = time(&|| {
            drop(std::hint::black_box(reimburse_extraction::extract(
                &bytes, &name,
            )))
        });
        let is_pdf = bytes.starts_with(b"%PDF");
        let (parse, qr) = if is_pdf {
            (
                time(&|| drop(std::hint::black_box(pdf_text::parse(&bytes)))),
                time(&|| drop(std::hint::black_box(invoice_qr::find_invoice_qr(&bytes)))),
            )
        } else {
            (0.0, 0.0)
        };
        println!(
            "{total:9.1} {parse:9.1} {qr:9.1} {:9.1}  {}{path}",
            total - parse - qr,
            if ok { "" } else { "(error) " }
        );
        medians.push((total, parse, qr));
    }
    let col = |f: fn(&(f64, f64, f64)) -> f64| median(medians.iter().map(f).collect());
    println!(
        "{:9.1} {:9.1} {:9.1} {:9.1}  median over {} files (µs: total, pdf parse, qr, rest)",
        col(|m| m.0),
        col(|m| m.1),
        col(|m| m.2),
        col(|m| m.0 - m.1 - m.2),
        files.len()
    );
    ExitCode::SUCCESS
}
