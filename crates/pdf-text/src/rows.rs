//! Image data handed out row by row: from a buffer, or inflated (and
//! un-predicted) on the fly so a large Flate image never needs its whole
//! decompressed data in memory, and rows a reduced decode skips cost no
//! conversion.

use std::io::Read;

use crate::predictor::Predictor;

/// Bytes pulled from an unpredicted stream at a time.
const CHUNK: usize = 1 << 16;

/// A raw-deflate reader over zlib data: the two-byte header is skipped and
/// the Adler-32 trailer ignored (viewers ignore it too, and damaged files
/// often get it wrong). Data without a zlib header is read as raw deflate.
pub(crate) fn deflate(data: &[u8]) -> flate2::read::DeflateDecoder<&[u8]> {
    let body = match data {
        [cmf, flg, rest @ ..]
            if cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0 =>
        {
            // A preset dictionary (FDICT) adds four bytes of dictionary id.
            if flg & 0x20 != 0 {
                rest.get(4..).unwrap_or_default()
            } else {
                rest
            }
        }
        _ => data,
    };
    flate2::read::DeflateDecoder::new(body)
}

/// Sequential decoded bytes, read as rows of any length. Past the end of
/// the data (or a corrupt stretch) rows read as zeros.
pub(crate) struct Rows<'c> {
    source: Box<dyn Read + 'c>,
    predictor: Predictor,
    /// Decoded bytes not yet handed out: `decoded[pos..end]`.
    decoded: Vec<u8>,
    pos: usize,
    end: usize,
    encoded: Vec<u8>,
    prev: Vec<u8>,
    done: bool,
    /// A row assembled across chunks, handed out by [`Rows::next_row`].
    row: Vec<u8>,
}

impl std::fmt::Debug for Rows<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rows")
            .field("predictor", &self.predictor)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<'c> Rows<'c> {
    /// Rows over already decoded data.
    pub fn buffered(data: Vec<u8>) -> Self {
        let end = data.len();
        Self {
            source: Box::new(std::io::empty()),
            predictor: Predictor::default(),
            decoded: data,
            pos: 0,
            end,
            encoded: Vec::new(),
            prev: Vec::new(),
            done: true,
            row: Vec::new(),
        }
    }

    /// Rows inflated from zlib data, with `predictor` undone as they come.
    /// `None` for predictor parameters we cannot undo.
    pub fn inflate(compressed: &'c [u8], predictor: Predictor) -> Option<Self> {
        let (decoded, encoded, prev) = if predictor.is_active() {
            let encoded = predictor.encoded_row_bytes()?;
            if predictor.kind == 2 && !matches!(predictor.bits, 1 | 2 | 4 | 8 | 16) {
                return None;
            }
            let row = predictor.row_bytes()?;
            (vec![0; row], vec![0; encoded], vec![0; row])
        } else {
            (vec![0; CHUNK], Vec::new(), Vec::new())
        };
        Some(Self {
            source: Box::new(deflate(compressed)),
            predictor,
            decoded,
            pos: 0,
            end: 0,
            encoded,
            prev,
            done: false,
            row: Vec::new(),
        })
    }

    /// The next `len` bytes: borrowed straight from the decoded data when
    /// they lie in one chunk, else assembled.
    pub fn next_row(&mut self, len: usize) -> &[u8] {
        if self.end - self.pos < len && !self.done {
            self.refill_if_empty();
        }
        if self.end - self.pos >= len {
            let start = self.pos;
            self.pos += len;
            return self.decoded.get(start..start + len).unwrap_or_default();
        }
        let mut row = std::mem::take(&mut self.row);
        row.clear();
        row.resize(len, 0);
        let mut filled = 0;
        while filled < len {
            let available = self.decoded.get(self.pos..self.end).unwrap_or_default();
            if available.is_empty() {
                if self.done {
                    // Past the end: the rest stays zero.
                    break;
                }
                self.refill();
                continue;
            }
            let n = available.len().min(len - filled);
            if let (Some(dst), Some(src)) = (row.get_mut(filled..filled + n), available.get(..n)) {
                dst.copy_from_slice(src);
            }
            filled += n;
            self.pos += n;
        }
        self.row = row;
        &self.row
    }

    /// Pass over the next `len` bytes.
    pub fn skip_row(&mut self, len: usize) {
        let mut left = len;
        while left > 0 {
            let available = self.end - self.pos;
            if available == 0 {
                if self.done {
                    return;
                }
                self.refill();
                continue;
            }
            let n = available.min(left);
            self.pos += n;
            left -= n;
        }
    }

    fn refill_if_empty(&mut self) {
        if self.pos == self.end {
            self.refill();
        }
    }

    /// Replace the (used up) decoded bytes with the next chunk: a
    /// predictor row, or up to [`CHUNK`] bytes.
    fn refill(&mut self) {
        self.pos = 0;
        self.end = 0;
        if self.done {
            return;
        }
        if !self.predictor.is_active() {
            let n = read_full(&mut self.source, &mut self.decoded);
            self.end = n;
            self.done = n < self.decoded.len();
            return;
        }
        let n = read_full(&mut self.source, &mut self.encoded);
        if n < self.encoded.len() {
            self.done = true;
        }
        let len = self.predictor.decode_row(
            self.encoded.get(..n).unwrap_or_default(),
            &self.prev,
            &mut self.decoded,
        );
        // The row just decoded is the next row's reference.
        self.prev.copy_from_slice(&self.decoded);
        self.end = len;
        if len == 0 {
            self.done = true;
        }
    }
}

/// Read until `buf` is full, the data ends or it turns out corrupt;
/// returns the bytes read.
fn read_full(source: &mut dyn Read, buf: &mut [u8]) -> usize {
    let mut n = 0;
    while n < buf.len() {
        match source.read(buf.get_mut(n..).unwrap_or_default()) {
            Ok(0) | Err(_) => break,
            Ok(k) => n += k,
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zlib(data: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(data).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn buffered_rows_pad_with_zeros() {
        let mut rows = Rows::buffered(vec![1, 2, 3]);
        assert_eq!(rows.next_row(2), [1, 2]);
        assert_eq!(rows.next_row(2), [3, 0]);
        assert_eq!(rows.next_row(2), [0, 0]);
    }

    #[test]
    fn inflated_rows_with_png_predictor() {
        let predictor = Predictor {
            kind: 15,
            colors: 1,
            bits: 8,
            columns: 3,
        };
        // Up-filtered second row.
        let data = zlib(&[0, 1, 2, 3, 2, 1, 1, 1]);
        let mut rows = Rows::inflate(&data, predictor).unwrap();
        assert_eq!(rows.next_row(3), [1, 2, 3]);
        rows.skip_row(1);
        assert_eq!(rows.next_row(2), [3, 4]);
        assert_eq!(rows.next_row(2), [0, 0]);
    }

    #[test]
    fn raw_deflate_and_garbage() {
        let data = zlib(&[9; 5]);
        let raw = data.get(2..data.len() - 4).unwrap();
        let mut rows = Rows::inflate(raw, Predictor::default()).unwrap();
        assert_eq!(rows.next_row(6), [9, 9, 9, 9, 9, 0]);
        let mut rows = Rows::inflate(b"\x78\x9cgarbage", Predictor::default()).unwrap();
        assert_eq!(rows.next_row(3).len(), 3);
    }
}
