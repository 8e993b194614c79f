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
    /// The disk (or the user's quota) is full: said plainly, for the person who can free it.
    #[error(
        "磁盘空间不足，无法写入 {}：请清理数据目录所在的磁盘后重试",
        file_name(path)
    )]
    DiskFull { path: PathBuf },
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
    /// An IO error on `path`; a full disk becomes [`StoreError::DiskFull`].
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| {
            if domain::is_disk_full(&source) {
                Self::DiskFull { path }
            } else {
                Self::Io { path, source }
            }
        }
    }
}

/// The file's own name: messages never say where the data dir lives.
fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned())
}
