//! Per-field accuracy of extraction on the real corpus, with every mismatch:
//! `cargo run -p extraction --example extract_accuracy [-- CORPUS_DIR]` (default: `REIMBURSE_CORPUS`
//! or `shared/corpus/invoices` above this crate). Unlabelled OFD/XML files are summarised.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a developer tool"
)]

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;

fn main() {
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .or_else(common::corpus_dir)
        .expect("corpus not found: pass its directory or set REIMBURSE_CORPUS");
    let report = common::grade(&dir);
    println!("{} labelled files\n", report.files);
    print!("{}", report.table());
    println!("\nmismatches:");
    for m in &report.mismatches {
        println!("  {m}");
    }
    println!("\nunlabelled files:");
    let mut others: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("ofd" | "xml")))
        .collect();
    others.sort();
    for p in others {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        match extraction::extract(&std::fs::read(&p).unwrap(), &name) {
            Ok(r) => println!("  {name}:\n{}", serde_json::to_string_pretty(&r).unwrap()),
            Err(e) => println!("  {name}: error: {e}"),
        }
    }
    println!("\ngrade: {}", if report.passes() { "PASS" } else { "FAIL" });
}
