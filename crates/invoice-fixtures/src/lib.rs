//! Synthetic Chinese e-invoices for the project's tests, with golden records.
//!
//! Real invoices carry real names, so tests never use them. This crate invents invoices of
//! every layout the extractor reads (数电 普通/专用 PDFs, the railway e-ticket with its XML,
//! the air itinerary, old-format VAT, toll and general machine-printed invoices, the 数电 XML
//! and an OFD) with seeded random numbers, draws them the way real producers do, and states
//! the record (`reimburse-domain`'s [`InvoiceRecord`](domain::InvoiceRecord)) a correct
//! extractor must produce. `cargo xtask fixtures` writes them to `fixtures/invoices/`; the
//! tests keep those files in step with this code.
//!
//! Start from [`all`], the fixed set of [`Fixture`]s (one per layout and quirk), or
//! [`office_supply_batch`] for as many distinct invoices as a benchmark needs; [`write_all`]
//! writes the set to a folder. Each fixture is invented from a generator seeded with its name
//! (a batch's with its seed), so every run gives the same bytes.
//!
//! ```
//! let fixtures = reimburse_invoice_fixtures::all();
//! let single = fixtures.iter().find(|f| f.name == "digital_normal_single").unwrap();
//! assert_eq!(single.file_name, "digital_normal_single.pdf");
//! assert!(single.bytes.starts_with(b"%PDF-"));
//! // What an extractor must read from those bytes:
//! assert_eq!(single.expected.invoice_number, "25335400968681583673");
//! assert_eq!(single.expected.invoice_date, "2025/03/14");
//! assert_eq!(single.expected.total_with_tax, "290.00");
//! assert!(single.golden_json().unwrap().contains("\"total_with_tax\": \"290.00\""));
//!
//! let batch = reimburse_invoice_fixtures::office_supply_batch("march", 3);
//! assert_eq!(batch.len(), 3);
//! assert_ne!(batch[0].expected.invoice_number, batch[1].expected.invoice_number);
//!
//! let dir = std::env::temp_dir().join(format!("fixtures-{}", std::process::id()));
//! let written = reimburse_invoice_fixtures::write_all(&dir).unwrap();
//! assert!(written.contains(&dir.join("digital_normal_single.json")));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

#![warn(missing_docs)]

mod catalog;
mod fixture;
mod golden;
mod invoice;
mod layouts;
mod money;
mod names;
mod ofd;
mod pdf_writer;
mod qr;
mod rng;
mod text;
mod words;
mod xml;

pub use catalog::{all, office_supply_batch};
pub use fixture::{Fixture, write_all};
