//! Classifying invoices as travel or general by a table of rules (data, not code).

mod error;
mod rules;
mod text;

pub use error::ClassifyRulesError;
pub use rules::{Classification, ClassifyRule, ClassifyRules};

use domain::InvoiceRecord;

/// Classifies with the built-in rules (`rules/default.toml`).
pub fn classify(record: &InvoiceRecord) -> Classification {
    ClassifyRules::builtin().classify(record)
}
