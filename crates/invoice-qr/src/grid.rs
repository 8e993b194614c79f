//! Reading a QR code straight off an axis-aligned image, the way invoice
//! PDFs embed them: crop to the dark pixels, find the module count whose
//! grid makes the finder and timing patterns line up, sample each module
//! and let quircs correct and decode the grid. No detection pass,
//! so it is fast and works down to one pixel per module.

use crate::luma::{Bounds, Luma};
use crate::qr_decode;

/// Largest QR code: version 40.
const MAX_MODULES: usize = 177;
/// Share of fixed-pattern modules that must read right to accept a grid.
const MIN_PATTERN_SCORE: f32 = 0.9;
/// Share of a corner's finder modules that must read right for it to count.
const MIN_FINDER_SCORE: f32 = 0.8;

/// The text of the QR code filling `luma` (quiet zone or not), if it is
/// upright or turned by a multiple of 90°.
pub(crate) fn read(luma: &Luma<'_>) -> Option<String> {
    let bounds = luma.dark_bounds()?;
    let (w, h) = (bounds.width(), bounds.height());
    if w.min(h) < 21 || w.max(h) * 4 > w.min(h) * 5 {
        return None;
    }
    let mut best: Option<(f32, Layout)> = None;
    for modules in (21..=MAX_MODULES.min(w.min(h))).step_by(4) {
        let sampler = Sampler {
            luma,
            bounds,
            modules,
        };
        if let Some((score, layout)) = sampler.fit()
            && best.as_ref().is_none_or(|(b, _)| score > *b)
        {
            best = Some((score, layout));
        }
    }
    let (score, layout) = best?;
    if score < MIN_PATTERN_SCORE {
        return None;
    }
    let sampler = Sampler {
        luma,
        bounds,
        modules: layout.modules,
    };
    let n = layout.modules;
    let bits: Vec<bool> = (0..n * n)
        .map(|k| sampler.dark(k % n, k / n, true))
        .collect();
    let at = |i: usize, j: usize| bits.get(j * n + i).copied().unwrap_or(false);
    qr_decode::decode_modules(n, |x, y| {
        let (i, j) = layout.to_image(x, y);
        at(i, j)
    })
}

/// A module count and which corner of the image lacks a finder pattern.
#[derive(Debug, Clone, Copy)]
struct Layout {
    modules: usize,
    /// 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left.
    missing: usize,
}

impl Layout {
    /// Image module coordinates of the canonical module `(x, y)`: the
    /// canonical code has its finderless corner at the bottom right.
    fn to_image(self, x: usize, y: usize) -> (usize, usize) {
        let last = self.modules - 1;
        match self.missing {
            0 => (last - x, last - y),
            1 => (y, last - x),
            3 => (last - y, x),
            _ => (x, y),
        }
    }
}

struct Sampler<'l, 'a> {
    luma: &'l Luma<'a>,
    bounds: Bounds,
    modules: usize,
}

impl Sampler<'_, '_> {
    /// Whether module `(i, j)` (image orientation) is dark: the majority of
    /// up to nine points around its centre (`careful`), or just the centre.
    fn dark(&self, i: usize, j: usize, careful: bool) -> bool {
        let n = self.modules as f32;
        let mw = self.bounds.width() as f32 / n;
        let mh = self.bounds.height() as f32 / n;
        let cx = self.bounds.left as f32 + (i as f32 + 0.5) * mw;
        let cy = self.bounds.top as f32 + (j as f32 + 0.5) * mh;
        let offsets: &[f32] = if careful && mw >= 3.0 && mh >= 3.0 {
            &[-0.25, 0.0, 0.25]
        } else {
            &[0.0]
        };
        let mut dark = 0;
        for dy in offsets {
            for dx in offsets {
                let x = (cx + dx * mw).max(0.0) as usize;
                let y = (cy + dy * mh).max(0.0) as usize;
                if self.luma.dark(x, y) {
                    dark += 1;
                }
            }
        }
        dark * 2 > offsets.len() * offsets.len()
    }

    /// How well this module count fits: the share of finder, separator and
    /// timing modules that read right under the best orientation.
    fn fit(&self) -> Option<(f32, Layout)> {
        let n = self.modules;
        let corners: Vec<(usize, usize)> = (0..4).map(|c| self.finder_score(c)).collect();
        let missing = (0..4).min_by_key(|&c| corners.get(c).map_or(0, |s| s.0))?;
        let mut good = 0;
        let mut total = 0;
        for (c, &(g, t)) in corners.iter().enumerate() {
            if c == missing {
                continue;
            }
            if (g as f32) < MIN_FINDER_SCORE * t as f32 {
                return None;
            }
            good += g;
            total += t;
        }
        let layout = Layout {
            modules: n,
            missing,
        };
        // Timing patterns: canonical row 6 and column 6 alternate, dark on
        // even indices, between the separators.
        for k in 8..n.saturating_sub(8) {
            for (x, y) in [(k, 6), (6, k)] {
                let (i, j) = layout.to_image(x, y);
                if self.dark(i, j, false) == (k % 2 == 0) {
                    good += 1;
                }
                total += 1;
            }
        }
        (total > 0).then(|| (good as f32 / total as f32, layout))
    }

    /// `(right, total)` for the finder pattern and its separator at
    /// `corner` (0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left).
    fn finder_score(&self, corner: usize) -> (usize, usize) {
        let last = self.modules - 1;
        let (flip_x, flip_y) = match corner {
            1 => (true, false),
            2 => (true, true),
            3 => (false, true),
            _ => (false, false),
        };
        let place = |dx: usize, dy: usize| {
            (
                if flip_x { last - dx } else { dx },
                if flip_y { last - dy } else { dy },
            )
        };
        let (mut good, mut total) = (0, 0);
        for dy in 0..8usize {
            for dx in 0..8usize {
                // Rows and columns 0–6 are the finder, 7 the light separator.
                let expected = dx < 7 && dy < 7 && dx.abs_diff(3).max(dy.abs_diff(3)) != 2;
                let (i, j) = place(dx, dy);
                if self.dark(i, j, false) == expected {
                    good += 1;
                }
                total += 1;
            }
        }
        (good, total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 21×21 grid for "rqrr" (from rqrr's documentation), rendered at
    /// `scale` pixels per module with a `border`-pixel white margin.
    fn render(scale: usize, border: usize, rotate: usize) -> (usize, Vec<u8>) {
        const ROWS: [&str; 21] = [
            "111111100010001111111",
            "100000101110001000001",
            "101110100101101011101",
            "101110100000101011101",
            "101110101101101011101",
            "100000100111001000001",
            "111111101010101111111",
            "000000000010000000000",
            "101010100000100010010",
            "100110000001010101001",
            "010110110111011101111",
            "110001001111110110011",
            "001011101001011101001",
            "000000001110001001001",
            "111111100110100010011",
            "100000100110001000010",
            "101110101000101011011",
            "101110100101010101010",
            "101110101101011100001",
            "100000100011110111010",
            "111111101001011100111",
        ];
        let module = |x: usize, y: usize| {
            let (x, y) = match rotate {
                1 => (y, 20 - x),
                2 => (20 - x, 20 - y),
                3 => (20 - y, x),
                _ => (x, y),
            };
            ROWS[y].as_bytes()[x] == b'1'
        };
        let side = 21 * scale + 2 * border;
        let mut pixels = vec![255u8; side * side];
        for py in 0..side {
            for px in 0..side {
                let (Some(x), Some(y)) = (px.checked_sub(border), py.checked_sub(border)) else {
                    continue;
                };
                if x < 21 * scale && y < 21 * scale && module(x / scale, y / scale) {
                    pixels[py * side + px] = 0;
                }
            }
        }
        (side, pixels)
    }

    #[test]
    fn reads_one_pixel_per_module_without_quiet_zone() {
        let (side, pixels) = render(1, 0, 0);
        let luma = Luma::new(side, side, &pixels).unwrap();
        assert_eq!(read(&luma).as_deref(), Some("rqrr"));
    }

    #[test]
    fn reads_scaled_bordered_and_rotated() {
        for rotate in 0..4 {
            let (side, pixels) = render(3, 7, rotate);
            let luma = Luma::new(side, side, &pixels).unwrap();
            assert_eq!(read(&luma).as_deref(), Some("rqrr"), "rotation {rotate}");
        }
    }

    #[test]
    fn blank_and_noise_yield_nothing() {
        let luma = Luma::new(30, 30, &[255; 900]);
        assert!(luma.is_none());
        let noise: Vec<u8> = (0..900u32).map(|i| ((i * 7919) % 251) as u8).collect();
        let luma = Luma::new(30, 30, &noise).unwrap();
        assert!(read(&luma).is_none());
    }
}
