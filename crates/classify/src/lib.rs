//! Classifies Chinese invoices as travel or general by an ordered table of rules (data, not
//! code) over the document type, the items' tax category (`*住宿服务*…`), the item names and
//! the seller. The class decides how an invoice is reimbursed: travel invoices are claimed
//! through the travel flow and left out of the consumables outbound-stock document.
//!
//! ```
//! # use domain as reimburse_domain; // the workspace's short name for the same crate
//! use reimburse_classify::{ClassifyRules, classify};
//! use reimburse_domain::{InvoiceKind, InvoiceRecord, LineItem};
//!
//! # fn main() -> Result<(), reimburse_classify::ClassifyRulesError> {
//! let hotel = InvoiceRecord {
//!     items: vec![LineItem { name: "*住宿服务*住宿费".into(), ..LineItem::default() }],
//!     ..InvoiceRecord::default()
//! };
//! // The built-in table: the first rule that matches decides, and names itself.
//! let class = classify(&hotel);
//! assert_eq!(class.kind, InvoiceKind::Travel);
//! assert_eq!(class.rule.as_deref(), Some("hotel stay"));
//!
//! // An institution's own table, in the same TOML format; no rule matching means general.
//! let rules = ClassifyRules::parse(
//!     r#"
//!     [[rule]]
//!     name = "conference fees"
//!     kind = "travel"
//!     item_name_contains = ["会议费"]
//!     "#,
//! )?;
//! assert_eq!(rules.classify(&hotel).kind, InvoiceKind::General);
//! assert_eq!(rules.classify(&hotel).rule, None);
//! # Ok(())
//! # }
//! ```
//!
//! Start from [`classify`] (the built-in table) or [`ClassifyRules`] (a table of your own,
//! read by [`ClassifyRules::parse`]); both give a [`Classification`]. The table's format and
//! the built-in rules are described on [`ClassifyRules`].

#![warn(missing_docs)]

mod error;
mod rules;
mod text;

pub use error::ClassifyRulesError;
pub use rules::{Classification, ClassifyRule, ClassifyRules};

use domain::InvoiceRecord;

/// Classifies `record` with the built-in table ([`ClassifyRules::builtin`]).
pub fn classify(record: &InvoiceRecord) -> Classification {
    ClassifyRules::builtin().classify(record)
}
