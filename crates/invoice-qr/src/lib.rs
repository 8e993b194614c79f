//! Reads the QR code printed on Chinese e-invoice PDFs, an independent
//! source for the invoice number, date, amount and type.
//!
//! ```no_run
//! let bytes = std::fs::read("invoice.pdf")?;
//! if let Some(qr) = reimburse_invoice_qr::find_invoice_qr(&bytes) {
//!     println!("{} {} {:?}", qr.number, qr.date, qr.amount_cents());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The images come from [`pdf_text::page_images_with`]; codes embedded the
//! usual way (an upright image holding just the code) are read directly off
//! the module grid, anything else goes through rqrr's detector; quircs
//! error-corrects and decodes the modules either way.

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
