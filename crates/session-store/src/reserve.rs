//! Space kept back for the last words of a job. With the disk full, a job that cannot write
//! its `result.json` (and the agent its state) leaves every client waiting until the stream
//! times out. So the data dir holds a few ballast files (`.reserve/0` …); a bookkeeping
//! write that meets a full disk frees one and tries again, and every new run tops them up
//! once space has returned.

use crate::StoreError;
use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How many ballast files, and how large each: one chunk covers a job's last writes.
const CHUNKS: usize = 8;
const CHUNK_BYTES: usize = 128 * 1024;
const DIR: &str = ".reserve";

/// The data dir's ballast.
#[derive(Debug, Clone)]
pub(crate) struct Reserve {
    dir: PathBuf,
}

impl Reserve {
    /// The ballast of `data_dir`, filled as far as the disk allows.
    pub(crate) fn open(data_dir: &Path) -> Self {
        let reserve = Self {
            dir: data_dir.join(DIR),
        };
        reserve.replenish();
        reserve
    }

    /// Fills the ballast files back up to their size as far as the disk allows; a file the
    /// disk could not fill whole is kept as far as it got. Called after every draw on the
    /// reserve too, so the space a draw freed beyond its write goes back into the ballast
    /// instead of to the next writer: the reserve is for the end of jobs alone.
    pub(crate) fn replenish(&self) {
        if fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        for chunk in 0..CHUNKS {
            if !fill(&self.dir.join(chunk.to_string())) {
                return;
            }
        }
    }

    /// Frees one ballast file; false when none is left.
    fn release_one(&self) -> bool {
        (0..CHUNKS)
            .rev()
            .any(|chunk| fs::remove_file(self.dir.join(chunk.to_string())).is_ok())
    }

    /// Runs `write`; when it fails for a full disk, frees ballast and tries again while any is
    /// left, then takes back what the write did not use.
    pub(crate) fn write_with(
        &self,
        mut write: impl FnMut() -> Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let mut drew = false;
        let result = loop {
            match write() {
                Err(StoreError::DiskFull { .. }) if self.release_one() => {
                    drew = true;
                    tracing::warn!("disk full: released reserved space for a bookkeeping write");
                }
                other => break other,
            }
        };
        if drew {
            self.replenish();
        }
        result
    }
}

/// Grows `path` with zeros (real blocks, not a sparse file: the point is to hold them) up to
/// the chunk size; false when the disk would not take it all.
fn fill(path: &Path) -> bool {
    let Ok(mut file) = OpenOptions::new().create(true).append(true).open(path) else {
        return false;
    };
    let Ok(mut len) = file.metadata().map(|m| m.len()) else {
        return false;
    };
    const BLOCK: usize = 4096;
    let block = [0u8; BLOCK];
    while len < CHUNK_BYTES as u64 {
        if file.write_all(&block).is_err() {
            // Whatever a short write left stays: it is ballast all the same.
            return false;
        }
        len += BLOCK as u64;
    }
    file.sync_all().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(dir: &Path) -> usize {
        fs::read_dir(dir.join(DIR)).map_or(0, |entries| entries.count())
    }

    #[test]
    fn a_full_disk_write_draws_on_the_ballast_and_gives_back_what_it_left() {
        let data = tempfile::tempdir().unwrap();
        let reserve = Reserve::open(data.path());
        assert_eq!(chunks(data.path()), CHUNKS);
        let mut attempts = 0;
        let result = reserve.write_with(|| {
            attempts += 1;
            if attempts < 3 {
                Err(StoreError::io("x")(std::io::Error::from(
                    std::io::ErrorKind::StorageFull,
                )))
            } else {
                Ok(())
            }
        });
        assert!(result.is_ok());
        assert_eq!(attempts, 3);
        // What the write did not use went back into the ballast.
        assert_eq!(chunks(data.path()), CHUNKS);
    }

    #[test]
    fn other_errors_and_an_empty_ballast_are_reported() {
        let data = tempfile::tempdir().unwrap();
        let reserve = Reserve::open(data.path());
        let other = reserve.write_with(|| Err(StoreError::io("x")(std::io::Error::other("no"))));
        assert!(matches!(other, Err(StoreError::Io { .. })));
        let mut attempts = 0;
        let full = reserve.write_with(|| {
            attempts += 1;
            Err(StoreError::io("x")(std::io::Error::from(
                std::io::ErrorKind::StorageFull,
            )))
        });
        assert!(matches!(full, Err(StoreError::DiskFull { .. })));
        assert_eq!(attempts, CHUNKS + 1, "every chunk was tried");
    }
}
