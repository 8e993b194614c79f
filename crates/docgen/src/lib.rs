//! The consumables outbound-stock document (易耗品出库单) of a reimbursement: a Word template
//! with placeholders (`{{领用人}}`, `{{合计大写}}`, an item row with `{{名称}}`, `{{数量}}`,
//! `{{金额}}` …) filled with the header and the items of the general invoices, the total added
//! up to the cent and written in Chinese capitals, then converted by LibreOffice to the Word 97
//! `.doc` finance offices expect.
//!
//! Filling is pure, bytes in and bytes out, and needs no LibreOffice:
//!
//! ```
//! use reimburse_docgen::{OutboundDoc, OutboundItem, check_template, fill};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let doc = OutboundDoc {
//!     date: "2025/03/11".into(),
//!     claimant: "张三".into(),
//!     department: "物理学院".into(),
//!     storage: "理科楼203室".into(),
//!     items: vec![
//!         OutboundItem {
//!             name: "A4复印纸".into(),
//!             spec: "70g 500张/包".into(),
//!             unit: "包".into(),
//!             quantity: "10".into(),
//!             unit_price: "25.50".into(),
//!             amount: "255.00".into(),
//!         },
//!         OutboundItem { name: "硒鼓".into(), amount: "400.00".into(), ..OutboundItem::default() },
//!     ],
//! };
//! let totals = doc.totals()?; // integer cents; an amount that is not a number is an error
//! assert_eq!((totals.amount.as_str(), totals.capital.as_str()), ("655.00", "陆佰伍拾伍元整"));
//!
//! // The project's template (`templates/易耗品出库单.docx` in its source tree), or a clerk's own.
//! # let template_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
//! #     .join("../..")
//! #     .join(reimburse_docgen::DEFAULT_TEMPLATE);
//! let template = std::fs::read(&template_path)?;
//! let report = check_template(&template)?; // what a clerk's template holds, before use
//! assert_eq!(report.item_rows, 1);
//! assert!(report.unknown.is_empty());
//!
//! let filled = fill(&template, &doc)?;
//! assert!(filled.unknown_placeholders.is_empty());
//! assert!(filled.docx.starts_with(b"PK")); // the .docx, ready to save or convert
//! # Ok(())
//! # }
//! ```
//!
//! The `.doc` needs LibreOffice Writer (Debian's [`DEBIAN_PACKAGE`]); a [`Converter`] keeps
//! one warm when Python's UNO bridge is there, and [`generate`] fills, converts and writes
//! both files atomically:
//!
//! ```no_run
//! use reimburse_docgen::{Converter, ConverterConfig, OutboundDoc, generate};
//! use std::path::Path;
//!
//! # fn main() -> Result<(), reimburse_docgen::DocError> {
//! # let doc = OutboundDoc::default();
//! let converter = Converter::new(ConverterConfig::default()); // one per service
//! let written = generate(Path::new("易耗品出库单.docx"), &doc, Path::new("out"), &converter)?;
//! println!("{}", written.doc_path.display()); // out/易耗品、出库单.doc
//! # Ok(())
//! # }
//! ```
//!
//! Start from [`OutboundDoc`] and [`fill`] (or [`fill_docx`]), then [`Converter`] or
//! [`generate`]; [`check_template`] checks a template. A service calls [`reap_leftovers`] at
//! start-up to clean what a killed run left. Failures are [`DocError`]s, whose messages are
//! meant for the user (Chinese, naming what to fix). The amount rules are
//! `reimburse-domain`'s, re-exported as [`Cents`] and [`AmountError`].

#![warn(missing_docs)]

mod convert;
mod error;
mod fill;
mod generate;
mod lifetime;
mod merge;
mod model;
mod office;
mod placeholder;
mod template;
mod warm;
mod wordml;
mod xml;

// The amount rules live in domain (the printed claim writes 大写 too); re-exported so
// docgen's callers keep one name for them.
pub use convert::{ConvertMode, Converter, ConverterConfig};
pub use domain::{AmountError, Cents};
pub use error::DocError;
pub use fill::{Filled, TemplateReport, check_template, fill, fill_docx};
pub use generate::{DEFAULT_TEMPLATE, DOC_FILE_NAME, DOCX_FILE_NAME, Generated, generate};
pub use lifetime::{ReapedOffice, reap_leftovers};
pub use model::{OutboundDoc, OutboundItem, Totals};
pub use office::DEBIAN_PACKAGE;
