//! Runs over the real invoice corpus when it is present: every PDF must
//! parse, yield clean text, and contain its labelled invoice number.
//!
//! The corpus lives outside the crate (`shared/corpus/invoices` beside the
//! repository, or `PDF_TEXT_CORPUS`); without it the test prints a note and
//! passes. Nothing from the corpus is copied into this source.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::PathBuf;

fn corpus_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PDF_TEXT_CORPUS") {
        let dir = PathBuf::from(dir);
        return dir.join("labels.json").is_file().then_some(dir);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .skip(1)
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
fn corpus_invoices_parse_and_contain_their_number() {
    let Some(dir) = corpus_dir() else {
        return corpus_missing("the pdf-text corpus check");
    };
    let labels: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("labels.json")).unwrap()).unwrap();
    let mut expected = std::collections::HashMap::new();
    for entry in labels.as_array().unwrap() {
        if let (Some(file), Some(number)) = (entry["file"].as_str(), entry["发票号码"].as_str())
        {
            expected.insert(file.to_owned(), number.to_owned());
        }
    }

    let mut failures = Vec::new();
    let mut checked = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().and_then(|e| e.to_str()) != Some("pdf") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let doc = match reimburse_pdf_text::parse(&std::fs::read(&path).unwrap()) {
            Ok(doc) => doc,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let text = doc.plain_text();
        checked += 1;
        if text.trim().is_empty() {
            failures.push(format!("{name}: no text"));
        }
        if text.contains(char::REPLACEMENT_CHARACTER) {
            failures.push(format!("{name}: undecodable glyphs"));
        }
        match expected.get(&name) {
            Some(number) if !text.contains(number.as_str()) => {
                failures.push(format!("{name}: invoice number {number} not in text"));
            }
            Some(_) => {}
            None => failures.push(format!("{name}: no label")),
        }
    }
    println!("checked {checked} corpus PDFs");
    assert!(checked > 0, "corpus directory has no PDFs");
    assert!(failures.is_empty(), "{failures:#?}");
}
