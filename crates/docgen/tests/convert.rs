//! Tests with a real LibreOffice: the produced .doc is a Word 97 file that an independent
//! reader (catdoc) finds every value in; split placeholders, parallel use, restart after a
//! crash, timeouts and clean-up. Skipped, with a note, where LibreOffice is not installed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stderr,
    reason = "test helpers fail loudly on purpose"
)]

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{sample, split_template, template_path};
use reimburse_docgen::{
    ConvertMode, Converter, ConverterConfig, DOC_FILE_NAME, DOCX_FILE_NAME, DocError, OutboundDoc,
};

/// A converter in `mode`; LibreOffice missing fails the test (cargo xtask install installs it).
fn converter(mode: ConvertMode) -> Converter {
    converter_with(ConverterConfig {
        mode,
        ..ConverterConfig::default()
    })
}

fn converter_with(config: ConverterConfig) -> Converter {
    let converter = Converter::new(config);
    if let Err(error) = converter.check_installed() {
        panic!("{error}: cargo xtask install installs LibreOffice");
    }
    converter
}

/// The text of a .doc as catdoc reads it (an independent Word 97 reader).
fn catdoc(path: &Path) -> String {
    let output = Command::new("catdoc")
        .args(["-d", "utf-8", "-w"])
        .arg(path)
        .output()
        .expect("catdoc: cargo xtask install installs it");
    assert!(
        output.status.success(),
        "catdoc failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// What `file` says about a file.
fn file_type(path: &Path) -> String {
    let output = Command::new("file")
        .arg("-b")
        .arg(path)
        .output()
        .expect("file: cargo xtask install installs it");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn assert_doc_has_everything(doc_path: &Path, doc: &OutboundDoc) {
    let kind = file_type(doc_path);
    assert!(kind.contains("Composite Document File V2"), "{kind}");
    let text = catdoc(doc_path);
    let totals = doc.totals().unwrap();
    let mut expected = vec![
        doc.storage.as_str(),
        doc.claimant.as_str(),
        doc.department.as_str(),
    ];
    for item in &doc.items {
        expected.extend([
            item.name.as_str(),
            item.spec.as_str(),
            item.quantity.as_str(),
            item.amount.as_str(),
        ]);
    }
    expected.extend([
        totals.amount.as_str(),
        totals.capital.as_str(),
        "2025年03月11日",
    ]);
    for value in expected {
        assert!(
            text.contains(value),
            "{value:?} not in the .doc text:\n{text}"
        );
    }
    assert!(!text.contains("{{"), "placeholder left:\n{text}");
}

fn process_gone(pid: u32) -> bool {
    // A reaped process has no /proc entry; a zombie would still show one.
    !Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn generate_writes_a_word_97_doc_with_every_value() {
    let converter = converter(ConvertMode::Auto);
    let out = tempfile::tempdir().unwrap();
    let doc = sample();
    let generated =
        reimburse_docgen::generate(&template_path(), &doc, out.path(), &converter).unwrap();
    assert_eq!(generated.doc_path, out.path().join("易耗品、出库单.doc"));
    assert_eq!(generated.docx_path, out.path().join(DOCX_FILE_NAME));
    assert!(generated.unknown_placeholders.is_empty());
    assert_doc_has_everything(&generated.doc_path, &doc);
    // Only the two documents: no temp files left beside them.
    let mut names: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, [DOC_FILE_NAME, DOCX_FILE_NAME]);
}

#[test]
fn a_template_with_split_placeholders_converts() {
    let converter = converter(ConvertMode::Auto);
    let dir = tempfile::tempdir().unwrap();
    let template = dir.path().join("split.docx");
    std::fs::write(&template, split_template()).unwrap();
    let doc = sample();
    let generated = reimburse_docgen::generate(&template, &doc, dir.path(), &converter).unwrap();
    assert_doc_has_everything(&generated.doc_path, &doc);
}

#[test]
fn parallel_generations_share_one_converter() {
    let converter = converter(ConvertMode::Auto);
    let converter = Arc::new(converter);
    let threads: Vec<_> = (0..4)
        .map(|i| {
            let converter = Arc::clone(&converter);
            std::thread::spawn(move || {
                let out = tempfile::tempdir().unwrap();
                let mut doc = sample();
                doc.items[0].name = format!("线程{i}专用纸");
                doc.storage = format!("库房{i}");
                let generated =
                    reimburse_docgen::generate(&template_path(), &doc, out.path(), &converter)
                        .unwrap();
                assert_doc_has_everything(&generated.doc_path, &doc);
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
}

#[test]
fn cold_mode_converts_without_a_warm_office() {
    let converter = converter(ConvertMode::Cold);
    let out = tempfile::tempdir().unwrap();
    let doc = sample();
    let generated =
        reimburse_docgen::generate(&template_path(), &doc, out.path(), &converter).unwrap();
    assert_doc_has_everything(&generated.doc_path, &doc);
    assert_eq!(converter.warm_pid(), None);
}

#[test]
fn a_killed_warm_office_is_restarted() {
    let converter = converter(ConvertMode::Warm);
    let docx = reimburse_docgen::fill_docx(&common::template(), &sample()).unwrap();
    converter.convert_docx_to_doc(&docx).unwrap();
    let pid = converter.warm_pid().expect("warm office running");
    Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !converter_process_exited(pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let doc = converter.convert_docx_to_doc(&docx).unwrap();
    assert!(
        doc.starts_with(&[0xD0, 0xCF, 0x11, 0xE0]),
        "not an OLE2 file"
    );
    let new_pid = converter.warm_pid().expect("warm office restarted");
    assert_ne!(pid, new_pid);
    assert!(process_gone(pid), "the dead soffice was not reaped");
}

/// Killed but not yet reaped counts as exited: the converter reaps it on restart.
fn converter_process_exited(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|stat| stat.contains(") Z"))
        .unwrap_or(true)
}

#[test]
fn a_broken_document_fails_without_losing_the_warm_office() {
    let converter = converter(ConvertMode::Warm);
    converter.warm_up().unwrap();
    let pid = converter.warm_pid();
    let error = converter
        .convert_docx_to_doc(b"PK\x03\x04 not really a zip")
        .unwrap_err();
    assert!(matches!(error, DocError::ConversionFailed(_)), "{error}");
    assert!(error.to_string().starts_with("文档转换失败："), "{error}");
    assert_eq!(converter.warm_pid(), pid);
    let docx = reimburse_docgen::fill_docx(&common::template(), &sample()).unwrap();
    converter.convert_docx_to_doc(&docx).unwrap();
}

#[test]
fn a_conversion_over_the_timeout_is_killed() {
    for mode in [ConvertMode::Cold, ConvertMode::Warm] {
        let converter = converter_with(ConverterConfig {
            mode,
            timeout: Duration::from_millis(1),
            ..ConverterConfig::default()
        });
        converter.warm_up().unwrap();
        let pid = converter.warm_pid();
        let docx = reimburse_docgen::fill_docx(&common::template(), &sample()).unwrap();
        let error = converter.convert_docx_to_doc(&docx).unwrap_err();
        assert!(
            matches!(error, DocError::ConversionTimeout { .. }),
            "{mode:?}: {error}"
        );
        assert!(error.to_string().starts_with("文档转换超时"), "{error}");
        assert_eq!(converter.warm_pid(), None);
        if let Some(pid) = pid {
            assert!(
                process_gone(pid),
                "soffice {pid} still running after the timeout"
            );
        }
    }
}

#[test]
fn dropping_the_converter_ends_libreoffice() {
    let converter = converter(ConvertMode::Warm);
    converter.warm_up().unwrap();
    let pid = converter.warm_pid().expect("warm office running");
    let started = Instant::now();
    drop(converter);
    assert!(process_gone(pid), "soffice {pid} still running after drop");
    eprintln!("drop took {} ms", started.elapsed().as_millis());
}

#[test]
fn a_missing_libreoffice_names_the_package() {
    let converter = Converter::new(ConverterConfig {
        soffice: Some("/nonexistent/soffice".into()),
        ..ConverterConfig::default()
    });
    let out = tempfile::tempdir().unwrap();
    let error = reimburse_docgen::generate(&template_path(), &sample(), out.path(), &converter)
        .unwrap_err();
    assert!(matches!(error, DocError::LibreOfficeMissing(_)));
    assert!(
        error.to_string().contains("libreoffice-writer-nogui"),
        "{error}"
    );
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
}
