//! Runs over the real invoice corpus when it is present: every PDF whose
//! label carries a `qr` text must yield exactly that text.
//!
//! The corpus lives outside the crate (`shared/corpus/invoices` in an
//! ancestor directory, or `REIMBURSE_CORPUS`); without it the test prints a
//! note and passes. Nothing from the corpus is copied into this source.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test code"
)]

use std::path::PathBuf;

fn corpus_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("REIMBURSE_CORPUS") {
        let dir = PathBuf::from(dir);
        let dir = if dir.join("labels.json").is_file() {
            dir
        } else {
            dir.join("invoices")
        };
        return dir.join("labels.json").is_file().then_some(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/corpus/invoices"))
        .find(|p| p.join("labels.json").is_file())
}

/// Without the corpus: a lone clone says so in one line and goes on; CI (`CI` set) must have
/// it, so every real invoice is graded there.
fn corpus_missing(what: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{what}: the real-invoice corpus (../shared/corpus or REIMBURSE_CORPUS) is required under CI"
    );
    // Straight to stderr: the test harness would swallow a println! of a passing test.
    let note = format!(
        "note: real-invoice corpus not found (../shared/corpus or REIMBURSE_CORPUS): {what} not run\n"
    );
    let _ = std::io::Write::write_all(&mut std::io::stderr(), note.as_bytes());
}

#[test]
fn corpus_qr_codes_decode_to_their_labels() {
    let Some(dir) = corpus_dir() else {
        return corpus_missing("the QR corpus check");
    };
    let labels: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("labels.json")).unwrap()).unwrap();
    let mut failures = Vec::new();
    let mut expected_count = 0;
    let mut decoded = 0;
    for entry in labels.as_array().unwrap() {
        let (Some(file), Some(qr)) = (entry["file"].as_str(), entry["qr"].as_str()) else {
            continue;
        };
        if qr.is_empty() || !file.ends_with(".pdf") {
            continue;
        }
        expected_count += 1;
        let bytes = std::fs::read(dir.join(file)).unwrap();
        match reimburse_invoice_qr::find_invoice_qr(&bytes) {
            Some(found) if found.raw == qr => {
                decoded += 1;
                // The parsed fields agree with the label's.
                if let Some(number) = entry["发票号码"].as_str() {
                    assert_eq!(found.number, number, "{file}");
                }
            }
            Some(found) => {
                failures.push(format!("{file}: decoded a different text ({})", found.kind))
            }
            None => failures.push(format!("{file}: no QR code decoded")),
        }
    }
    println!("{decoded} of {expected_count} labelled QR codes decoded");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
