//! A grey image seen through one global dark/light threshold (Otsu's),
//! with the bounding box of its dark pixels.

/// Samples used to pick the threshold, at most; big images are strided.
const HISTOGRAM_SAMPLES: usize = 1 << 14;

/// Pixel bounds, right and bottom exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub left: usize,
    pub top: usize,
    pub right: usize,
    pub bottom: usize,
}

impl Bounds {
    pub fn width(&self) -> usize {
        self.right - self.left
    }

    pub fn height(&self) -> usize {
        self.bottom - self.top
    }
}

/// Borrowed grey pixels, row-major, 0 black to 255 white.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Luma<'a> {
    pub width: usize,
    pub height: usize,
    pixels: &'a [u8],
    /// Pixels at or below this level are dark.
    threshold: u8,
}

impl<'a> Luma<'a> {
    /// `None` when the buffer does not match the size or the image is flat
    /// (nothing to separate).
    pub fn new(width: usize, height: usize, pixels: &'a [u8]) -> Option<Self> {
        if width == 0 || height == 0 || pixels.len() != width.checked_mul(height)? {
            return None;
        }
        let step = (pixels.len() / HISTOGRAM_SAMPLES).isqrt().max(1);
        let mut histogram = [0u32; 256];
        for row in pixels.chunks(width).step_by(step) {
            for &v in row.iter().step_by(step) {
                histogram[usize::from(v)] += 1;
            }
        }
        let threshold = otsu(&histogram)?;
        Some(Self {
            width,
            height,
            pixels,
            threshold,
        })
    }

    /// The level at `(x, y)`; white outside the image.
    pub fn get(&self, x: usize, y: usize) -> u8 {
        if x >= self.width {
            return 255;
        }
        self.pixels.get(y * self.width + x).copied().unwrap_or(255)
    }

    pub fn dark(&self, x: usize, y: usize) -> bool {
        self.get(x, y) <= self.threshold
    }

    pub fn threshold(&self) -> u8 {
        self.threshold
    }

    /// Row `y`; empty past the bottom.
    pub fn row(&self, y: usize) -> &'a [u8] {
        self.pixels
            .get(y * self.width..(y + 1) * self.width)
            .unwrap_or_default()
    }

    /// The smallest box holding every dark pixel. Scans inwards from the
    /// edges and stops at the first dark pixel, so an image that is all
    /// symbol costs little however large it is.
    pub fn dark_bounds(&self) -> Option<Bounds> {
        let t = self.threshold;
        let row_dark = |y: usize| self.row(y).iter().any(|&v| v <= t);
        let top = (0..self.height).find(|&y| row_dark(y))?;
        let bottom = (top..self.height).rev().find(|&y| row_dark(y))? + 1;
        let column_dark = |x: usize| (top..bottom).any(|y| self.get(x, y) <= t);
        let left = (0..self.width).find(|&x| column_dark(x))?;
        let right = (left..self.width).rev().find(|&x| column_dark(x))? + 1;
        Some(Bounds {
            left,
            top,
            right,
            bottom,
        })
    }
}

/// Otsu's threshold: the level that best splits the histogram into two
/// classes. `None` for a single-level image.
fn otsu(histogram: &[u32; 256]) -> Option<u8> {
    let total: f64 = histogram.iter().map(|&c| f64::from(c)).sum();
    let sum_all: f64 = histogram
        .iter()
        .enumerate()
        .map(|(v, &c)| v as f64 * f64::from(c))
        .sum();
    let (mut weight_dark, mut sum_dark) = (0.0, 0.0);
    let mut best: Option<(f64, u8)> = None;
    for (level, &count) in histogram.iter().enumerate() {
        weight_dark += f64::from(count);
        sum_dark += level as f64 * f64::from(count);
        let weight_light = total - weight_dark;
        if weight_dark == 0.0 || weight_light == 0.0 {
            continue;
        }
        let mean_dark = sum_dark / weight_dark;
        let mean_light = (sum_all - sum_dark) / weight_light;
        let between = weight_dark * weight_light * (mean_dark - mean_light).powi(2);
        if best.is_none_or(|(b, _)| between > b) {
            best = Some((between, level as u8));
        }
    }
    best.map(|(_, level)| level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threshold_splits_two_levels() {
        let pixels = [10, 10, 200, 200, 10, 200];
        let luma = Luma::new(3, 2, &pixels).unwrap();
        assert!((10..200).contains(&luma.threshold()));
        assert!(luma.dark(0, 0) && !luma.dark(2, 0) && !luma.dark(5, 0));
        assert!(Luma::new(2, 2, &[9; 4]).is_none());
        assert!(Luma::new(2, 2, &[9; 3]).is_none());
    }

    #[test]
    fn bounds_of_dark_pixels() {
        #[rustfmt::skip]
        let pixels = [
            255, 255, 255, 255,
            255, 0,   255, 255,
            255, 255, 0,   255,
            255, 255, 255, 255,
        ];
        let luma = Luma::new(4, 4, &pixels).unwrap();
        let b = luma.dark_bounds().unwrap();
        assert_eq!((b.left, b.top, b.right, b.bottom), (1, 1, 3, 3));
        assert_eq!((b.width(), b.height()), (2, 2));
    }
}
