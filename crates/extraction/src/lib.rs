//! Invoice bytes (PDF, OFD, 数电 XML) to a checked invoice record: a Chinese e-invoice's
//! number, date, parties, items and totals, as a program filing reimbursements needs them.
//!
//! Fields are found by position relative to their printed labels (never by drawing order),
//! buyer and seller by the blocks they sit in, items by the table's header columns. Every
//! value that an independent source also states (大写, item arithmetic, embedded XML, OFD
//! metadata, QR code) is checked: agreement lands in `confirmed_by`, disagreement in `flags`,
//! and the printed value is kept. Extraction is pure: bytes in, record out, no file system,
//! clock or network.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A synthetic 数电 invoice from the project's generator (`reimburse-invoice-fixtures`);
//! // a program reads its file: `let bytes = std::fs::read("发票.pdf")?;`.
//! let invoice = invoice_fixtures::office_supply_batch("doc", 1).pop().ok_or("no invoice")?;
//! let bytes = invoice.bytes;
//!
//! let record = reimburse_extraction::extract(&bytes, "发票.pdf")?;
//! assert_eq!(record.invoice_number, invoice.expected.invoice_number);
//! println!(
//!     "{} {} {} {}",
//!     record.invoice_number, record.invoice_date, record.seller.name, record.total_with_tax
//! );
//! // Values another source on the invoice contradicts are flagged, never silently chosen.
//! assert!(record.flags.is_empty());
//! // The row of the 13-column invoice table (序号 1).
//! let row = record.to_row(1);
//! assert_eq!(row.total_with_tax, record.total_with_tax);
//!
//! // What is not an invoice is an error whose text can be shown to a user as is.
//! let error = reimburse_extraction::extract(b"hello", "notes.txt")
//!     .err()
//!     .ok_or("a text file is no invoice")?;
//! assert!(matches!(error, reimburse_extraction::ExtractError::Unsupported(_)));
//! println!("{error}");
//! # Ok(())
//! # }
//! ```
//!
//! Start from [`extract`], which reads any supported file, choosing the format by its content
//! (then its name); [`extract_pdf`], [`extract_ofd`] and [`extract_xml`] read one format.
//! They return a [`reimburse_domain::InvoiceRecord`](domain::InvoiceRecord) (its
//! `to_row` gives the 13-column row) or an [`ExtractError`]. Scans and PDFs whose text layer
//! lies need an OCR engine, which this crate does not contain: implement [`PageReader`] and
//! pass it to [`extract_with`] or [`extract_pdf_with`].

#![warn(missing_docs)]

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
