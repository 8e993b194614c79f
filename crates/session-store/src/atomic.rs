//! Atomic file replacement: temp file in the same directory, fsync, rename, fsync the directory.

use crate::StoreError;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;

/// Replaces `path` with `bytes` so that a reader sees either the old or the new content, and a
/// crash leaves no half-written file behind.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let dir = path.parent().ok_or_else(|| StoreError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other("no parent directory"),
    })?;
    let temp = dir.join(format!(".tmp-{}", random_suffix()));
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .map_err(StoreError::io(path))?;
        // Errors name the file being replaced, not the hidden temp file.
        file.write_all(bytes).map_err(StoreError::io(path))?;
        file.sync_all().map_err(StoreError::io(path))?;
        fs::rename(&temp, path).map_err(StoreError::io(path))?;
        sync_dir(dir);
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

/// Makes a rename durable. Failure only weakens durability, never correctness, so it is ignored.
pub(crate) fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ = handle.sync_all();
    }
}

pub(crate) fn random_suffix() -> String {
    let mut bytes = [0u8; 8];
    // A predictable suffix only risks a create_new clash, which is reported, never silent.
    let _ = getrandom::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
    }

    #[test]
    fn missing_directory_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("a.json");
        assert!(write_atomic(&path, b"x").is_err());
    }
}
