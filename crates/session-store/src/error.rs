//! The store's error type.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("session not found")]
    SessionNotFound,
    #[error("file not found: {0}")]
    FileNotFound(String),
    #[error("invalid file name: {0}")]
    BadFileName(#[from] domain::FileNameError),
    #[error("unsupported file type: {0}")]
    UnsupportedType(String),
    #[error("file content does not match its extension: {0}")]
    ContentMismatch(String),
    #[error("file is larger than the limit of {limit} bytes")]
    TooLarge { limit: u64 },
    #[error("empty file")]
    EmptyFile,
    #[error("io error on {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("csv error in {file}: {message}")]
    Csv { file: String, message: String },
    #[error("corrupt json in {file}: {message}")]
    Json { file: String, message: String },
    #[error("secret key error: {0}")]
    Secret(String),
}

impl StoreError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { path, source }
    }
}
