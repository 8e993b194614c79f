//! Image preparation before OCR: decode (honouring EXIF orientation),
//! greyscale, dark mode inverted, scaled so text has the size tesseract
//! reads best, and straightened when photographed at a slant.

use std::path::Path;

use image::{DynamicImage, GrayImage, ImageDecoder, ImageReader};

use crate::error::PaymentsError;

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

/// Reads an image file, applying its EXIF orientation (phone photos).
pub fn load(path: &Path) -> Result<DynamicImage, PaymentsError> {
    let image_err = |message: String| PaymentsError::Image {
        path: path.to_path_buf(),
        message,
    };
    let reader = ImageReader::open(path)
        .map_err(|source| PaymentsError::Io {
            path: path.to_path_buf(),
            source,
        })?
        .with_guessed_format()
        .map_err(|source| PaymentsError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| image_err(e.to_string()))?;
    let orientation = decoder
        .orientation()
        .map_err(|e| image_err(e.to_string()))?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(|e| image_err(e.to_string()))?;
    image.apply_orientation(orientation);
    Ok(image)
}

/// Greyscale, inverted if dark, scaled, straightened.
pub fn prepare(image: &DynamicImage, prep: &Prep) -> GrayImage {
    let mut gray = image.to_luma8();
    if is_dark(&gray) {
        image::imageops::invert(&mut gray);
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
    // Row bands are only clean on screens, not on photos.
    if prep.shrink_big_text && screen {
        shrink_big_bands(&mut out);
    }
    out
}

/// A horizontal band of rows that hold text (or an icon).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Band {
    pub top: u32,
    /// Exclusive.
    pub bottom: u32,
    pub left: u32,
    /// Exclusive.
    pub right: u32,
    /// The band's background value.
    pub background: u8,
}

impl Band {
    pub fn height(&self) -> u32 {
        self.bottom - self.top
    }
}

/// Most common value of a row (its background), from a sample.
fn row_background(gray: &GrayImage, y: u32) -> u8 {
    let mut hist = [0u32; 256];
    let w = gray.width();
    let step = (w / 160).max(1);
    let mut x = 0;
    while x < w {
        hist[usize::from(gray.get_pixel(x, y).0[0])] += 1;
        x += step;
    }
    (0..256usize)
        .max_by_key(|&i| hist[i])
        .and_then(|i| u8::try_from(i).ok())
        .unwrap_or(255)
}

/// Splits the page into bands of rows that differ from their background,
/// separated by plain rows.
pub fn text_bands(gray: &GrayImage) -> Vec<Band> {
    let (w, h) = gray.dimensions();
    let mut bands = Vec::new();
    let mut current: Option<Band> = None;
    for y in 0..h {
        let bg = row_background(gray, y);
        let (mut left, mut right, mut ink) = (w, 0, 0u32);
        for x in 0..w {
            let p = gray.get_pixel(x, y).0[0];
            if p.abs_diff(bg) > 60 {
                ink += 1;
                left = left.min(x);
                right = right.max(x + 1);
            }
        }
        // A full-width rule or an edge of a coloured panel is no text.
        let is_text = ink >= 2 && ink * 10 < w * 9;
        match (&mut current, is_text) {
            (Some(b), true) => {
                b.bottom = y + 1;
                b.left = b.left.min(left);
                b.right = b.right.max(right);
            }
            (None, true) => {
                current = Some(Band {
                    top: y,
                    bottom: y + 1,
                    left,
                    right,
                    background: bg,
                });
            }
            (Some(_), false) => {
                if let Some(b) = current.take() {
                    bands.push(b);
                }
            }
            (None, false) => {}
        }
    }
    bands.extend(current);
    bands.retain(|b| b.height() >= 4 && b.right > b.left);
    bands
}

/// Shrinks bands much taller than the body text (headline amounts, big
/// titles) in place, centred where they were.
fn shrink_big_bands(gray: &mut GrayImage) {
    let bands = text_bands(gray);
    let mut heights: Vec<u32> = bands.iter().map(Band::height).filter(|&h| h >= 8).collect();
    if heights.len() < 4 {
        return;
    }
    heights.sort_unstable();
    let body = heights[heights.len() / 2];
    for band in bands {
        if band.height() * 10 < body * 17 {
            continue;
        }
        // Wide bands of that height are pictures or panels, not a line.
        let width = band.right - band.left;
        if width > gray.width() * 95 / 100 {
            continue;
        }
        let factor = f64::from(body) * 1.25 / f64::from(band.height());
        let crop =
            image::imageops::crop_imm(gray, band.left, band.top, width, band.height()).to_image();
        let small = downscale(&crop, factor);
        for y in band.top..band.bottom {
            for x in band.left..band.right {
                gray.put_pixel(x, y, image::Luma([band.background]));
            }
        }
        let x = band.left + (width - small.width()) / 2;
        let y = band.top + (band.height() - small.height()) / 2;
        image::imageops::replace(gray, &small, i64::from(x), i64::from(y));
    }
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
    let mut points: Vec<(f64, f64)> = Vec::new();
    let step = ((u64::from(w) * u64::from(h)) / 400_000).max(1);
    let step = u32::try_from(step).unwrap_or(1);
    let mut y = 0;
    while y < h {
        let mut x = 0;
        while x < w {
            if gray.get_pixel(x, y).0[0] < threshold {
                points.push((f64::from(x), f64::from(y)));
            }
            x += step;
        }
        y += step;
    }
    if points.len() < 200 {
        return 0.0;
    }
    let cx = f64::from(w) / 2.0;
    let score = |deg: f64| -> f64 {
        let (s, c) = deg.to_radians().sin_cos();
        let rows = usize::try_from(h).unwrap_or(0) * 2 + 8;
        let mut bins = vec![0u32; rows];
        for &(x, y) in &points {
            let ry = y * c - (x - cx) * s + f64::from(h) / 2.0;
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "clamped to the bin range"
            )]
            let bin = ry.clamp(0.0, (rows - 1) as f64) as usize;
            bins[bin] += 1;
        }
        bins.iter().map(|&b| f64::from(b) * f64::from(b)).sum()
    };
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

/// Otsu's threshold of the image.
fn otsu(gray: &GrayImage) -> u8 {
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
mod tests {
    use super::*;

    /// White page with dark horizontal bars like lines of text.
    fn striped(w: u32, h: u32) -> GrayImage {
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
    fn bands_and_shrinking() {
        // Three thin lines and one four times as tall.
        let mut img = GrayImage::from_pixel(200, 400, image::Luma([255]));
        for (top, height) in [(20u32, 10u32), (60, 10), (100, 40), (200, 10), (240, 10)] {
            for y in top..top + height {
                for x in 40..120 {
                    if x % 3 != 0 {
                        img.put_pixel(x, y, image::Luma([0]));
                    }
                }
            }
        }
        let bands = text_bands(&img);
        assert_eq!(bands.len(), 5);
        assert_eq!((bands[2].top, bands[2].height()), (100, 40));
        shrink_big_bands(&mut img);
        let after = text_bands(&img);
        assert!(after[2].height() <= 14, "{:?}", after[2]);
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
        assert_eq!(out.get_pixel(0, 0).0[0], 245);
    }
}
