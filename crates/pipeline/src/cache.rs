//! Per-session cache of what was read from an uploaded file (an invoice, a screenshot), keyed
//! by the file's bytes and by what read it.

use domain::InvoiceRecord;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use session_store::{Session, write_atomic};
use sha2::{Digest, Sha256};
use std::fs;
use std::path::PathBuf;
use std::sync::LazyLock;
use std::time::UNIX_EPOCH;

/// Hidden directory, so it is neither listed nor downloadable.
const CACHE_DIR: &str = ".extract-cache";

/// A cached outcome: the record, or the error message.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) enum Cached {
    Record(Box<InvoiceRecord>),
    Error(String),
}

/// The hex SHA-256 of a file's bytes.
pub(crate) fn digest(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Identity of the running build (size and mtime of the executable). Entries carry it, so a new
/// build, whose extractor may differ, never serves an old extraction. A version constant would
/// depend on someone remembering to bump it.
static BUILD_STAMP: LazyLock<String> = LazyLock::new(|| {
    std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|meta| {
            let modified = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("{:x}-{modified:x}", meta.len())
        })
        .unwrap_or_else(|_| "unknown".to_owned())
});

/// `reader` names what produced the entry (`invoice`, `ocr`, a model), so results of
/// different readers of the same bytes never stand in for each other.
fn entry_path(session: &Session, reader: &str, digest: &str) -> PathBuf {
    session
        .path()
        .join(CACHE_DIR)
        .join(format!("{digest}-{reader}-{}.json", *BUILD_STAMP))
}

pub(crate) fn load<T: DeserializeOwned>(
    session: &Session,
    reader: &str,
    digest: &str,
) -> Option<T> {
    let bytes = fs::read(entry_path(session, reader, digest)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Stores an outcome; a failure only costs a later re-reading, so it is logged, not raised.
pub(crate) fn store<T: Serialize>(session: &Session, reader: &str, digest: &str, outcome: &T) {
    let path = entry_path(session, reader, digest);
    let result = path
        .parent()
        .map(fs::create_dir_all)
        .transpose()
        .map_err(|e| e.to_string())
        .and_then(|_| serde_json::to_vec(outcome).map_err(|e| e.to_string()))
        .and_then(|bytes| write_atomic(&path, &bytes).map_err(|e| e.to_string()));
    if let Err(error) = result {
        tracing::warn!(session = %session.id(), "cannot cache a reading: {error}");
    }
}
