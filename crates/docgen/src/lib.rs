//! docgen: the consumables outbound-stock document (易耗品出库单). Fills the Word template with
//! a session's general invoices ([`fill_docx`], pure) and converts it to the Word 97 .doc the
//! finance office expects ([`Converter`], LibreOffice); [`generate`] does both and writes
//! `易耗品、出库单.doc` atomically. The template syntax is described in
//! `docs/docgen-template.md`.

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
