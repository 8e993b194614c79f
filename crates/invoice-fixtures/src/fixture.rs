//! A generated fixture, and writing the set to a directory.

use std::io;
use std::path::{Path, PathBuf};

use domain::InvoiceRecord;

/// One synthetic document and the record a correct extractor must produce from it.
#[derive(Debug, Clone)]
pub struct Fixture {
    /// Stem shared by the document and its golden JSON, e.g. `digital_normal_single`.
    pub name: String,
    /// The document's file name, e.g. `digital_normal_single.pdf`.
    pub file_name: String,
    /// The document itself: a PDF, 数电 XML or OFD, as a producer would write it.
    pub bytes: Vec<u8>,
    /// The record a correct extractor reads from `bytes` (the golden record).
    pub expected: InvoiceRecord,
    /// Read only with page OCR (its text layer lies): written to the `ocr/` folder, which
    /// the OCR golden test reads.
    pub ocr: bool,
}

impl Fixture {
    pub(crate) fn new(
        name: &str,
        extension: &str,
        bytes: Vec<u8>,
        expected: InvoiceRecord,
    ) -> Self {
        Self {
            name: name.to_owned(),
            file_name: format!("{name}.{extension}"),
            bytes,
            expected,
            ocr: false,
        }
    }

    /// The same fixture, read only with page OCR.
    pub(crate) fn needing_ocr(mut self) -> Self {
        self.ocr = true;
        self
    }

    /// The golden file's name: `<name>.json`.
    pub fn golden_file_name(&self) -> String {
        format!("{}.json", self.name)
    }

    /// The golden record as committed: pretty JSON with a final newline.
    pub fn golden_json(&self) -> serde_json::Result<String> {
        serde_json::to_string_pretty(&self.expected).map(|json| json + "\n")
    }
}

/// Writes every fixture and its golden JSON into `dir` (created if missing; fixtures that
/// need OCR into `dir/ocr`) and returns the paths written, documents and JSON alternating.
pub fn write_all(dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for fixture in crate::catalog::all() {
        let dir = if fixture.ocr {
            let ocr = dir.join("ocr");
            std::fs::create_dir_all(&ocr)?;
            ocr
        } else {
            dir.to_path_buf()
        };
        let document = dir.join(&fixture.file_name);
        std::fs::write(&document, &fixture.bytes)?;
        written.push(document);
        let golden = dir.join(fixture.golden_file_name());
        std::fs::write(&golden, fixture.golden_json().map_err(io::Error::other)?)?;
        written.push(golden);
    }
    Ok(written)
}
