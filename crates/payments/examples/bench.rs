//! Times recognition of each screenshot (decode, preparation, tesseract,
//! parsing) and prints the median ms per screenshot: `cargo run --release
//! -p payments --example bench -- [-n RUNS] [FILES or DIR]` (default: every
//! image of fixtures/screenshots, 3 runs each).

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use payments::Recognizer;
use payments::fixtures;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut runs = 3usize;
    let mut inputs: Vec<PathBuf> = Vec::new();
    while let Some(a) = args.next() {
        if a == "-n" {
            runs = args
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(runs)
                .max(1);
        } else {
            inputs.push(PathBuf::from(a));
        }
    }
    if inputs.is_empty() {
        inputs.push(fixtures::default_dir());
    }
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            match fixtures::load(&input) {
                Ok(list) => files.extend(list.into_iter().map(|f| f.image)),
                Err(e) => {
                    eprintln!("{}: {e}", input.display());
                    return ExitCode::FAILURE;
                }
            }
        } else {
            files.push(input);
        }
    }
    let recognizer = Recognizer::tesseract();
    if let Err(e) = recognizer.ocr.check() {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    let mut medians = Vec::new();
    for file in &files {
        let mut times = Vec::new();
        let mut passes = 0;
        for _ in 0..runs {
            let started = Instant::now();
            match recognizer.recognize_file(file) {
                Ok(r) => passes = r.passes.len(),
                Err(e) => {
                    eprintln!("{}: {e}", file.display());
                    return ExitCode::FAILURE;
                }
            }
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        println!(
            "{:>7.0} ms  {} pass(es)  {}",
            median,
            passes,
            file.display()
        );
        medians.push(median);
    }
    medians.sort_by(f64::total_cmp);
    let overall = medians.get(medians.len() / 2).copied().unwrap_or(0.0);
    let worst = medians.last().copied().unwrap_or(0.0);
    println!(
        "median {overall:.0} ms per screenshot, slowest {worst:.0} ms ({} files)",
        medians.len()
    );
    ExitCode::SUCCESS
}
