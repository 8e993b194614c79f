//! Reading what was appended to a log since a byte offset, whole lines only.

use crate::StoreError;
use std::fs::File;
use std::io::{ErrorKind, Read, Seek, SeekFrom};
use std::path::Path;

/// Upper bound on one read, so a huge burst is sent in slices instead of one allocation.
const MAX_READ: u64 = 4 * 1024 * 1024;

/// New complete lines of a log and the offset just past the last one.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TailChunk {
    /// Each new line (without its newline) and the offset just past it.
    pub lines: Vec<(String, u64)>,
    /// Where the next read starts.
    pub next_offset: u64,
}

/// Reads complete lines after `offset`. A trailing partial line is left for the next read; a
/// file that shrank (truncated by hand) is read again from the start. Each line comes with the
/// offset just past it, which the SSE stream uses as its resumable event id.
pub fn read_new_lines(path: &Path, offset: u64) -> Result<TailChunk, StoreError> {
    let mut file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == ErrorKind::NotFound => {
            return Ok(TailChunk {
                lines: Vec::new(),
                next_offset: 0,
            });
        }
        Err(error) => return Err(StoreError::io(path)(error)),
    };
    let len = file.metadata().map_err(StoreError::io(path))?.len();
    let start = if len < offset { 0 } else { offset };
    if len == start {
        return Ok(TailChunk {
            lines: Vec::new(),
            next_offset: start,
        });
    }
    file.seek(SeekFrom::Start(start))
        .map_err(StoreError::io(path))?;
    let mut buffer = Vec::new();
    file.take(MAX_READ)
        .read_to_end(&mut buffer)
        .map_err(StoreError::io(path))?;
    let mut lines = Vec::new();
    let mut consumed = 0usize;
    while let Some(newline) = buffer[consumed..].iter().position(|b| *b == b'\n') {
        let raw = &buffer[consumed..consumed + newline];
        consumed += newline + 1;
        let text = String::from_utf8_lossy(raw);
        let text = text.trim_end_matches('\r');
        if !text.trim().is_empty() {
            lines.push((text.to_owned(), start + consumed as u64));
        }
    }
    Ok(TailChunk {
        lines,
        next_offset: start + consumed as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn returns_whole_lines_and_keeps_partial_ones() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.log");
        assert_eq!(read_new_lines(&path, 0).unwrap(), TailChunk::default());
        let mut file = std::fs::File::create(&path).unwrap();
        file.write_all("一\n\ntwo\npar".as_bytes()).unwrap();
        let chunk = read_new_lines(&path, 0).unwrap();
        let texts: Vec<&str> = chunk.lines.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(texts, ["一", "two"]);
        assert_eq!(chunk.next_offset, "一\n\ntwo\n".len() as u64);
        file.write_all(b"tial\n").unwrap();
        let chunk = read_new_lines(&path, chunk.next_offset).unwrap();
        assert_eq!(chunk.lines[0].0, "partial");
        assert_eq!(chunk.lines[0].1, chunk.next_offset);
    }

    #[test]
    fn a_truncated_file_is_read_from_the_start() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.log");
        std::fs::write(&path, "a\n").unwrap();
        let chunk = read_new_lines(&path, 100).unwrap();
        assert_eq!(chunk.lines.len(), 1);
    }
}
