//! Times recognition of each screenshot (decode, preparation, tesseract,
//! parsing) and prints the median wall and CPU ms per screenshot: `cargo run --release
//! -p payments --example ocr_bench -- [-n RUNS] [--program] [FILES or DIR]` (default: every
//! image of fixtures/screenshots, 3 runs each). CPU time is this thread's time on a core
//! (`/proc/thread-self/schedstat`), so it reads the same on a busy machine; it counts
//! in-process tesseract only, so `--program` (one tesseract run per page, as without
//! libtesseract) reports wall time alone. The models load before the first timed run.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use payments::Recognizer;
use payments::fixtures;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut runs = 3usize;
    let mut program = false;
    let mut inputs: Vec<PathBuf> = Vec::new();
    while let Some(a) = args.next() {
        if a == "--program" {
            program = true;
        } else if a == "-n" {
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
    let mut recognizer = Recognizer::tesseract();
    recognizer.ocr.in_process = !program;
    if let Err(e) = recognizer.ocr.check() {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    // Warm-up: loads the models, as a service does once per run.
    let warm_cpu = cpu_ms();
    let warm = Instant::now();
    if let Some(first) = files.first() {
        let _ = recognizer.recognize_file(first);
    }
    println!(
        "warm-up (models loaded, first file read): {:.0} ms wall, {:.0} ms CPU",
        warm.elapsed().as_secs_f64() * 1000.0,
        cpu_ms() - warm_cpu
    );
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    for file in &files {
        let mut wall = Vec::new();
        let mut cpu = Vec::new();
        let mut passes = 0;
        for _ in 0..runs {
            let started = Instant::now();
            let cpu_started = cpu_ms();
            match recognizer.recognize_file(file) {
                Ok(r) => passes = r.passes.len(),
                Err(e) => {
                    eprintln!("{}: {e}", file.display());
                    return ExitCode::FAILURE;
                }
            }
            cpu.push(cpu_ms() - cpu_started);
            wall.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        let (wall, cpu) = (median(&mut wall), median(&mut cpu));
        println!(
            "{wall:>7.0} ms wall {cpu:>7.0} ms CPU  {passes} pass(es)  {}",
            file.display()
        );
        walls.push(wall);
        cpus.push(cpu);
    }
    let (wall, cpu) = (median(&mut walls), median(&mut cpus));
    println!(
        "median {wall:.0} ms wall, {cpu:.0} ms CPU per screenshot; slowest {:.0} ms wall, {:.0} ms CPU ({} files)",
        walls.last().copied().unwrap_or(0.0),
        cpus.last().copied().unwrap_or(0.0),
        walls.len()
    );
    ExitCode::SUCCESS
}

/// Sorts and returns the middle value.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(0.0)
}

/// This thread's time on a CPU so far, in ms (0 where /proc is not there).
fn cpu_ms() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e6)
}
