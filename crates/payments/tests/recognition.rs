//! The committed screenshot fixtures read by the real engine: a per-field snapshot (image ×
//! field → value and deciding rule) in `tests/snapshots/fixtures.txt`, refreshed with
//! `UPDATE_EXPECT=1` and reviewed in the diff; and against the expected records, no wrong
//! value and every non-payment screen recognised. Fails when the models are missing.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

use std::fmt::Write as _;
use std::path::Path;

use reimburse_payments::fixtures::{self, SCORED};
use reimburse_payments::{Field, Recognizer};

#[test]
fn models_are_installed() {
    if let Err(e) = Recognizer::find() {
        panic!("{e}: cargo xtask install fetches the PP-OCR models");
    }
}

#[test]
fn fixtures_match_their_snapshot_and_expected_records() {
    let recognizer = Recognizer::find().expect("models (cargo xtask install)");
    let list = fixtures::load(&fixtures::default_dir()).expect("fixtures/screenshots");
    assert!(
        list.len() >= 20,
        "expected the committed fixtures, found {}",
        list.len()
    );
    let mut snapshot = String::new();
    let mut wrong = Vec::new();
    let (mut right, mut scored) = (0, 0);
    for fx in &list {
        let got = recognizer.recognize_file(&fx.image).expect("recognition");
        let file = &fx.expected.file;
        writeln!(
            snapshot,
            "{file}: {} [{}]",
            got.screen.name(),
            got.screen_rule
        )
        .unwrap();
        for field in Field::ALL {
            let name = field.name();
            let value = fixtures::field(&got.record, name);
            if !value.is_empty() || !got.rule_of(name).is_empty() {
                writeln!(snapshot, "  {name} = {value} [{}]", got.rule_of(name)).unwrap();
            }
        }
        if got.record.no_payment != fx.expected.no_payment {
            wrong.push(format!("{file}: no_payment {}", got.record.no_payment));
        }
        for field in SCORED {
            let (want, have) = (
                fixtures::field(&fx.expected, field),
                fixtures::field(&got.record, field),
            );
            scored += 1;
            if want == have {
                right += 1;
            } else if !have.is_empty() {
                wrong.push(format!("{file}: {field} {have}, want {want}"));
            }
        }
    }
    assert!(wrong.is_empty(), "wrong values: {wrong:#?}");
    assert!(
        right * 100 >= scored * 98,
        "{right}/{scored} scored fields right"
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/fixtures.txt");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&path, &snapshot).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected != snapshot {
        let diff: Vec<String> = expected
            .lines()
            .zip(snapshot.lines())
            .filter(|(a, b)| a != b)
            .take(20)
            .map(|(a, b)| format!("- {a}\n+ {b}"))
            .collect();
        panic!(
            "recognition differs from {} (UPDATE_EXPECT=1 refreshes it):\n{}",
            path.display(),
            diff.join("\n")
        );
    }
}
