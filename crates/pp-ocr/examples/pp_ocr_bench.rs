//! Median ms per screenshot for the engine: `cargo run --release -p reimburse-pp-ocr --example
//! pp_ocr_bench -- IMAGE...` (default: the committed screenshot fixtures). Threads follow
//! `REIMBURSE_OCR_THREADS` (default: all cores); `cargo xtask bench ocr` runs it with one and
//! with two.

#![allow(
    clippy::print_stdout,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark tool"
)]

use std::path::{Path, PathBuf};
use std::time::Instant;

fn main() {
    let mut paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/screenshots");
        paths = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "png" || e == "jpg"))
            .collect();
        paths.sort();
    }
    let started = Instant::now();
    let engine = reimburse_pp_ocr::Engine::find().unwrap_or_else(|e| panic!("{e}"));
    println!("models loaded in {} ms", started.elapsed().as_millis());
    let mut ms: Vec<f64> = Vec::new();
    for path in &paths {
        let image = image::open(path).unwrap().to_rgb8();
        let t = Instant::now();
        let lines = engine.read(&image).unwrap();
        let took = t.elapsed().as_secs_f64() * 1000.0;
        println!("{took:8.0} ms  {:3} lines  {}", lines.len(), path.display());
        ms.push(took);
    }
    ms.sort_by(f64::total_cmp);
    let threads = std::env::var("REIMBURSE_OCR_THREADS").unwrap_or_else(|_| "all".into());
    println!(
        "pp-ocr (onnxruntime), {threads} thread(s): median {:.0} ms per screenshot over {} (min {:.0}, max {:.0})",
        ms[ms.len() / 2],
        ms.len(),
        ms[0],
        ms[ms.len() - 1]
    );
}
