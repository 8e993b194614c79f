//! Accuracy on the real invoice corpus when it is present (`REIMBURSE_CORPUS`, or
//! `shared/corpus/invoices` above this crate): exact 发票号码 / 开票日期 / 价税合计 on every
//! labelled file, at least 98% on 销售方名称 and the first 项目名称 (whitespace removed, NFKC).
//! Without the corpus the test prints a note and passes. Nothing from it is copied here.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test code"
)]

mod common;

#[test]
fn corpus_accuracy() {
    let Some(dir) = common::corpus_dir() else {
        println!("note: invoice corpus (shared/corpus/invoices) not found; skipping");
        return;
    };
    let report = common::grade(&dir);
    println!("{} labelled files\n{}", report.files, report.table());
    for m in &report.mismatches {
        println!("  {m}");
    }
    assert!(report.files > 0, "labels.json lists no files");
    assert!(
        report.passes(),
        "graded fields below their thresholds (table above)"
    );
}

/// The unlabelled structured files (OFD, 数电 XML) must extract and check out.
#[test]
fn corpus_structured_files_extract() {
    let Some(dir) = common::corpus_dir() else {
        println!("note: invoice corpus not found; skipping");
        return;
    };
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("ofd" | "xml")
        ) {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let r = extraction::extract(&std::fs::read(&path).unwrap(), &name)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(r.invoice_number.len(), 20, "{name}");
        assert!(!r.seller.name.is_empty() && !r.items.is_empty(), "{name}");
        assert!(r.flags.is_empty(), "{name}: {:?}", r.flags);
        assert!(r.confirmed_by.iter().any(|s| s == "arith"), "{name}");
        println!("{name}: ok, confirmed by {:?}", r.confirmed_by);
    }
}
