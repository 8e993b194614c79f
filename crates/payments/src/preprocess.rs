//! Image preparation before OCR: decode (honouring EXIF orientation),
//! greyscale, dark mode inverted, scaled so text has the size tesseract
//! reads best, and straightened when photographed at a slant.

use std::path::Path;

use image::{DynamicImage, GrayImage, ImageDecoder, ImageReader};

use crate::bands::Band;
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
    if prep.deskew && (is_photo(&gray) || is_slanted(&gray)) {
        return Prepared {
            gray: prepare_photo(&gray, prep),
            photo: true,
            big_lines: Vec::new(),
        };
    }
    let (gray, big_lines) = prepare_screen(gray, prep);
    Prepared {
        gray,
        photo: false,
        big_lines,
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
fn ink_points(gray: &GrayImage, threshold: u8, step: u32) -> Vec<(f64, f64)> {
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
struct Projection<'a> {
    points: &'a [(f64, f64)],
    cx: f64,
    origin_y: f64,
    offset: f64,
    bin_height: f64,
    bins: Vec<u32>,
}

impl Projection<'_> {
    /// How sharp the projection is at `deg`: the sum of squared bin counts.
    fn score(&mut self, deg: f64) -> f64 {
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

// ---------------------------------------------------------------------------
// Photos (a POS slip on a desk)

/// A photo has no flat background: no grey value covers more than a few
/// percent of it (paper grain, uneven light, JPEG noise), while a
/// screenshot's background covers a third or more, even after a chat app
/// re-compressed it.
pub fn is_photo(gray: &GrayImage) -> bool {
    let raw = gray.as_raw();
    if raw.len() < 40_000 {
        return false;
    }
    let step = (raw.len() / 60_000).max(1);
    let mut hist = [0u32; 256];
    let mut n = 0u32;
    for &p in raw.iter().step_by(step) {
        hist[usize::from(p)] += 1;
        n += 1;
    }
    let mode = hist.iter().copied().max().unwrap_or(0);
    mode * 100 < n * 12
}

/// Text clearly slanted (by a degree or more, and sharper so than level
/// by far more than a screenshot's icons and pictures ever make it, ~1%):
/// a photo, even of a slip on a plain desk. Judged on a copy at most 1000
/// px long (~12 ms).
fn is_slanted(gray: &GrayImage) -> bool {
    let (deg, gain) = skew_and_gain(&flattened_within(gray, 1000));
    deg.abs() >= 1.0 && gain >= 1.08
}

/// A photo: shrunk to at most `max_side`, its lighting evened out (shadows,
/// a lamp's gradient, a grey desk all become white paper), straightened,
/// cleared of the slip's edges and of rules, and scaled when its text is
/// very small or very big. It keeps its size otherwise: cropping to the
/// text or resampling it only changes which glyphs tesseract gets wrong.
fn prepare_photo(gray: &GrayImage, prep: &Prep) -> GrayImage {
    let flat = flattened_within(gray, prep.max_side);
    let angle = photo_skew(&flat);
    let mut straight = if angle.abs() >= 0.3 {
        rotate(&flat, -angle)
    } else {
        flat
    };
    let (w, h) = straight.dimensions();
    erase_long_runs(&mut straight, 170, (w.min(h) / 12).max(40));
    let Some(area) = text_area(&straight) else {
        return straight;
    };
    erase_thin_rules(&mut straight, &area);
    // Lines of ~16 to ~48 px read well as they are; smaller ones (a slip
    // far from the camera, a photo forwarded small) are enlarged, bigger
    // ones shrunk to save time.
    let factor = match area.line_height {
        line if line < 16 => 22.0 / f64::from(line),
        line if line > 48 => 32.0 / f64::from(line),
        _ => 1.0,
    };
    if factor > 1.0 {
        let factor = factor.min(2.0);
        let (nw, nh) = (scaled(w, factor), scaled(h, factor));
        image::imageops::resize(&straight, nw, nh, image::imageops::FilterType::CatmullRom)
    } else if factor < 1.0 {
        downscale(&straight, factor)
    } else {
        straight
    }
}

/// The image evened out ([`flatten_illumination`]), first shrunk to at
/// most `max_side` px when it is more than ~10% bigger.
fn flattened_within(gray: &GrayImage, max_side: u32) -> GrayImage {
    let (w, h) = gray.dimensions();
    let factor = f64::from(max_side) / f64::from(w.max(h).max(1));
    if factor < 0.9 {
        flatten_illumination(&downscale(gray, factor))
    } else {
        flatten_illumination(gray)
    }
}

/// Where the text of an evened-out, straight photo stands, and how tall
/// its lines are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextArea {
    pub left: u32,
    pub top: u32,
    /// Exclusive.
    pub right: u32,
    /// Exclusive.
    pub bottom: u32,
    /// Median height of the lines, in pixels.
    pub line_height: u32,
}

/// Finds the lines of text of an evened-out, straight photo: runs of rows
/// with ink, at least 6 px high (dotted rules are thinner). `None` when
/// there are too few lines to tell.
pub fn text_area(flat: &GrayImage) -> Option<TextArea> {
    let (w, h) = flat.dimensions();
    let width = w as usize;
    // Evened out, paper is near white and ink well below.
    let threshold = 170;
    // Ink per row, ignoring rows with a few specks (grain, a torn edge).
    let min_ink = (w / 150).max(3) as usize;
    let ink_rows: Vec<bool> = flat
        .as_raw()
        .chunks_exact(width)
        .map(|row| row.iter().filter(|&&p| p < threshold).count() >= min_ink)
        .collect();
    let mut lines: Vec<(usize, usize)> = Vec::new();
    let mut y = 0;
    while y < ink_rows.len() {
        let top = y;
        while y < ink_rows.len() && ink_rows[y] {
            y += 1;
        }
        let height = u32::try_from(y - top).unwrap_or(u32::MAX);
        if (6..=h / 8).contains(&height) {
            lines.push((top, y));
        }
        y += 1;
    }
    if lines.len() < 3 {
        return None;
    }
    let mut heights: Vec<usize> = lines.iter().map(|(t, b)| b - t).collect();
    heights.sort_unstable();
    let line_height = heights[heights.len() / 2];
    // Across: where the lines' ink is, columns with ink in at least two of
    // them (a speck of the desk beside one line is not text).
    let mut column_lines = vec![0u32; width];
    for &(top, bottom) in &lines {
        let mut seen = vec![false; width];
        for row in flat.as_raw()[top * width..bottom * width].chunks_exact(width) {
            for (x, &p) in row.iter().enumerate() {
                seen[x] |= p < threshold;
            }
        }
        for (c, s) in column_lines.iter_mut().zip(seen) {
            *c += u32::from(s);
        }
    }
    let left = column_lines.iter().position(|&c| c >= 2)?;
    let right = column_lines.iter().rposition(|&c| c >= 2)? + 1;
    let px = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
    Some(TextArea {
        left: px(left),
        top: px(lines[0].0),
        right: px(right),
        bottom: px(lines[lines.len() - 1].1),
        line_height: px(line_height),
    })
}

/// Slant of the text lines of an evened-out photo in degrees (as
/// `estimate_skew`): the rotation whose horizontal projection of ink is
/// sharpest, over ±8°. Ink is sampled every `step` pixels both ways and
/// projected into bins `step` rows high, so that the sampling grid itself
/// does not make 0° look sharpest.
pub fn photo_skew(flat: &GrayImage) -> f64 {
    skew_and_gain(flat).0
}

/// The slant (as [`photo_skew`]) and how much sharper the projection is at
/// that slant than level (1 when level is best).
pub fn skew_and_gain(flat: &GrayImage) -> (f64, f64) {
    let (w, h) = flat.dimensions();
    let threshold = otsu(flat).min(200);
    let area = f64::from(w) * f64::from(h);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a small positive step"
    )]
    let step = (area / 500_000.0).sqrt().ceil().max(1.0) as u32;
    let points = ink_points(flat, threshold, step);
    if points.len() < 200 {
        return (0.0, 1.0);
    }
    let mut projection = Projection {
        points: &points,
        cx: f64::from(w) / 2.0,
        origin_y: f64::from(h) / 2.0,
        offset: f64::from(h),
        bin_height: f64::from(step),
        bins: vec![0; (h as usize) * 2 / (step as usize) + 8],
    };
    let mut score = |deg: f64| projection.score(deg);
    let level = score(0.0);
    let mut best = (0.0, level);
    for i in -16..=16 {
        let deg = f64::from(i) * 0.5;
        let s = score(deg);
        if s > best.1 {
            best = (deg, s);
        }
    }
    let coarse = best.0;
    for i in -4..=4 {
        let deg = coarse + f64::from(i) * 0.1;
        let s = score(deg);
        if s > best.1 {
            best = (deg, s);
        }
    }
    (best.0, best.1 / level.max(1.0))
}

/// Divides each pixel by the local paper brightness (the brightest value
/// around it, smoothed), so the paper is white everywhere and ink keeps
/// its contrast in a shadow as in full light.
pub fn flatten_illumination(gray: &GrayImage) -> GrayImage {
    let (w, h) = gray.dimensions();
    let block = (w.max(h) / 80).clamp(8, 64);
    let (gw, gh) = (w.div_ceil(block) as usize, h.div_ceil(block) as usize);
    let mut grid = vec![0u8; gw * gh];
    for (y, row) in gray.as_raw().chunks_exact(w as usize).enumerate() {
        let cells = &mut grid[(y / block as usize) * gw..][..gw];
        for (x, &p) in row.iter().enumerate() {
            let cell = &mut cells[x / block as usize];
            *cell = (*cell).max(p);
        }
    }
    // A block inside a big bold glyph takes the paper around it; then
    // smooth the steps between blocks.
    let widened = filter3x3(&grid, gw, gh, |v| v.iter().copied().max().unwrap_or(0));
    let smooth = filter3x3(&widened, gw, gh, |v| {
        let sum: u32 = v.iter().map(|&p| u32::from(p)).sum();
        u8::try_from(sum / u32::try_from(v.len()).unwrap_or(1).max(1)).unwrap_or(u8::MAX)
    });
    // Where there is no paper within a cell of a pixel (a desk darker than
    // the paper beside it, the slip's shadow on it), it is no text: made
    // white rather than left as dark bands around the slip. Even the
    // boldest glyph leaves paper within a few cells.
    let cell = (block / 2).max(4) as usize;
    let (cw, ch) = ((w as usize).div_ceil(cell), (h as usize).div_ceil(cell));
    let mut cells = vec![0u8; cw * ch];
    for (y, row) in gray.as_raw().chunks_exact(w as usize).enumerate() {
        let line = &mut cells[(y / cell) * cw..][..cw];
        for (x, &p) in row.iter().enumerate() {
            let c = &mut line[x / cell];
            *c = (*c).max(p);
        }
    }
    let cells = filter3x3(&cells, cw, ch, |v| v.iter().copied().max().unwrap_or(0));
    // The paper brightness between block centres, bilinear: each row's
    // blend of two grid rows, then across with weights found once.
    let b = f64::from(block);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "clamped to the grid"
    )]
    let place = |v: usize, n: usize| -> (usize, usize, f32) {
        let g = ((v as f64 + 0.5) / b - 0.5).clamp(0.0, (n - 1) as f64);
        let lo = g.floor() as usize;
        (lo, (lo + 1).min(n - 1), (g - lo as f64) as f32)
    };
    let columns: Vec<(usize, usize, f32)> = (0..w as usize).map(|x| place(x, gw)).collect();
    let mut paper_row = vec![0f32; gw];
    let mut out = GrayImage::new(w, h);
    for (y, (src, dst)) in gray
        .as_raw()
        .chunks_exact(w as usize)
        .zip(out.chunks_exact_mut(w as usize))
        .enumerate()
    {
        let (y0, y1, fy) = place(y, gh);
        for (gx, v) in paper_row.iter_mut().enumerate() {
            let (top, bottom) = (
                f32::from(smooth[y0 * gw + gx]),
                f32::from(smooth[y1 * gw + gx]),
            );
            *v = top + (bottom - top) * fy;
        }
        let line = &cells[(y / cell) * cw..][..cw];
        for (x, (&p, d)) in src.iter().zip(dst.iter_mut()).enumerate() {
            let (x0, x1, fx) = columns[x];
            let paper = (paper_row[x0] + (paper_row[x1] - paper_row[x0]) * fx).max(1.0);
            *d = if f32::from(line[x / cell]) < paper * 0.72 {
                255
            } else {
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    reason = "clamped to the u8 range"
                )]
                let v = (f32::from(p) * 255.0 / paper).round().clamp(0.0, 255.0) as u8;
                v
            };
        }
    }
    out
}

/// Whitens dotted and dashed rules: bands of rows with any ink at all
/// (their paler fringe included) much thinner than a line of text
/// (`line_height`), many lines long. Tesseract merges a rule close above
/// a line with it and reads both as noise (`卡号 CARD NO` under
/// `·········` is lost). Pale text, whose darkest rows alone could look
/// that thin, is as tall as any line once its paler pixels count.
pub fn erase_thin_rules(img: &mut GrayImage, area: &TextArea) {
    let width = img.width() as usize;
    let min_ink = (width / 150).max(3);
    let thin = (area.line_height / 4).max(2) as usize + 2;
    let long = (area.line_height * 6) as usize;
    // Within the text's columns: the slip's edges and the shading along
    // them are no rows of the slip.
    let (left, right) = (area.left as usize, area.right as usize);
    let rows: Vec<Option<(usize, usize)>> = img
        .as_raw()
        .chunks_exact(width)
        .map(|row| {
            let text = &row[left..right];
            let faint = |p: &u8| *p < 225;
            let count = text.iter().filter(|p| faint(p)).count();
            let first = text.iter().position(faint)?;
            let last = text.iter().rposition(faint)?;
            (count >= min_ink).then_some((left + first, left + last))
        })
        .collect();
    let mut y = 0;
    while y < rows.len() {
        if rows[y].is_none() {
            y += 1;
            continue;
        }
        let top = y;
        let (mut first, mut last) = (usize::MAX, 0);
        while let Some(Some((f, l))) = rows.get(y) {
            first = first.min(*f);
            last = last.max(*l);
            y += 1;
        }
        // A rule has ink along its length (blurred dots an eighth of it,
        // dashes more); a band of paler grain between two lines has none.
        let ink = img.as_raw()[top * width..y * width]
            .chunks_exact(width)
            .map(|row| row[first..=last].iter().filter(|&&p| p < 170).count())
            .max()
            .unwrap_or(0);
        if y - top <= thin && last - first >= long && ink * 8 >= last - first {
            for row in img.as_mut()[top * width..y * width].chunks_exact_mut(width) {
                row[first..=last].iter_mut().for_each(|p| *p = 255);
            }
        }
    }
}

/// Whitens straight runs of ink longer than `min_len`, across or down: the
/// edges of a slip against a darker desk, rules and frames. No stroke of a
/// glyph is that long.
pub fn erase_long_runs(img: &mut GrayImage, ink_below: u8, min_len: u32) {
    let (w, h) = img.dimensions();
    let (w, h) = (w as usize, h as usize);
    let min_len = min_len as usize;
    let mut erase = vec![false; w * h];
    let raw = img.as_raw();
    let mut mark = |start: usize, len: usize, step: usize| {
        if len >= min_len {
            for k in 0..len {
                erase[start + k * step] = true;
            }
        }
    };
    for y in 0..h {
        let mut run = 0;
        for x in 0..=w {
            if x < w && raw[y * w + x] < ink_below {
                run += 1;
            } else {
                mark(y * w + x - run, run, 1);
                run = 0;
            }
        }
    }
    for x in 0..w {
        let mut run = 0;
        for y in 0..=h {
            if y < h && raw[y * w + x] < ink_below {
                run += 1;
            } else {
                mark((y - run) * w + x, run, w);
                run = 0;
            }
        }
    }
    for (p, e) in img.iter_mut().zip(erase) {
        if e {
            *p = 255;
        }
    }
}

/// Applies `f` to each cell's 3×3 neighbourhood (clipped at the edges).
fn filter3x3(grid: &[u8], gw: usize, gh: usize, f: impl Fn(&[u8]) -> u8) -> Vec<u8> {
    let mut out = vec![0u8; grid.len()];
    let mut near = Vec::with_capacity(9);
    for y in 0..gh {
        for x in 0..gw {
            near.clear();
            for ny in y.saturating_sub(1)..=(y + 1).min(gh - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(gw - 1) {
                    near.push(grid[ny * gw + nx]);
                }
            }
            out[y * gw + x] = f(&near);
        }
    }
    out
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

    /// Cheap deterministic noise in `-amp..=amp`.
    fn noise(x: u32, y: u32, amp: i32) -> i32 {
        let h = x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663);
        let h = h.wrapping_mul(2_654_435_761) >> 16;
        i32::try_from(h % (2 * amp.unsigned_abs() + 1)).unwrap_or(0) - amp
    }

    /// A photo of a slip: text lines (bars of glyph-like strokes) on paper
    /// lit from one side, a shadow over one corner, a dotted rule, grain.
    fn slip_photo(w: u32, h: u32) -> GrayImage {
        GrayImage::from_fn(w, h, |x, y| {
            let light = 235 - i32::try_from(x * 60 / w).unwrap_or(0);
            // A soft shadow over the top left corner.
            let shadow = (80 - i32::try_from((x + y) / 5).unwrap_or(80)).max(0);
            let line = (y / 18) % 2 == 1 && y > 40 && y < h - 40;
            let glyph = line && x > 40 && x < w - 40 && (x / 4) % 3 != 0 && (x / 30) % 5 != 4;
            let dotted = y == 28 && x > 40 && x < w - 40 && x % 6 < 2;
            let ink = if glyph || dotted { 150 } else { 0 };
            let v = light - shadow - ink + noise(x, y, 6);
            image::Luma([u8::try_from(v.clamp(0, 255)).unwrap_or(0)])
        })
    }

    #[test]
    fn photos_and_screenshots() {
        assert!(is_photo(&slip_photo(400, 600)));
        assert!(!is_photo(&striped(400, 600)));
        // A flat screenshot stays one even when tilted content is absent.
        assert!(!is_slanted(&striped(400, 600)));
    }

    #[test]
    fn lighting_is_evened_out() {
        let flat = flatten_illumination(&slip_photo(400, 600));
        // Paper in full light, in the shadow and at the dim side: near white.
        for (x, y) in [(380, 500), (20, 20), (20, 300)] {
            assert!(flat.get_pixel(x, y).0[0] >= 225, "paper at {x},{y}");
        }
        // Ink keeps its contrast in the shadow as in the light.
        let ink = |x, y| flat.get_pixel(x, y).0[0];
        assert!(ink(45, 55) < 150 && ink(345, 343) < 150);
    }

    #[test]
    fn photos_are_straightened() {
        let photo = rotate(&slip_photo(400, 600), 3.0);
        let found = photo_skew(&flatten_illumination(&photo));
        assert!((found - 3.0).abs() < 0.5, "found {found}");
        let prepared = prepare_image(&DynamicImage::ImageLuma8(photo), &Prep::default());
        assert!(prepared.photo);
        assert!(photo_skew(&prepared.gray).abs() < 0.5);
    }

    #[test]
    fn rules_are_erased_text_kept() {
        let mut flat = flatten_illumination(&slip_photo(400, 600));
        let area = text_area(&flat).expect("lines of text");
        assert!((16..=20).contains(&area.line_height), "{area:?}");
        erase_thin_rules(&mut flat, &area);
        let ink_in_row =
            |img: &GrayImage, y| (0..400).filter(|&x| img.get_pixel(x, y).0[0] < 170).count();
        assert_eq!(ink_in_row(&flat, 28), 0);
        assert!(ink_in_row(&flat, 60) > 100);
    }
}
