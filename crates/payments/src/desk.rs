//! The desk around a photographed slip: found as what lies outside the
//! photo's one big bright region, so it can be whitened before OCR.
//!
//! A patterned desk (perforated metal, wood grain, a tablecloth) is
//! thousands of specks to tesseract: it spends seconds on them, and the
//! photo's text size, judged from rows of ink, takes rows of specks for
//! small text and enlarges the whole photo for nothing.

use image::GrayImage;

use crate::preprocess::{downscale, otsu};
use crate::shapes::{neighbours4, reached_from_edges, shapes};

/// Blocks across the longer side of the photo.
const BLOCKS: u32 = 100;

/// Only a dark desk is whitened: the blocks that are not paper must average
/// at most this grey. On a pale or patterned desk (a gingham tablecloth)
/// the bright class mixes paper with desk, and a slip's shadowed end falls
/// below the threshold with the desk: whitened, its text would be lost.
const MAX_DESK: u32 = 90;

/// And the paper must stand out this much from it (mean grey of the bright
/// blocks less that of the dark ones)...
const MIN_CONTRAST: u32 = 100;

/// ...or be this many times as bright (in tenths): dim light darkens paper
/// and desk alike, so a slip in overcast light on a dark green cutting
/// mat (paper 130, mat 46: 2.8 times) stands out by less than
/// [`MIN_CONTRAST`]. A tan slip on fabric under a warm lamp (170 on 77,
/// 2.2 times) is left alone: its mask missed a lamp-lit patch of the
/// fabric, which cost the page two lines.
const MIN_RATIO_TENTHS: u32 = 27;

/// Where the paper is, block by block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaperMask {
    /// Size of the photo the mask was found on.
    width: u32,
    height: u32,
    columns: u32,
    rows: u32,
    paper: Vec<bool>,
}

impl PaperMask {
    /// Whether the pixel lies on the paper (or within a block of it).
    pub fn on_paper(&self, x: u32, y: u32) -> bool {
        let column = u64::from(x) * u64::from(self.columns) / u64::from(self.width.max(1));
        let row = u64::from(y) * u64::from(self.rows) / u64::from(self.height.max(1));
        usize::try_from(row * u64::from(self.columns) + column)
            .ok()
            .and_then(|i| self.paper.get(i).copied())
            .unwrap_or(true)
    }

    /// Whitens every pixel off the paper.
    pub fn whiten_desk(&self, img: &mut GrayImage) {
        for (x, y, p) in img.enumerate_pixels_mut() {
            if !self.on_paper(x, y) {
                p.0[0] = 255;
            }
        }
    }
}

/// The paper of a photo not yet evened out: the largest (8-)connected region
/// of bright blocks (brighter than Otsu's threshold over the blocks' mean
/// grey), grown into every block next to it that is clearly brighter than
/// the desk (paper in a shadow), with the blocks it encloses (bold print, a
/// stamp) and one block of margin around it. `None` when there is no clear
/// dark desk (see [`MAX_DESK`], [`MIN_CONTRAST`] and [`MIN_RATIO_TENTHS`]), or the paper fills
/// nearly the whole photo, or too little of it to be a slip.
pub fn paper_mask(gray: &GrayImage) -> Option<PaperMask> {
    let (width, height) = gray.dimensions();
    let blocks = downscale(
        gray,
        f64::from(BLOCKS) / f64::from(width.max(height).max(1)),
    );
    let (columns, rows) = blocks.dimensions();
    let threshold = otsu(&blocks);
    let bright: Vec<bool> = blocks.as_raw().iter().map(|&m| m > threshold).collect();
    let (bright_mean, dark_mean) = class_means(blocks.as_raw(), &bright);
    let stands_out =
        bright_mean >= dark_mean + MIN_CONTRAST || bright_mean * 10 >= dark_mean * MIN_RATIO_TENTHS;
    if dark_mean > MAX_DESK || !stands_out {
        return None;
    }
    let (c, r) = (columns as usize, rows as usize);
    let largest = shapes(&bright, c)
        .into_iter()
        .max_by_key(|shape| shape.pixels.len())?;
    let mut component = vec![false; bright.len()];
    for i in largest.pixels {
        component[i] = true;
    }
    let shade = dark_mean + (bright_mean - dark_mean) / 4;
    grow_into(&mut component, blocks.as_raw(), shade, c, r);
    let paper = fill_enclosed(&component, c, r);
    let share = paper.iter().filter(|&&p| p).count() * 100 / paper.len().max(1);
    if !(15..=95).contains(&share) {
        return None;
    }
    Some(PaperMask {
        width,
        height,
        columns,
        rows,
        paper: grow(&paper, c, r),
    })
}

/// Mean grey of the bright blocks and of the others.
fn class_means(means: &[u8], bright: &[bool]) -> (u32, u32) {
    let mut sums = [0u32; 2];
    let mut counts = [0u32; 2];
    for (&m, &b) in means.iter().zip(bright) {
        sums[usize::from(b)] += u32::from(m);
        counts[usize::from(b)] += 1;
    }
    (sums[1] / counts[1].max(1), sums[0] / counts[0].max(1))
}

/// Grows the region into every cell reachable from it through cells of at
/// least `floor`.
fn grow_into(region: &mut [bool], means: &[u8], floor: u32, columns: usize, rows: usize) {
    let mut stack: Vec<usize> = (0..region.len()).filter(|&i| region[i]).collect();
    while let Some(i) = stack.pop() {
        for n in neighbours4(i, columns, rows) {
            if !region[n] && u32::from(means[n]) >= floor {
                region[n] = true;
                stack.push(n);
            }
        }
    }
}

/// The region with every cell it encloses: all cells but those reachable
/// from the border without crossing it.
fn fill_enclosed(region: &[bool], columns: usize, rows: usize) -> Vec<bool> {
    reached_from_edges(region, columns, rows)
        .iter()
        .map(|&outside| !outside)
        .collect()
}

/// The region grown by one cell each way (eight neighbours).
fn grow(region: &[bool], columns: usize, rows: usize) -> Vec<bool> {
    (0..region.len())
        .map(|i| {
            let (x, y) = (i % columns, i / columns);
            (y.saturating_sub(1)..=(y + 1).min(rows - 1)).any(|ny| {
                (x.saturating_sub(1)..=(x + 1).min(columns - 1)).any(|nx| region[ny * columns + nx])
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bright slip with dark lines of "text" on a dark desk with pale
    /// specks every 12 px.
    fn slip_on_desk() -> GrayImage {
        GrayImage::from_fn(600, 800, |x, y| {
            let on_slip = (150..450).contains(&x) && (100..700).contains(&y);
            let value = if on_slip {
                if y % 40 < 12 && (170..420).contains(&x) {
                    30
                } else {
                    235
                }
            } else if x % 12 < 4 && y % 12 < 4 {
                200
            } else {
                40
            };
            image::Luma([value])
        })
    }

    #[test]
    fn the_desk_around_a_slip_is_whitened_and_its_text_kept() {
        let mut img = slip_on_desk();
        let mask = paper_mask(&img).expect("a slip on a dark desk has a desk");
        mask.whiten_desk(&mut img);
        // Desk specks far from the slip are gone, the slip's text is there.
        assert_eq!(img.get_pixel(50, 50).0[0], 255);
        assert_eq!(img.get_pixel(60, 760).0[0], 255);
        assert_eq!(img.get_pixel(300, 125).0[0], 30);
        assert_eq!(img.get_pixel(300, 680).0[0], 30);
    }

    #[test]
    fn a_dim_slip_on_a_dark_mat_has_a_desk() {
        // Overcast light: paper at 140 with thin lines of text (blocks
        // of ~130) on a mat at 44 with its grid's pale lines every 40 px
        // (~46): as measured on such a photo, 84 apart, 2.8 times.
        let mut img = GrayImage::from_fn(600, 800, |x, y| {
            let on_slip = (150..450).contains(&x) && (100..700).contains(&y);
            let text = y % 40 < 4 && (170..420).contains(&x);
            let grid = x % 40 == 0 || y % 40 == 0;
            image::Luma([match (on_slip, text, grid) {
                (true, true, _) => 30,
                (true, false, _) => 140,
                (false, _, true) => 90,
                (false, _, false) => 44,
            }])
        });
        let mask = paper_mask(&img).expect("a dim slip on a dark mat");
        mask.whiten_desk(&mut img);
        assert_eq!(img.get_pixel(50, 50).0[0], 255);
        assert_eq!(img.get_pixel(300, 121).0[0], 30);
    }

    #[test]
    fn a_slip_s_shadowed_end_stays_paper() {
        // The lower third of the slip in a shadow: paper at 110 on a desk at
        // 40 (Otsu puts the shadowed paper with the desk).
        let mut img = GrayImage::from_fn(600, 800, |x, y| {
            let on_slip = (150..450).contains(&x) && (100..700).contains(&y);
            let paper = if y >= 500 { 110 } else { 235 };
            let text = y % 40 < 12 && (170..420).contains(&x);
            image::Luma([match (on_slip, text) {
                (true, true) => 20,
                (true, false) => paper,
                _ => 40,
            }])
        });
        let mask = paper_mask(&img).expect("a dark desk");
        mask.whiten_desk(&mut img);
        assert_eq!(img.get_pixel(300, 685).0[0], 20, "text in the shadow");
        assert_eq!(img.get_pixel(300, 660).0[0], 110, "paper in the shadow");
        assert_eq!(img.get_pixel(50, 660).0[0], 255, "the desk beside it");
    }

    #[test]
    fn a_photo_without_a_clear_desk_is_left_alone() {
        // A slip on a gingham tablecloth, whose pale checks are as bright
        // as paper in the shade.
        let gingham = GrayImage::from_fn(600, 800, |x, y| {
            let on_slip = (150..450).contains(&x) && (100..700).contains(&y);
            let check = ((x / 24) + (y / 24)) % 2 == 0;
            image::Luma([if on_slip {
                235
            } else if check {
                200
            } else {
                90
            }])
        });
        assert_eq!(paper_mask(&gingham), None);
        // Paper filling the frame.
        let page = GrayImage::from_fn(600, 800, |_, y| {
            image::Luma([if y % 40 < 12 { 30 } else { 235 }])
        });
        assert_eq!(paper_mask(&page), None);
        // A pale desk hardly darker than the paper.
        let pale = GrayImage::from_fn(600, 800, |x, y| {
            let on_slip = (150..450).contains(&x) && (100..700).contains(&y);
            image::Luma([if on_slip { 235 } else { 205 }])
        });
        assert_eq!(paper_mask(&pale), None);
        // A tan slip on fabric under a warm lamp: 170 on 77, neither 100
        // brighter nor 2.7 times as bright.
        let fabric = GrayImage::from_fn(600, 800, |x, y| {
            let on_slip = (150..450).contains(&x) && (100..700).contains(&y);
            image::Luma([if on_slip { 170 } else { 77 }])
        });
        assert_eq!(paper_mask(&fabric), None);
    }
}
