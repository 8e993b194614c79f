//! Golden tests: every `fixtures/invoices/<name>.{pdf,ofd,xml}` with a sibling `<name>.json`
//! (a `domain::InvoiceRecord`, written by `crates/invoice-fixtures`) must extract to exactly
//! that record. Without fixtures the test prints a note and passes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test code"
)]

use std::path::{Path, PathBuf};

fn fixtures_dir() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("fixtures/invoices"))
        .find(|p| p.is_dir())
}

#[test]
fn fixtures_extract_to_their_golden_records() {
    let Some(dir) = fixtures_dir() else {
        println!("note: no fixtures/invoices directory; nothing to check");
        return;
    };
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("pdf" | "ofd" | "xml")
            )
        })
        .filter(|p| p.with_extension("json").is_file())
        .collect();
    inputs.sort();
    if inputs.is_empty() {
        println!(
            "note: {} holds no fixture with a golden record; nothing to check",
            dir.display()
        );
        return;
    }
    let mut failures = Vec::new();
    for input in &inputs {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        let want: domain::InvoiceRecord =
            serde_json::from_slice(&std::fs::read(input.with_extension("json")).unwrap()).unwrap();
        match reimburse_extraction::extract(&std::fs::read(input).unwrap(), &name) {
            Ok(got) if got == want => println!("ok   {name}"),
            Ok(got) => {
                println!("FAIL {name}");
                let (w, g) = (
                    serde_json::to_value(&want).unwrap(),
                    serde_json::to_value(&got).unwrap(),
                );
                for (key, wv) in w.as_object().unwrap() {
                    let gv = &g[key];
                    if gv != wv {
                        println!("     {key}: want {wv}\n     {key}:  got {gv}");
                    }
                }
                failures.push(name);
            }
            Err(e) => {
                println!("FAIL {name}: {e}");
                failures.push(name);
            }
        }
    }
    println!(
        "{} of {} fixtures match",
        inputs.len() - failures.len(),
        inputs.len()
    );
    assert!(
        failures.is_empty(),
        "fixtures not matching their golden records: {failures:?}"
    );
}

/// The generated batch the process benchmark uploads: every invoice distinct and extracted to
/// its record, so the benchmark measures a run that does the whole job.
#[test]
fn benchmark_batch_extracts_to_its_golden_records() {
    let batch = invoice_fixtures::office_supply_batch("bench", 20);
    let mut numbers = std::collections::BTreeSet::new();
    for fixture in &batch {
        let got = reimburse_extraction::extract(&fixture.bytes, &fixture.file_name).unwrap();
        assert_eq!(got, fixture.expected, "{}", fixture.file_name);
        numbers.insert(got.invoice_number);
    }
    assert_eq!(numbers.len(), 20, "the invoices are distinct");
}
