//! Undoing the PNG and TIFF predictors that `/DecodeParms` can put on
//! Flate- or LZW-compressed image data.

/// The `/DecodeParms` entries that describe a predictor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Predictor {
    /// `/Predictor`: 1 none, 2 TIFF, 10–15 PNG (the per-row tag decides).
    pub kind: i64,
    /// `/Colors`: components per sample.
    pub colors: usize,
    /// `/BitsPerComponent`.
    pub bits: usize,
    /// `/Columns`: samples per row.
    pub columns: usize,
}

impl Default for Predictor {
    fn default() -> Self {
        Self {
            kind: 1,
            colors: 1,
            bits: 8,
            columns: 1,
        }
    }
}

/// Largest row we accept, in bytes; wider means a hostile dictionary.
const MAX_ROW: usize = 1 << 24;

impl Predictor {
    /// Bytes in one decoded row, without the PNG tag byte; `None` for
    /// unusable parameters.
    pub fn row_bytes(&self) -> Option<usize> {
        let bits = self
            .columns
            .checked_mul(self.colors)?
            .checked_mul(self.bits)?;
        let bytes = bits.div_ceil(8);
        (bytes > 0 && bytes <= MAX_ROW).then_some(bytes)
    }

    /// Whether rows carry a PNG tag byte.
    pub fn is_png(&self) -> bool {
        (10..=15).contains(&self.kind)
    }

    /// Whether there is anything to undo, with parameters we understand.
    pub fn is_active(&self) -> bool {
        self.is_png() || self.kind == 2
    }

    /// Bytes one encoded row takes in the stream.
    pub fn encoded_row_bytes(&self) -> Option<usize> {
        let row = self.row_bytes()?;
        Some(if self.is_png() { row + 1 } else { row })
    }

    /// Reverse the predictor. `None` when the parameters are unusable; a
    /// truncated last row is kept as far as it goes.
    pub fn undo(&self, data: Vec<u8>) -> Option<Vec<u8>> {
        if !self.is_active() {
            return Some(data);
        }
        let row = self.row_bytes()?;
        if self.kind == 2 && !matches!(self.bits, 1 | 2 | 4 | 8 | 16) {
            return None;
        }
        let encoded = self.encoded_row_bytes()?;
        let mut out = Vec::with_capacity(data.len() / encoded * row + row);
        let mut prev = vec![0u8; row];
        let mut cur = vec![0u8; row];
        for chunk in data.chunks(encoded) {
            let len = self.decode_row(chunk, &prev, &mut cur);
            out.extend_from_slice(cur.get(..len).unwrap_or_default());
            std::mem::swap(&mut prev, &mut cur);
        }
        Some(out)
    }

    /// Decode one encoded row (possibly short, at the end of the data) into
    /// `out`, given the previous decoded row (zeros before the first).
    /// `prev` and `out` are [`Predictor::row_bytes`] long. Returns how many
    /// bytes of `out` are valid.
    pub fn decode_row(&self, encoded: &[u8], prev: &[u8], out: &mut [u8]) -> usize {
        if self.is_png() {
            let Some((&tag, encoded)) = encoded.split_first() else {
                return 0;
            };
            // Bytes per complete pixel, at least one: the distance to the
            // left neighbour that Sub, Average and Paeth look at.
            let bpp = (self.colors * self.bits).div_ceil(8).max(1);
            let len = encoded.len().min(out.len()).min(prev.len());
            for i in 0..len {
                let x = encoded[i];
                let up = prev[i];
                let left = if i >= bpp { out[i - bpp] } else { 0 };
                let up_left = if i >= bpp { prev[i - bpp] } else { 0 };
                out[i] = match tag {
                    1 => x.wrapping_add(left),
                    2 => x.wrapping_add(up),
                    3 => x.wrapping_add(((u16::from(left) + u16::from(up)) / 2) as u8),
                    4 => x.wrapping_add(paeth(left, up, up_left)),
                    // 0, and unknown tags read leniently as unfiltered.
                    _ => x,
                };
            }
            return len;
        }
        let len = encoded.len().min(out.len());
        let (Some(out), Some(encoded)) = (out.get_mut(..len), encoded.get(..len)) else {
            return 0;
        };
        out.copy_from_slice(encoded);
        if self.kind == 2 {
            self.undo_tiff_row(out);
        }
        len
    }

    fn undo_tiff_row(&self, line: &mut [u8]) {
        let colors = self.colors;
        match self.bits {
            8 => {
                for i in colors..line.len() {
                    line[i] = line[i].wrapping_add(line[i - colors]);
                }
            }
            16 => {
                for s in colors..line.len() / 2 {
                    let p = s - colors;
                    let prev = u16::from_be_bytes([line[2 * p], line[2 * p + 1]]);
                    let cur = u16::from_be_bytes([line[2 * s], line[2 * s + 1]]);
                    let sum = cur.wrapping_add(prev).to_be_bytes();
                    line[2 * s] = sum[0];
                    line[2 * s + 1] = sum[1];
                }
            }
            bits @ (1 | 2 | 4) => {
                let mask = (1u8 << bits) - 1;
                let count = (self.columns * colors).min(line.len() * 8 / bits);
                let mut acc = vec![0u8; colors.min(count.max(1))];
                for s in 0..count {
                    if let Some(a) = acc.get_mut(s % colors) {
                        *a = (*a + get_bits(line, s, bits)) & mask;
                        set_bits(line, s, bits, *a);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The PNG Paeth predictor: whichever neighbour is closest to `a + b - c`.
fn paeth(a: u8, b: u8, c: u8) -> u8 {
    let p = i16::from(a) + i16::from(b) - i16::from(c);
    let (pa, pb, pc) = (
        (p - i16::from(a)).abs(),
        (p - i16::from(b)).abs(),
        (p - i16::from(c)).abs(),
    );
    if pa <= pb && pa <= pc {
        a
    } else if pb <= pc {
        b
    } else {
        c
    }
}

/// Sample `index` of `bits` bits, packed MSB first. The caller keeps
/// `index` inside the row.
fn get_bits(line: &[u8], index: usize, bits: usize) -> u8 {
    let bit = index * bits;
    let shift = 8 - bits - bit % 8;
    line.get(bit / 8)
        .map_or(0, |b| (b >> shift) & ((1u8 << bits) - 1))
}

fn set_bits(line: &mut [u8], index: usize, bits: usize, value: u8) {
    let bit = index * bits;
    let shift = 8 - bits - bit % 8;
    let mask = ((1u8 << bits) - 1) << shift;
    if let Some(b) = line.get_mut(bit / 8) {
        *b = (*b & !mask) | ((value << shift) & mask);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(columns: usize, colors: usize) -> Predictor {
        Predictor {
            kind: 15,
            colors,
            bits: 8,
            columns,
        }
    }

    #[test]
    fn png_filters_round_trip() {
        // Rows: None, Sub, Up, Average, Paeth over 3 single-byte samples.
        let data = [
            0, 10, 20, 30, //
            1, 5, 1, 1, //
            2, 1, 1, 1, //
            3, 4, 4, 4, //
            4, 1, 0, 0,
        ];
        let out = png(3, 1).undo(data.to_vec()).unwrap();
        assert_eq!(
            out,
            [
                10, 20, 30, // none
                5, 6, 7, // sub: running sum
                6, 7, 8, // up: previous row + 1
                7, 11, 13, // average: (left + up) / 2 + 4
                8, 11, 13, // paeth: up is the closest guess throughout
            ]
        );
    }

    #[test]
    fn png_truncated_row_is_kept() {
        let out = png(4, 1).undo(vec![0, 1, 2, 3, 4, 2, 1]).unwrap();
        assert_eq!(out, [1, 2, 3, 4, 2]);
    }

    #[test]
    fn png_sub_uses_whole_pixels() {
        // RGB: the left neighbour is three bytes back.
        let out = png(2, 3).undo(vec![1, 1, 2, 3, 1, 1, 1]).unwrap();
        assert_eq!(out, [1, 2, 3, 2, 3, 4]);
    }

    #[test]
    fn tiff_predictor_8_and_1_bit() {
        let p = Predictor {
            kind: 2,
            colors: 1,
            bits: 8,
            columns: 3,
        };
        assert_eq!(
            p.undo(vec![1, 1, 1, 5, 0, 255]).unwrap(),
            [1, 2, 3, 5, 5, 4]
        );
        // 1-bit: differences 1,0,0,1,0,0,0,0 sum to 1,1,1,0,0,0,0,0.
        let p = Predictor {
            kind: 2,
            colors: 1,
            bits: 1,
            columns: 8,
        };
        assert_eq!(p.undo(vec![0b1001_0000]).unwrap(), [0b1110_0000]);
    }

    #[test]
    fn hostile_parameters_are_refused() {
        let p = Predictor {
            kind: 12,
            colors: usize::MAX,
            bits: 8,
            columns: 2,
        };
        assert!(p.undo(vec![0, 1, 2]).is_none());
        let p = Predictor {
            kind: 2,
            colors: 1,
            bits: 3,
            columns: 2,
        };
        assert!(p.undo(vec![0]).is_none());
        // No predictor: data passes through.
        assert_eq!(Predictor::default().undo(vec![7]).unwrap(), [7]);
    }
}
