//! The crate's error type.

/// Why a PDF could not be turned into text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input does not start like a PDF (no `%PDF-` header near the start).
    #[error("input is not a PDF")]
    NotPdf,
    /// The PDF is encrypted and the empty user password does not open it.
    #[error("PDF is encrypted and needs a password")]
    Encrypted,
    /// The PDF is damaged beyond what the parser can repair, or parsing panicked.
    #[error("malformed PDF: {0}")]
    Malformed(String),
}
