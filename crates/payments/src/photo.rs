//! Photos (a POS slip on a desk): told from screenshots, their lighting
//! evened out, straightened, their rules erased and their text sized.

use image::GrayImage;

use crate::preprocess::{Prep, Projection, downscale, ink_points, otsu, rotate, scaled};

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
pub(crate) fn is_slanted(gray: &GrayImage) -> bool {
    let (deg, gain) = skew_and_gain(&flattened_within(gray, 1000));
    deg.abs() >= 1.0 && gain >= 1.08
}

/// A photo: shrunk to at most `max_side`, its lighting evened out (shadows,
/// a lamp's gradient, a grey desk all become white paper), the desk around
/// the slip whitened ([`crate::desk`]), straightened, cleared of the slip's
/// edges and of rules, and scaled when its text is very small or very big.
/// It keeps its size otherwise: cropping to the text or resampling it only
/// changes which glyphs tesseract gets wrong.
pub(crate) fn prepare_photo(gray: &GrayImage, prep: &Prep) -> GrayImage {
    let shrunk = within(gray, prep.max_side);
    let shrunk = shrunk.as_ref().unwrap_or(gray);
    let mut flat = flatten_illumination(shrunk);
    // Before the skew is judged: a desk's grain or pattern has lines of
    // its own.
    if let Some(mask) = crate::desk::paper_mask(shrunk) {
        mask.whiten_desk(&mut flat);
    }
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
    flatten_illumination(within(gray, max_side).as_ref().unwrap_or(gray))
}

/// The image shrunk to at most `max_side` px, when it is more than ~10%
/// bigger (`None`: use it as it is).
fn within(gray: &GrayImage, max_side: u32) -> Option<GrayImage> {
    let (w, h) = gray.dimensions();
    let factor = f64::from(max_side) / f64::from(w.max(h).max(1));
    (factor < 0.9).then(|| downscale(gray, factor))
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
    use crate::preprocess::prepare_image;
    use crate::preprocess::tests::striped;
    use image::DynamicImage;

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

    /// [`slip_photo`] lying on a dark grey perforated desk: darker holes,
    /// 8 px across, every 16 px, and grain.
    fn slip_on_perforated_desk() -> GrayImage {
        let slip = slip_photo(400, 600);
        GrayImage::from_fn(720, 1000, |x, y| {
            let (sx, sy) = (x.wrapping_sub(160), y.wrapping_sub(200));
            if sx < 400 && sy < 600 {
                *slip.get_pixel(sx, sy)
            } else {
                let hole = if x % 16 < 8 && y % 16 < 8 { 18 } else { 42 };
                let v = hole + noise(x, y, 5);
                image::Luma([u8::try_from(v).unwrap_or(0)])
            }
        })
    }

    #[test]
    fn a_patterned_desk_is_whitened_and_does_not_pass_for_small_text() {
        let photo = slip_on_perforated_desk();
        let prepared = prepare_image(&DynamicImage::ImageLuma8(photo), &Prep::default());
        assert!(prepared.photo);
        // Rows of holes taken for lines of small text would have the photo
        // enlarged (and read for seconds longer).
        assert_eq!(prepared.gray.dimensions(), (720, 1000));
        let ink = |x0: u32, x1: u32, y0: u32, y1: u32| {
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| prepared.gray.get_pixel(x, y).0[0] < 170)
                .count()
        };
        assert_eq!(ink(0, 720, 0, 150), 0, "the desk above the slip");
        assert_eq!(ink(0, 120, 0, 1000), 0, "the desk left of the slip");
        assert!(ink(200, 520, 250, 750) > 10_000, "the slip's text");
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
