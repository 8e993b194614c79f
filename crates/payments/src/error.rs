//! Errors of recognition: reading the image and running tesseract.

use std::path::PathBuf;

/// Why a screenshot could not be recognised at all (a screenshot that was
/// read but lacks fields is not an error: see `PaymentRecord::unreadable`).
#[derive(Debug, thiserror::Error)]
pub enum PaymentsError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot decode image {path}: {message}")]
    Image { path: PathBuf, message: String },
    #[error("tesseract is not installed or not runnable ({0})")]
    TesseractMissing(String),
    #[error("tesseract failed: {0}")]
    Tesseract(String),
    #[error("tesseract took longer than {0} s")]
    Timeout(u64),
}
