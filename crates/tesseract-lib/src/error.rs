//! What can go wrong loading the library, a model, or recognising an image.

/// Errors of the in-process engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TesseractError {
    /// The shared library or one of its functions could not be found.
    #[error("libtesseract is not available: {0}")]
    LibraryMissing(String),
    /// `Init` failed: usually the language's traineddata is not installed.
    #[error("tesseract cannot load language {0}")]
    Language(String),
    /// Arguments tesseract cannot take (an empty image, a NUL in a name).
    #[error("invalid input for tesseract: {0}")]
    Input(String),
    /// Recognition failed or produced no text output.
    #[error("tesseract recognition failed")]
    Recognition,
    /// The deadline passed; tesseract stopped early.
    #[error("tesseract took longer than {0} ms")]
    Timeout(u64),
}
