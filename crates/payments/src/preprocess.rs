//! Image preparation before OCR: decode (honouring EXIF orientation),
//! greyscale, dark mode inverted, scaled so text has the size tesseract
//! reads best, and straightened when photographed at a slant. A
//! screenshot's rows are evened out in [`crate::evening`] and its big lines
//! shrunk in [`crate::bands`]; a photo is prepared in [`crate::photo`].

use std::path::Path;

use image::{DynamicImage, GrayImage};

use crate::bands::Band;
use crate::error::PaymentsError;
use crate::photo;

/// How to prepare an image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prep {
    /// Width a phone screenshot is scaled to. Screens are laid out ~390 CSS
    /// px wide; at ~2.5 px per CSS px body text is ~35 px high, where
    /// tesseract reads digits reliably (at 640 px it confused 5 and 6).
    pub screen_width: u32,
    /// Longest side of anything else (photos), for speed.
    pub max_side: u32,
    /// Straighten slanted photos (screenshots are never slanted, and the
    /// estimate then finds 0).
    pub deskew: bool,
    /// Shrink rows of big text (a bill's headline amount) to about the
    /// body size: tesseract misreads big bold digits (`3` as `2`) far more
    /// often than body-size ones.
    pub shrink_big_text: bool,
}

impl Default for Prep {
    fn default() -> Self {
        Self {
            screen_width: 1000,
            max_side: 1600,
            deskew: true,
            shrink_big_text: true,
        }
    }
}

/// Reads an image file, applying its EXIF orientation (phone photos), within the bounds of
/// [`crate::bounded_image`]. For tools; recognition keeps the pixel permit while it works.
pub fn load(path: &Path) -> Result<DynamicImage, PaymentsError> {
    crate::bounded_image::load(path).map(|(image, _permit)| image)
}

/// An image made ready for OCR.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub gray: GrayImage,
    /// A photo (a POS slip on a desk) rather than a screenshot.
    pub photo: bool,
    /// The big lines shrunk in `gray`, as they were.
    pub big_lines: Vec<BigLine>,
}

/// A big line (a headline amount) as it was before it was shrunk for the
/// page's OCR: the re-read of the amount reads it from these pixels, at a
/// size of its own, rather than from the shrunk copy, whose resampled bold
/// glyphs read alike to every model (`¥730.97` as `130.97`).
#[derive(Debug, Clone)]
pub struct BigLine {
    /// Where it stood, in the prepared image's pixels.
    pub rect: Band,
    /// Its pixels with a margin (see `bands::big_line`).
    pub pixels: GrayImage,
}

/// Greyscale, inverted if dark, scaled, straightened.
pub fn prepare(image: &DynamicImage, prep: &Prep) -> GrayImage {
    prepare_image(image, prep).gray
}

/// As [`prepare`], saying whether the image is a photo: a photo's lighting
/// is evened out and it is straightened (`prepare_photo`); anything else is
/// taken for a screenshot.
pub fn prepare_image(image: &DynamicImage, prep: &Prep) -> Prepared {
    let gray = image.to_luma8();
    if prep.deskew && (photo::is_photo(&gray) || photo::is_slanted(&gray)) {
        return Prepared {
            gray: photo::prepare_photo(&gray, prep),
            photo: true,
            big_lines: Vec::new(),
        };
    }
    let mut gray = gray;
    crate::pen_strokes::erase(image, &mut gray);
    let (gray, big_lines) = prepare_screen(gray, prep);
    Prepared {
        gray,
        photo: false,
        big_lines,
    }
}

/// A screenshot prepared from its colour distance to the page (see
/// [`crate::colour_contrast`]) instead of its brightness; `None` for a
/// photo, or when colour shows nothing brightness does not.
pub fn prepare_by_colour(image: &DynamicImage, prep: &Prep) -> Option<Prepared> {
    let mut gray = crate::colour_contrast::distance_gray(image)?;
    crate::pen_strokes::erase(image, &mut gray);
    let (gray, big_lines) = prepare_screen(gray, prep);
    Some(Prepared {
        gray,
        photo: false,
        big_lines,
    })
}

/// As [`prepare_image`] for an image known to be a photo (a slip whose
/// page read as one, though its background was flat and it lay straight).
pub fn prepare_as_photo(image: &DynamicImage, prep: &Prep) -> Prepared {
    Prepared {
        gray: photo::prepare_photo(&image.to_luma8(), prep),
        photo: true,
        big_lines: Vec::new(),
    }
}

/// A screenshot: inverted if dark, scaled, straightened if slanted; with
/// the big lines it shrank.
fn prepare_screen(mut gray: GrayImage, prep: &Prep) -> (GrayImage, Vec<BigLine>) {
    if is_dark(&gray) {
        image::imageops::invert(&mut gray);
    }
    if let Some(pane) = crate::split_view::detail_pane(&gray) {
        gray = pane;
    }
    let (w, h) = gray.dimensions();
    // A slanted image is a photo (a POS slip), whatever its shape; an
    // upright tall one is a phone screenshot.
    let angle = if prep.deskew {
        estimate_skew(&gray)
    } else {
        0.0
    };
    let slanted = angle.abs() >= 0.4;
    let screen = h >= w * 3 / 2 && !slanted;
    let factor = if screen {
        f64::from(prep.screen_width) / f64::from(w)
    } else {
        f64::from(prep.max_side) / f64::from(w.max(h))
    };
    // Shrink big images; enlarge screenshots that were sent through a chat
    // app (often 720 px wide) so their text reaches the size tesseract
    // reads well. Within ±10% the image is used as it is.
    let mut out = if factor < 0.9 {
        downscale(&gray, factor)
    } else if factor > 1.1 && screen {
        let (nw, nh) = (scaled(w, factor), scaled(h, factor));
        image::imageops::resize(&gray, nw, nh, image::imageops::FilterType::Triangle)
    } else {
        gray
    };
    if slanted {
        out = rotate(&out, -angle);
    }
    if screen {
        crate::evening::even_out_rows(&mut out);
    }
    // Row bands are only clean on screens, not on photos.
    let big_lines = if prep.shrink_big_text && screen {
        crate::bands::shrink_big_bands(&mut out)
    } else {
        Vec::new()
    };
    (out, big_lines)
}

/// Samples of a row, about 160 of them.
pub(crate) fn row_samples(gray: &GrayImage, y: u32) -> impl Iterator<Item = u8> + '_ {
    let step = usize::try_from((gray.width() / 160).max(1)).unwrap_or(1);
    (0..gray.width())
        .step_by(step)
        .map(move |x| gray.get_pixel(x, y).0[0])
}

/// The most common value and how often it occurs (the highest value of
/// a tie).
pub(crate) fn mode_of(values: impl Iterator<Item = u8>) -> (u8, usize) {
    let mut hist = [0usize; 256];
    for v in values {
        hist[usize::from(v)] += 1;
    }
    (0..=255u8)
        .map(|v| (v, hist[usize::from(v)]))
        .max_by_key(|&(_, n)| n)
        .unwrap_or((255, 0))
}

/// Dark-mode screens: mostly dark pixels.
fn is_dark(gray: &GrayImage) -> bool {
    let raw = gray.as_raw();
    if raw.is_empty() {
        return false;
    }
    let step = (raw.len() / 20_000).max(1);
    let (dark, total) = raw
        .iter()
        .step_by(step)
        .fold((0usize, 0usize), |(d, t), &p| {
            (d + usize::from(p < 100), t + 1)
        });
    dark * 2 > total
}

/// Area-averaging downscale by `factor` (< 1).
pub fn downscale(src: &GrayImage, factor: f64) -> GrayImage {
    let (w, h) = src.dimensions();
    let nw = scaled(w, factor);
    let nh = scaled(h, factor);
    let raw = src.as_raw();
    let width = w as usize;
    // Source span of each destination column, computed once.
    let cols: Vec<(usize, usize)> = (0..nw).map(|x| span(x, nw, w)).collect();
    let mut out = GrayImage::new(nw, nh);
    for y in 0..nh {
        let (y0, y1) = span(y, nh, h);
        for (x, &(x0, x1)) in cols.iter().enumerate() {
            let mut sum = 0u32;
            for row in y0..y1 {
                let base = row * width;
                sum += raw[base + x0..base + x1]
                    .iter()
                    .map(|&p| u32::from(p))
                    .sum::<u32>();
            }
            let count = u32::try_from((y1 - y0) * (x1 - x0))
                .unwrap_or(u32::MAX)
                .max(1);
            let value = u8::try_from(sum / count).unwrap_or(u8::MAX);
            if let Ok(x) = u32::try_from(x) {
                out.put_pixel(x, y, image::Luma([value]));
            }
        }
    }
    out
}

/// A crop set on a white canvas with a 20 px margin: tesseract reads
/// glyphs that touch the image's edge badly.
pub(crate) fn on_white_margin(crop: &GrayImage) -> GrayImage {
    let mut canvas =
        GrayImage::from_pixel(crop.width() + 40, crop.height() + 40, image::Luma([255]));
    image::imageops::replace(&mut canvas, crop, 20, 20);
    canvas
}

/// `size` times `factor`, at least 1.
pub fn scaled(size: u32, factor: f64) -> u32 {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "factors are below 4, sizes of images far below u32::MAX"
    )]
    let n = (f64::from(size) * factor).round() as u32;
    n.max(1)
}

/// Source range `[start, end)` covered by destination index `i` of `n`.
fn span(i: u32, n: u32, size: u32) -> (usize, usize) {
    let start = u64::from(i) * u64::from(size) / u64::from(n);
    let end = (u64::from(i + 1) * u64::from(size) / u64::from(n)).max(start + 1);
    (
        usize::try_from(start).unwrap_or(usize::MAX),
        usize::try_from(end.min(u64::from(size))).unwrap_or(usize::MAX),
    )
}

/// Slant of the text lines in degrees (positive: lines fall to the right),
/// found as the rotation whose horizontal projection of dark pixels is
/// sharpest. Searches ±8°.
pub fn estimate_skew(gray: &GrayImage) -> f64 {
    let (w, h) = gray.dimensions();
    let threshold = otsu(gray).saturating_sub(10);
    let step = ((u64::from(w) * u64::from(h)) / 400_000).max(1);
    let step = u32::try_from(step).unwrap_or(1);
    let points = ink_points(gray, threshold, step);
    if points.len() < 200 {
        return 0.0;
    }
    let mut projection = Projection {
        points: &points,
        cx: f64::from(w) / 2.0,
        origin_y: 0.0,
        offset: f64::from(h) / 2.0,
        bin_height: 1.0,
        bins: vec![0; usize::try_from(h).unwrap_or(0) * 2 + 8],
    };
    let mut score = |deg: f64| projection.score(deg);
    let mut best = (0.0, score(0.0));
    let mut deg = -8.0;
    while deg <= 8.0 {
        let s = score(deg);
        // A flat screenshot keeps 0 unless a slant is clearly sharper.
        if s > best.1 * 1.02 {
            best = (deg, s);
        }
        deg += 0.5;
    }
    let coarse = best.0;
    let mut fine = coarse - 0.4;
    while fine <= coarse + 0.4 {
        let s = score(fine);
        if s > best.1 {
            best = (fine, s);
        }
        fine += 0.1;
    }
    // The angle `rotate` would have turned a straight page by.
    best.0
}

/// Pixels darker than `threshold`, sampled every `step` px both ways.
pub(crate) fn ink_points(gray: &GrayImage, threshold: u8, step: u32) -> Vec<(f64, f64)> {
    let mut points = Vec::new();
    for y in (0..gray.height()).step_by(step as usize) {
        for x in (0..gray.width()).step_by(step as usize) {
            if gray.get_pixel(x, y).0[0] < threshold {
                points.push((f64::from(x), f64::from(y)));
            }
        }
    }
    points
}

/// The horizontal projection of ink points turned by an angle, for the
/// skew searches: a row's height is `(y - origin_y)·cos − (x − cx)·sin +
/// offset`, counted in bins `bin_height` high.
pub(crate) struct Projection<'a> {
    pub(crate) points: &'a [(f64, f64)],
    pub(crate) cx: f64,
    pub(crate) origin_y: f64,
    pub(crate) offset: f64,
    pub(crate) bin_height: f64,
    pub(crate) bins: Vec<u32>,
}

impl Projection<'_> {
    /// How sharp the projection is at `deg`: the sum of squared bin counts.
    pub(crate) fn score(&mut self, deg: f64) -> f64 {
        let (s, c) = deg.to_radians().sin_cos();
        self.bins.iter_mut().for_each(|b| *b = 0);
        let last = self.bins.len().saturating_sub(1);
        for &(x, y) in self.points {
            let ry = ((y - self.origin_y) * c - (x - self.cx) * s + self.offset) / self.bin_height;
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "clamped to the bin range"
            )]
            let bin = ry.clamp(0.0, last as f64) as usize;
            self.bins[bin] += 1;
        }
        self.bins.iter().map(|&b| f64::from(b) * f64::from(b)).sum()
    }
}

/// Otsu's threshold of the image.
pub(crate) fn otsu(gray: &GrayImage) -> u8 {
    let mut hist = [0u64; 256];
    for &p in gray.as_raw() {
        hist[usize::from(p)] += 1;
    }
    let total: u64 = hist.iter().sum();
    let sum_all: f64 = hist
        .iter()
        .enumerate()
        .map(|(i, &c)| i as f64 * c as f64)
        .sum();
    let (mut w_b, mut sum_b, mut best, mut best_t) = (0u64, 0.0f64, 0.0f64, 128u8);
    for (t, &count) in hist.iter().enumerate() {
        w_b += count;
        if w_b == 0 {
            continue;
        }
        let w_f = total - w_b;
        if w_f == 0 {
            break;
        }
        sum_b += t as f64 * count as f64;
        let m_b = sum_b / w_b as f64;
        let m_f = (sum_all - sum_b) / w_f as f64;
        let between = w_b as f64 * w_f as f64 * (m_b - m_f) * (m_b - m_f);
        if between > best {
            best = between;
            best_t = u8::try_from(t).unwrap_or(u8::MAX);
        }
    }
    best_t
}

/// Rotates by `deg` degrees about the centre (bilinear), filling with the
/// background (the image's brightest common value, white for screens).
pub fn rotate(src: &GrayImage, deg: f64) -> GrayImage {
    let (w, h) = src.dimensions();
    let (s, c) = deg.to_radians().sin_cos();
    let (cx, cy) = (f64::from(w) / 2.0, f64::from(h) / 2.0);
    let fill = background(src);
    let mut out = GrayImage::new(w, h);
    let sample = |x: f64, y: f64| -> f64 {
        if x < 0.0 || y < 0.0 || x > f64::from(w - 1) || y > f64::from(h - 1) {
            return f64::from(fill);
        }
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "bounds checked above"
        )]
        let (x0, y0) = (x.floor() as u32, y.floor() as u32);
        let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
        let (fx, fy) = (x - f64::from(x0), y - f64::from(y0));
        let p = |x: u32, y: u32| f64::from(src.get_pixel(x, y).0[0]);
        let top = p(x0, y0) * (1.0 - fx) + p(x1, y0) * fx;
        let bottom = p(x0, y1) * (1.0 - fx) + p(x1, y1) * fx;
        top * (1.0 - fy) + bottom * fy
    };
    for y in 0..h {
        for x in 0..w {
            let dx = f64::from(x) - cx;
            let dy = f64::from(y) - cy;
            // Inverse mapping: where in the source this output pixel comes from.
            let sx = dx * c + dy * s + cx;
            let sy = -dx * s + dy * c + cy;
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "bilinear mix of u8 values"
            )]
            let v = sample(sx, sy).round().clamp(0.0, 255.0) as u8;
            out.put_pixel(x, y, image::Luma([v]));
        }
    }
    out
}

/// The most common brightness among the lighter half: the paper or screen.
fn background(gray: &GrayImage) -> u8 {
    let mut hist = [0u64; 256];
    for &p in gray.as_raw() {
        hist[usize::from(p)] += 1;
    }
    (128..256)
        .max_by_key(|&i| hist[i])
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(255)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// White page with dark horizontal bars like lines of text.
    pub(crate) fn striped(w: u32, h: u32) -> GrayImage {
        GrayImage::from_fn(w, h, |x, y| {
            let in_line = (y / 20) % 2 == 1 && x > w / 10 && x < w * 9 / 10 && (x / 7) % 3 != 0;
            image::Luma([if in_line { 20 } else { 240 }])
        })
    }

    #[test]
    fn flat_page_has_no_skew() {
        assert!(estimate_skew(&striped(400, 600)).abs() < 0.3);
    }

    #[test]
    fn finds_applied_skew() {
        let slanted = rotate(&striped(400, 600), 3.0);
        let found = estimate_skew(&slanted);
        assert!((found.abs() - 3.0).abs() < 0.6, "found {found}");
        let straightened = rotate(&slanted, -found);
        assert!(estimate_skew(&straightened).abs() < 0.6);
    }

    #[test]
    fn downscale_averages() {
        let img = GrayImage::from_fn(4, 4, |x, _| image::Luma([if x < 2 { 0 } else { 200 }]));
        let small = downscale(&img, 0.5);
        assert_eq!(small.dimensions(), (2, 2));
        assert_eq!(small.get_pixel(0, 0).0[0], 0);
        assert_eq!(small.get_pixel(1, 1).0[0], 200);
    }

    #[test]
    fn dark_mode_is_inverted() {
        let dark = DynamicImage::ImageLuma8(GrayImage::from_pixel(50, 100, image::Luma([10])));
        let out = prepare(&dark, &Prep::default());
        assert!(out.get_pixel(0, 0).0[0] >= 245);
    }
}
