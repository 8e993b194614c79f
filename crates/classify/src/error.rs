//! Errors of loading a rules table.

#[derive(Debug, thiserror::Error)]
pub enum ClassifyRulesError {
    #[error("invalid classification rules: {0}")]
    Invalid(String),
}
