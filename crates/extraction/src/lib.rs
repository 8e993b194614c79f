//! Invoice bytes (PDF, OFD, 数电 XML) to an [`domain::InvoiceRecord`].
//!
//! Fields are found by position relative to their printed labels (never by drawing order),
//! buyer and seller by the blocks they sit in, items by the table's header columns. Every
//! value that an independent source also states (大写, item arithmetic, embedded XML, OFD
//! metadata, QR code) is checked: agreement lands in `confirmed_by`, disagreement in `flags`,
//! and the printed value is kept. Extraction is pure: bytes in, record out.

mod amount;
mod crosscheck;
mod date;
mod dom;
mod error;
mod extract;
mod fields;
mod geometry;
mod items;
mod junk;
mod labels;
mod layouts;
mod ocr;
mod ofd;
mod page_text;
mod parties;
mod seal;
#[cfg(test)]
mod stress_tests;
mod text;
mod totals;
mod vocabulary;
mod words;
mod xml;

pub use error::ExtractError;
pub use extract::{extract, extract_ofd, extract_pdf, extract_pdf_with, extract_with, extract_xml};
pub use ocr::{LineImage, OcrLine, PageReader, PageRef, Region};
