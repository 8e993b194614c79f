//! Streaming an upload to disk: size limit, magic-byte check, safe and never-clobbering names.

use crate::StoreError;
use crate::atomic::{random_suffix, sync_dir};
use domain::{FileKind, SNIFF_LEN, numbered_name, sanitize_upload_name, sniff_matches};
use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

/// Clash counters tried before giving up; a session never holds that many copies of a name.
const MAX_CLASH_COUNTER: u32 = 10_000;

/// An upload being written. Chunks go straight to a hidden temp file; `finish` checks the
/// content and links it under its final name. Dropping an unfinished sink removes the temp file.
#[derive(Debug)]
pub struct UploadSink {
    dir: PathBuf,
    temp_path: PathBuf,
    file: Option<File>,
    name: String,
    kind: FileKind,
    head: Vec<u8>,
    written: u64,
    limit: u64,
}

impl UploadSink {
    pub(crate) fn begin(dir: &Path, raw_name: &str, limit: u64) -> Result<Self, StoreError> {
        let name = sanitize_upload_name(raw_name)?;
        let kind =
            FileKind::from_name(&name).ok_or_else(|| StoreError::UnsupportedType(name.clone()))?;
        let temp_path = dir.join(format!(".upload-{}.part", random_suffix()));
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp_path)
            .map_err(StoreError::io(&temp_path))?;
        Ok(Self {
            dir: dir.to_path_buf(),
            temp_path,
            file: Some(file),
            name,
            kind,
            head: Vec::with_capacity(SNIFF_LEN),
            written: 0,
            limit,
        })
    }

    /// The safe name the upload will get (before any clash counter).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The kind of file the name announces.
    pub fn kind(&self) -> FileKind {
        self.kind
    }

    /// Writes one chunk. Fails as soon as the limit is passed or the first bytes show the
    /// content is not of the announced kind, so a bad upload costs little.
    pub fn write(&mut self, chunk: &[u8]) -> Result<(), StoreError> {
        self.written += chunk.len() as u64;
        if self.written > self.limit {
            return Err(StoreError::TooLarge { limit: self.limit });
        }
        if self.head.len() < SNIFF_LEN {
            let take = (SNIFF_LEN - self.head.len()).min(chunk.len());
            self.head.extend_from_slice(&chunk[..take]);
            if self.head.len() == SNIFF_LEN && !sniff_matches(self.kind, &self.head) {
                return Err(StoreError::ContentMismatch(self.name.clone()));
            }
        }
        let file = self.file.as_mut().ok_or_else(|| StoreError::Io {
            path: self.temp_path.clone(),
            source: std::io::Error::other("upload already finished"),
        })?;
        file.write_all(chunk)
            .map_err(StoreError::io(self.dir.join(&self.name)))
    }

    /// Checks and publishes the upload; returns the final file name.
    pub fn finish(mut self) -> Result<String, StoreError> {
        if self.written == 0 {
            return Err(StoreError::EmptyFile);
        }
        if !sniff_matches(self.kind, &self.head) {
            return Err(StoreError::ContentMismatch(self.name.clone()));
        }
        if let Some(file) = self.file.take() {
            file.sync_all()
                .map_err(StoreError::io(self.dir.join(&self.name)))?;
        }
        let final_name = self.link_under_free_name()?;
        let _ = fs::remove_file(&self.temp_path);
        sync_dir(&self.dir);
        Ok(final_name)
    }

    /// A hard link fails when the target exists, so two uploads of one name can never
    /// overwrite each other, even at the same instant.
    fn link_under_free_name(&self) -> Result<String, StoreError> {
        for counter in 1..=MAX_CLASH_COUNTER {
            let candidate = if counter == 1 {
                self.name.clone()
            } else {
                numbered_name(&self.name, counter)
            };
            let target = self.dir.join(&candidate);
            match fs::hard_link(&self.temp_path, &target) {
                Ok(()) => return Ok(candidate),
                Err(error) if error.kind() == ErrorKind::AlreadyExists => continue,
                Err(error) => return Err(StoreError::io(target)(error)),
            }
        }
        Err(StoreError::Io {
            path: self.dir.join(&self.name),
            source: std::io::Error::other("too many files with this name"),
        })
    }
}

impl Drop for UploadSink {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.temp_path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn clashing_names_get_numbers() {
        let dir = tempfile::tempdir().unwrap();
        for _ in 0..3 {
            let mut sink = UploadSink::begin(dir.path(), "发票.pdf", 1024).unwrap();
            sink.write(b"%PDF-1.7 x").unwrap();
            sink.finish().unwrap();
        }
        assert_eq!(
            names(dir.path()),
            ["发票 (2).pdf", "发票 (3).pdf", "发票.pdf"]
        );
    }

    #[test]
    fn oversize_and_mismatched_uploads_leave_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let mut sink = UploadSink::begin(dir.path(), "a.pdf", 10).unwrap();
        assert!(matches!(
            sink.write(&[b'%'; 11]),
            Err(StoreError::TooLarge { .. })
        ));
        drop(sink);
        let mut sink = UploadSink::begin(dir.path(), "b.pdf", 1 << 20).unwrap();
        assert!(matches!(
            sink.write(&[0u8; 2048]),
            Err(StoreError::ContentMismatch(_))
        ));
        drop(sink);
        let mut sink = UploadSink::begin(dir.path(), "c.png", 1 << 20).unwrap();
        sink.write(b"%PDF-").unwrap();
        assert!(matches!(sink.finish(), Err(StoreError::ContentMismatch(_))));
        let sink = UploadSink::begin(dir.path(), "d.png", 1 << 20).unwrap();
        assert!(matches!(sink.finish(), Err(StoreError::EmptyFile)));
        assert!(names(dir.path()).is_empty(), "{:?}", names(dir.path()));
    }

    #[test]
    fn unsupported_and_empty_names_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            UploadSink::begin(dir.path(), "../../etc/passwd", 10),
            Err(StoreError::UnsupportedType(_))
        ));
        assert!(matches!(
            UploadSink::begin(dir.path(), "", 10),
            Err(StoreError::BadFileName(_))
        ));
    }
}
