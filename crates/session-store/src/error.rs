//! The store's error type.

use std::path::PathBuf;

/// What can go wrong reading or writing a session.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No session has this id (or the id is malformed).
    #[error("session not found")]
    SessionNotFound,
    /// The session has no such file.
    #[error("file not found: {0}")]
    FileNotFound(String),
    /// A file name that could leave the session directory or name a bookkeeping file.
    #[error("invalid file name: {0}")]
    BadFileName(#[from] domain::FileNameError),
    /// An upload whose name is not of a kind the service reads (PDF, OFD, XML, images).
    #[error("unsupported file type: {0}")]
    UnsupportedType(String),
    /// An upload whose first bytes are not of the kind its name says.
    #[error("file content does not match its extension: {0}")]
    ContentMismatch(String),
    /// An upload larger than [`StoreOptions::max_upload_bytes`](crate::StoreOptions).
    #[error("file is larger than the limit of {limit} bytes")]
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// An upload with no bytes.
    #[error("empty file")]
    EmptyFile,
    /// The disk (or the user's quota) is full: said plainly, for the person who can free it.
    #[error(
        "磁盘空间不足，无法写入 {}：请清理数据目录所在的磁盘后重试",
        file_name(path)
    )]
    DiskFull {
        /// The file that was being written.
        path: PathBuf,
    },
    /// Another IO error.
    #[error("io error on {path}: {source}")]
    Io {
        /// The file or directory concerned.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// A CSV table that cannot be read or written.
    #[error("csv error in {file}: {message}")]
    Csv {
        /// The table's file name.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A JSON file that cannot be read or written.
    #[error("corrupt json in {file}: {message}")]
    Json {
        /// The file's name.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The secret key cannot be made or read, or a stored secret cannot be decrypted.
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
