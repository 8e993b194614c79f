//! Recognition of the committed synthetic screenshots (fixtures/screenshots)
//! with tesseract: amount, date and card last four right on at least 98% of
//! the fields of each screen type. Skipped, with a note, where tesseract or
//! its chi_sim/eng models are not installed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

use std::collections::BTreeMap;

use payments::Recognizer;
use payments::fixtures::{self, SCORED};

#[test]
fn fixtures_reach_the_accuracy_target() {
    let recognizer = Recognizer::tesseract();
    if let Err(e) = recognizer.ocr.check() {
        panic!("{e}: cargo xtask install installs tesseract");
    }
    let list = fixtures::load(&fixtures::default_dir()).expect("fixtures/screenshots");
    assert!(
        list.len() >= 20,
        "expected the committed fixtures, found {}",
        list.len()
    );
    let mut per_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut wrong = Vec::new();
    for fx in &list {
        let got = recognizer.recognize_file(&fx.image).expect("recognition");
        assert_eq!(
            got.record.no_payment, fx.expected.no_payment,
            "{}",
            fx.expected.file
        );
        let entry = per_kind.entry(fx.kind.clone()).or_default();
        for field in SCORED {
            let want = fixtures::field(&fx.expected, field);
            let have = fixtures::field(&got.record, field);
            entry.1 += 1;
            if want == have {
                entry.0 += 1;
            } else {
                wrong.push(format!(
                    "{} {field}: want {want:?} got {have:?}",
                    fx.expected.file
                ));
            }
        }
    }
    for (kind, (right, all)) in &per_kind {
        assert!(
            right * 100 >= all * 98,
            "{kind}: {right}/{all} fields right; wrong: {wrong:#?}"
        );
    }
}

#[test]
fn fixture_records_are_canonical() {
    // What the generator wrote must survive sanitising unchanged: the
    // expected records use the shapes both recognition paths produce.
    for fx in fixtures::load(&fixtures::default_dir()).expect("fixtures/screenshots") {
        assert!(fx.image.exists(), "{} missing", fx.image.display());
        assert_eq!(
            fx.expected.clone().sanitized(),
            fx.expected,
            "{}",
            fx.expected.file
        );
    }
}

/// The in-process library and the program are two ways to the same engine: on a screen that
/// takes a page pass and a digits re-read they read the same record. Also proves the library
/// is really used where it is installed (Debian's tesseract-ocr brings libtesseract5).
#[test]
fn the_library_and_the_program_read_alike() {
    let mut program = Recognizer::tesseract();
    program.ocr.in_process = false;
    if let Err(e) = program.ocr.check() {
        panic!("{e}: cargo xtask install installs tesseract");
    }
    let library = Recognizer::tesseract();
    assert!(
        library.ocr.backend().unwrap().starts_with("libtesseract"),
        "libtesseract is installed with the program and must load"
    );
    for stem in ["alipay_bill_01", "bank_card_02"] {
        let image = fixtures::default_dir().join(format!("{stem}.png"));
        let a = library.recognize_file(&image).unwrap();
        let b = program.recognize_file(&image).unwrap();
        assert_eq!(a.record, b.record, "{stem}");
        assert_eq!(a.passes, b.passes, "{stem}");
    }
}
