//! The .docx package: reading the XML parts that may hold placeholders and writing the package
//! back with only those parts replaced, every other part copied byte for byte.

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};

use zip::ZipArchive;
use zip::write::{SimpleFileOptions, ZipWriter};

use crate::error::DocError;

/// The main document part.
pub const DOCUMENT_PART: &str = "word/document.xml";

/// Parts larger than this are refused: a real form is a few hundred kilobytes, and the limit
/// keeps a malicious zip from inflating into all memory.
const MAX_PART_BYTES: u64 = 64 * 1024 * 1024;

/// A .docx opened for filling.
#[derive(Debug)]
pub struct Package<'a> {
    archive: ZipArchive<Cursor<&'a [u8]>>,
}

impl<'a> Package<'a> {
    /// Opens the template bytes as a zip with a main document part.
    pub fn open(bytes: &'a [u8]) -> Result<Self, DocError> {
        let archive = ZipArchive::new(Cursor::new(bytes))
            .map_err(|e| DocError::TemplateInvalid(format!("无法作为 zip 打开（{e}）")))?;
        if archive.index_for_name(DOCUMENT_PART).is_none() {
            return Err(DocError::TemplateInvalid(format!("缺少 {DOCUMENT_PART}")));
        }
        Ok(Package { archive })
    }

    /// Names of the parts that may hold placeholders: the body, headers and footers.
    pub fn text_parts(&self) -> Vec<String> {
        let mut parts = vec![DOCUMENT_PART.to_owned()];
        for name in self.archive.file_names() {
            let is_header_or_footer = name.strip_prefix("word/").is_some_and(|n| {
                (n.starts_with("header") || n.starts_with("footer"))
                    && n.ends_with(".xml")
                    && !n.contains('/')
            });
            if is_header_or_footer {
                parts.push(name.to_owned());
            }
        }
        parts[1..].sort();
        parts
    }

    /// Reads one part as UTF-8 text.
    pub fn read_text(&mut self, name: &str) -> Result<String, DocError> {
        let file = self
            .archive
            .by_name(name)
            .map_err(|e| DocError::TemplateInvalid(format!("无法读取 {name}（{e}）")))?;
        let mut bytes = Vec::new();
        file.take(MAX_PART_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| DocError::TemplateInvalid(format!("无法读取 {name}（{e}）")))?;
        if bytes.len() as u64 > MAX_PART_BYTES {
            return Err(DocError::TemplateInvalid(format!("{name} 过大")));
        }
        String::from_utf8(bytes)
            .map_err(|_| DocError::TemplateInvalid(format!("{name} 不是 UTF-8 编码")))
    }

    /// Writes the package with `replaced` parts substituted, keeping the order of entries.
    pub fn write(mut self, replaced: &BTreeMap<String, String>) -> Result<Vec<u8>, DocError> {
        let failed =
            |e: &dyn std::fmt::Display| DocError::TemplateInvalid(format!("无法写出文档（{e}）"));
        let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
        for index in 0..self.archive.len() {
            let file = self.archive.by_index_raw(index).map_err(|e| failed(&e))?;
            match replaced.get(file.name()) {
                Some(content) => {
                    let name = file.name().to_owned();
                    let mut options = SimpleFileOptions::default()
                        .compression_method(zip::CompressionMethod::Deflated);
                    if let Some(time) = file.last_modified() {
                        options = options.last_modified_time(time);
                    }
                    drop(file);
                    writer.start_file(name, options).map_err(|e| failed(&e))?;
                    writer
                        .write_all(content.as_bytes())
                        .map_err(|e| failed(&e))?;
                }
                None => writer.raw_copy_file(file).map_err(|e| failed(&e))?,
            }
        }
        let cursor = writer.finish().map_err(|e| failed(&e))?;
        Ok(cursor.into_inner())
    }
}
