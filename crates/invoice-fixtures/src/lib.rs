//! Synthetic Chinese e-invoices for the project's tests, with golden records.
//!
//! Real invoices carry real names, so tests never use them. This crate invents invoices of
//! every layout the extractor reads (数电 普通/专用 PDFs, the railway e-ticket with its XML,
//! the air itinerary, old-format VAT, toll and general machine-printed invoices, the 数电 XML
//! and an OFD) with seeded random numbers, draws them the way real producers do, and states
//! the [`domain::InvoiceRecord`] a correct extractor must produce. `cargo xtask fixtures`
//! writes them to `fixtures/invoices/`; the tests keep those files in step with this code.

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
