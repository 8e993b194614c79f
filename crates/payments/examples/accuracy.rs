//! Recognises every screenshot of fixtures/screenshots and prints, per
//! screen type, how many amounts, dates and card last-fours came out right
//! (and a few more fields): `cargo run --release -p payments --example
//! accuracy -- [DIR] [-v] [--check] [--width PX] [--dpi N] [--max-side PX] [--no-shrink]
//! [--modes 6,11] [--simulate WIDTH]`. `--simulate 720` first shrinks each image to that width
//! and recompresses it as a JPEG, as chat apps do to forwarded screenshots. `-v` lists each wrong field;
//! `--check` exits non-zero when a type is below 98% on the scored fields.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use payments::fixtures::{self, REPORTED, SCORED};
use payments::{PageMode, Recognizer};

fn main() -> ExitCode {
    // `RUST_LOG=payments=debug` shows the recognizer's second looks.
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verbose = args.iter().any(|a| a == "-v");
    let check = args.iter().any(|a| a == "--check");
    let simulate: Option<u32> = args
        .iter()
        .position(|a| a == "--simulate")
        .and_then(|i| args.get(i + 1))
        .and_then(|w| w.parse().ok());
    let dir = args
        .iter()
        .find(|a| !a.starts_with('-') && a.parse::<u32>().is_err() && !a.contains(','))
        .map_or_else(fixtures::default_dir, PathBuf::from);
    let mut recognizer = Recognizer::tesseract();
    if let Some(w) = args
        .iter()
        .position(|a| a == "--width")
        .and_then(|i| args.get(i + 1))
        .and_then(|w| w.parse().ok())
    {
        recognizer.prep.screen_width = w;
    }
    if let Some(d) = args
        .iter()
        .position(|a| a == "--dpi")
        .and_then(|i| args.get(i + 1))
        .and_then(|w| w.parse().ok())
    {
        recognizer.ocr.dpi = d;
    }
    if let Some(m) = args
        .iter()
        .position(|a| a == "--modes")
        .and_then(|i| args.get(i + 1))
    {
        let mode = |s: &str| match s {
            "4" => PageMode::Column,
            "11" => PageMode::Sparse,
            _ => PageMode::Block,
        };
        recognizer.modes = m.split(',').map(mode).collect();
    }
    if let Some(m) = args
        .iter()
        .position(|a| a == "--max-side")
        .and_then(|i| args.get(i + 1))
        .and_then(|w| w.parse().ok())
    {
        recognizer.prep.max_side = m;
    }
    if args.iter().any(|a| a == "--no-shrink") {
        recognizer.prep.shrink_big_text = false;
    }
    if let Err(e) = recognizer.ocr.check() {
        eprintln!("{e}");
        return ExitCode::FAILURE;
    }
    let list = match fixtures::load(&dir) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    };
    // kind → (count, correct per field)
    let mut table: BTreeMap<String, (usize, BTreeMap<&str, usize>)> = BTreeMap::new();
    let mut times = Vec::new();
    for fx in &list {
        let started = Instant::now();
        let got = match simulate.map_or_else(
            || recognizer.recognize_file(&fx.image),
            |width| {
                let name = fx.expected.file.clone();
                degraded(&fx.image, width).and_then(|img| recognizer.recognize_image(&name, &img))
            },
        ) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{}: {e}", fx.image.display());
                return ExitCode::FAILURE;
            }
        };
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        let entry = table.entry(fx.kind.clone()).or_default();
        entry.0 += 1;
        for name in SCORED.iter().chain(REPORTED.iter()) {
            let want = fixtures::field(&fx.expected, name);
            let have = fixtures::field(&got.record, name);
            if want == have {
                *entry.1.entry(name).or_default() += 1;
            } else if verbose {
                println!(
                    "{:<22} {:<11} want {:?} got {:?} [{}]",
                    fx.expected.file,
                    name,
                    want,
                    have,
                    got.screen.name()
                );
            }
        }
    }
    println!();
    print!("{:<16} {:>3}", "screen type", "n");
    for name in SCORED.iter().chain(REPORTED.iter()) {
        print!(" {:>11}", name);
    }
    println!(" {:>8}", "scored%");
    let mut failing = false;
    let mut total = (0usize, 0usize);
    for (kind, (n, correct)) in &table {
        print!("{kind:<16} {n:>3}");
        for name in SCORED.iter().chain(REPORTED.iter()) {
            print!(
                " {:>11}",
                format!("{}/{n}", correct.get(name).copied().unwrap_or(0))
            );
        }
        let right: usize = SCORED
            .iter()
            .map(|f| correct.get(f).copied().unwrap_or(0))
            .sum();
        let all = n * SCORED.len();
        total = (total.0 + right, total.1 + all);
        #[expect(clippy::cast_precision_loss, reason = "small counts")]
        let pct = 100.0 * right as f64 / all.max(1) as f64;
        failing |= pct < 98.0;
        println!(" {pct:>7.1}%");
    }
    #[expect(clippy::cast_precision_loss, reason = "small counts")]
    let pct = 100.0 * total.0 as f64 / total.1.max(1) as f64;
    times.sort_by(f64::total_cmp);
    let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
    println!(
        "all scored fields: {}/{} = {pct:.1}%; median {median:.0} ms per screenshot",
        total.0, total.1
    );
    if check && failing {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The image as a chat app forwards it: shrunk to `width`, JPEG quality 75.
fn degraded(
    path: &std::path::Path,
    width: u32,
) -> Result<image::DynamicImage, payments::PaymentsError> {
    let img = payments::preprocess::load(path)?;
    payments::fixtures::chat_forwarded(&img, width).map_err(|e| payments::PaymentsError::Image {
        file: path.display().to_string(),
        message: e.to_string(),
    })
}
