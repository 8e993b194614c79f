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
//!
//! # Features
//!
//! All four are on by default. A program that reads only PDFs' text layers can leave any of
//! them out (`default-features = false`) and compiles fewer crates; a file that needs a
//! feature left out is an [`ExtractError::NotCompiledIn`], never a panic.
//!
//! - `xml`: 数电 XML files ([`extract_xml`]), and the XML some PDFs embed: the railway
//!   e-ticket's XBRL (the only statement of its pre-tax split) and a 数电 XML attachment,
//!   checked against the page. Brings quick-xml.
//! - `ofd`: OFD files ([`extract_ofd`]); turns on `xml`. Brings zip.
//! - `qr`: the printed QR code as an independent witness of number, date and amount, and the
//!   record of last resort when the page reads as no known layout. Brings
//!   `reimburse-invoice-qr`, its QR decoders and the page-image decoders of
//!   `reimburse-pdf-text`.
//! - `ocr`: the hooks for an OCR engine ([`PageReader`], [`extract_with`],
//!   [`extract_pdf_with`]): text layers that lie, pages without text, and the seller named
//!   only in a seal (which needs the page-image decoders). Without it a PDF without readable
//!   text is [`ExtractError::NotCompiledIn`].

#![warn(missing_docs)]
// The front page links the items of every feature; a build without some has nothing there.
#![cfg_attr(
    not(all(feature = "ocr", feature = "ofd", feature = "qr", feature = "xml")),
    allow(
        rustdoc::broken_intra_doc_links,
        reason = "the front page links items of features this build leaves out"
    )
)]

mod amount;
mod crosscheck;
mod date;
#[cfg(feature = "xml")]
mod dom;
mod error;
mod extract;
mod fields;
mod geometry;
mod items;
mod junk;
mod labels;
mod layouts;
#[cfg(feature = "ocr")]
mod ocr;
#[cfg(feature = "ofd")]
mod ofd;
#[cfg(feature = "ocr")]
mod page_text;
mod parties;
#[cfg(feature = "ocr")]
mod seal;
#[cfg(test)]
mod stress_tests;
mod text;
mod totals;
#[cfg(feature = "ocr")]
mod vocabulary;
mod words;
#[cfg(feature = "xml")]
mod xml;

pub use error::ExtractError;
#[cfg(feature = "ofd")]
pub use extract::extract_ofd;
#[cfg(feature = "xml")]
pub use extract::extract_xml;
pub use extract::{extract, extract_pdf};
#[cfg(feature = "ocr")]
pub use extract::{extract_pdf_with, extract_with};
#[cfg(feature = "ocr")]
pub use ocr::{LineImage, OcrLine, PageReader, PageRef, Region};
