//! Per-field accuracy of extraction (as the service runs it) on the real corpora, with every
//! mismatch: `cargo run --release -p reimburse --example extract_accuracy [-- DIR...]`
//! (default: `REIMBURSE_CORPUS`, or `shared/corpus/invoices` and `invoices-2` above this
//! crate).

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a developer tool"
)]

#[path = "../tests/grade/mod.rs"]
mod grade;

use std::path::PathBuf;

fn main() {
    let mut dirs: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    if dirs.is_empty() {
        dirs = grade::corpus_dirs();
    }
    assert!(!dirs.is_empty(), "corpus not found: pass its directories");
    let started = std::time::Instant::now();
    let report = grade::grade(&dirs);
    println!(
        "{} labelled files in {:.1} s\n",
        report.files,
        started.elapsed().as_secs_f64()
    );
    print!("{}", report.table());
    println!("\nmismatches:");
    for m in &report.mismatches {
        println!("  {m}");
    }
    println!("\ngrade: {}", if report.passes() { "PASS" } else { "FAIL" });
}
