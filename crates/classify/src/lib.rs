//! Classifying invoices as travel or general by a table of rules (data, not code).

mod error;
mod rules;
mod text;

pub use error::RulesError;
pub use rules::{Classification, Rule, RuleSet};

use domain::InvoiceRecord;

/// Classifies with the built-in rules (`rules/default.toml`).
pub fn classify(record: &InvoiceRecord) -> Classification {
    RuleSet::builtin().classify(record)
}
