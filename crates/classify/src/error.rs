//! Errors of loading a rules table.

/// Why a rules table was refused by [`ClassifyRules::parse`](crate::ClassifyRules::parse).
#[derive(Debug, thiserror::Error)]
pub enum ClassifyRulesError {
    /// The text is not valid TOML of the table's format, or a rule has no condition; the
    /// message says which.
    #[error("invalid classification rules: {0}")]
    Invalid(String),
}
