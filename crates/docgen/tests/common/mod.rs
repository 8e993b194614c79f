//! Helpers shared by the integration tests: the committed template, sample data, and
//! editing parts of a .docx the way Word would have written them.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    dead_code,
    reason = "test helpers fail loudly on purpose; each test file uses a subset"
)]

use std::io::{Cursor, Read, Write};
use std::path::{Path, PathBuf};

use reimburse_docgen::{OutboundDoc, OutboundItem};

pub fn template_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../templates/易耗品出库单.docx")
}

pub fn template() -> Vec<u8> {
    std::fs::read(template_path()).unwrap()
}

pub fn sample() -> OutboundDoc {
    OutboundDoc {
        date: "2025/03/11".to_owned(),
        claimant: "张三".to_owned(),
        department: "物理学院".to_owned(),
        storage: "理科楼203室 <B区> & 柜".to_owned(),
        items: vec![
            OutboundItem {
                name: "A4复印纸".to_owned(),
                spec: "70g 500张/包".to_owned(),
                unit: "包".to_owned(),
                quantity: "10".to_owned(),
                unit_price: "25.50".to_owned(),
                amount: "255.00".to_owned(),
            },
            OutboundItem {
                name: "硒鼓".to_owned(),
                spec: "HP CF388A".to_owned(),
                unit: "个".to_owned(),
                quantity: "1".to_owned(),
                unit_price: "400.00".to_owned(),
                amount: "400.00".to_owned(),
            },
        ],
    }
}

pub fn part(docx: &[u8], name: &str) -> String {
    let mut archive = zip::ZipArchive::new(Cursor::new(docx)).unwrap();
    let mut text = String::new();
    archive
        .by_name(name)
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    text
}

/// Rewrites one part of a .docx, copying the others.
pub fn with_part(docx: &[u8], name: &str, content: &str) -> Vec<u8> {
    let mut archive = zip::ZipArchive::new(Cursor::new(docx)).unwrap();
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for index in 0..archive.len() {
        let file = archive.by_index_raw(index).unwrap();
        if file.name() == name {
            drop(file);
            writer
                .start_file(name, zip::write::SimpleFileOptions::default())
                .unwrap();
            writer.write_all(content.as_bytes()).unwrap();
        } else {
            writer.raw_copy_file(file).unwrap();
        }
    }
    writer.finish().unwrap().into_inner()
}

/// The committed template with `{{存放地点}}` and `{{名称}}` split over runs, with spell-check
/// marks and a bookmark between them, as Word stores text typed in several edits.
pub fn split_template() -> Vec<u8> {
    let template = template();
    let xml = part(&template, "word/document.xml");
    let storage = r#"<w:r><w:t xml:space="preserve">{{存放地点}}</w:t></w:r>"#;
    let name = r#"<w:r><w:t xml:space="preserve">{{名称}}</w:t></w:r>"#;
    assert!(xml.contains(storage) && xml.contains(name));
    let xml = xml
        .replace(
            storage,
            concat!(
                r#"<w:r><w:rPr><w:b/></w:rPr><w:t>{{存</w:t></w:r><w:proofErr w:type="spellStart"/>"#,
                r#"<w:r><w:rPr><w:i/></w:rPr><w:t>放地</w:t></w:r><w:bookmarkStart w:id="7" w:name="a"/>"#,
                r#"<w:r><w:t>点}</w:t></w:r><w:bookmarkEnd w:id="7"/><w:r><w:t>}</w:t></w:r>"#,
                r#"<w:proofErr w:type="spellEnd"/>"#
            ),
        )
        .replace(
            name,
            r#"<w:r><w:t>{</w:t></w:r><w:r><w:t>{名</w:t></w:r><w:proofErr w:type="gramStart"/><w:r><w:t>称}}</w:t></w:r>"#,
        );
    with_part(&template, "word/document.xml", &xml)
}

/// Adds a part (e.g. a header) to a .docx.
pub fn with_extra_part(docx: &[u8], name: &str, content: &str) -> Vec<u8> {
    let mut archive = zip::ZipArchive::new(Cursor::new(docx)).unwrap();
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for index in 0..archive.len() {
        writer
            .raw_copy_file(archive.by_index_raw(index).unwrap())
            .unwrap();
    }
    writer
        .start_file(name, zip::write::SimpleFileOptions::default())
        .unwrap();
    writer.write_all(content.as_bytes()).unwrap();
    writer.finish().unwrap().into_inner()
}
