//! Reads the QR code printed on Chinese e-invoice PDFs: an independent source for the
//! invoice's type, number, date and amount (and, on older formats, its code and check code).
//!
//! Start from [`find_invoice_qr`], which finds the code among a PDF's images and parses it
//! into an [`InvoiceQr`]. [`read_qr_text`] reads any QR code from grey pixels, and
//! [`parse_invoice_qr`] parses a payload read elsewhere (the national
//! `01,<type>,<code>,<number>,<amount>,<date>,<check code>,<check digits>` text, or an issuer's
//! verification address, whose [`InvoiceQr::kind`] is [`URL_KIND`]).
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // A synthetic 数电 invoice from the project's generator (`reimburse-invoice-fixtures`);
//! // a program reads its file: `let pdf = std::fs::read("invoice.pdf")?;`.
//! let invoice = invoice_fixtures::office_supply_batch("qr", 1)
//!     .pop()
//!     .ok_or("no invoice")?;
//! let qr = reimburse_invoice_qr::find_invoice_qr(&invoice.bytes).ok_or("no QR code")?;
//! assert_eq!(qr.number, invoice.expected.invoice_number);
//! assert_eq!(qr.kind_description(), Some("电子发票（普通发票） (fully digital e-invoice, ordinary)"));
//! println!("{} {} {:?}", qr.number, qr.date, qr.amount_cents());
//! # Ok(())
//! # }
//! ```
//!
//! The payload alone, as a phone's scanner reads it:
//!
//! ```
//! use reimburse_invoice_qr::parse_invoice_qr;
//!
//! let qr = parse_invoice_qr("01,10,011001900111,12345678,52.10,20190615,12345678901234567890,3F2A,")
//!     .ok_or("not an invoice QR code")?;
//! assert_eq!(qr.number, "12345678");
//! assert_eq!(qr.code.as_deref(), Some("011001900111"));
//! assert_eq!(qr.amount_cents(), Some(5210));
//! assert!(qr.amount_is_pre_tax(), "older formats state the total before tax");
//! assert_eq!(qr.date_parts(), Some((2019, 6, 15)));
//! # Ok::<(), &str>(())
//! ```
//!
//! The images come from [`reimburse_pdf_text::page_images_with`](pdf_text::page_images_with): codes
//! embedded the usual way (an upright image holding just the code) are read directly off the
//! module grid, anything else goes through rqrr's detector; quircs error-corrects and decodes
//! the modules either way. Nothing here panics on hostile input.

#![warn(missing_docs)]

mod detect;
mod find;
mod grid;
mod kind;
mod luma;
mod payload;
mod qr_decode;
mod screen;
mod verify_url;

pub use find::{find_invoice_qr, read_qr_text};
pub use kind::{amount_is_pre_tax, describe_kind};
pub use payload::{InvoiceQr, parse_invoice_qr};
pub use verify_url::URL_KIND;
