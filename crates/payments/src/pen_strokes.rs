//! Pen strokes a user drew over a screenshot before sending it (a red circle
//! round the amount, an arrow pointing at it): found as big, thin, strongly
//! coloured shapes and painted over with the background beside them.
//!
//! Tesseract takes a line inside a drawn circle for part of a picture and
//! drops it; the strokes are the only coloured pixels that are both long
//! and thin. A glyph, an icon or a logo is small; a coloured card or button
//! is filled; so neither is touched.

use image::{DynamicImage, GrayImage};

/// A pixel is pen-coloured when its channels spread this much (a red pen's
/// `(239, 68, 68)` spreads 171; grey text and white paper spread < 20).
const MIN_SPREAD: u8 = 90;

/// A stroke spans at least this share of the image width…
const MIN_SPAN_OF_WIDTH: u32 = 4;

/// …and covers at most this share (in percent) of its bounding box.
const MAX_FILL_PERCENT: u64 = 20;

/// A shorter mark (a small ring round the amount, a short arrow: 180–290 px
/// on 1080–1242 px wide screenshots) spans at least this share of the
/// width: more than a glyph (a 44 px amount's digits at device scale 3 are
/// about 100 px high, a width's tenth)…
const MIN_MARK_SPAN_OF_WIDTH: u32 = 8;

/// …covers at most this share (in percent) of its bounding box (a thick
/// pen's ring 28 %, a bold digit 40 % and more)…
const MAX_MARK_FILL_PERCENT: u64 = 35;

/// …is this many times longer than thick (rings and arrows 13–22; a
/// glyph 3–9, a filled badge 3)…
const MIN_MARK_LENGTH_PER_THICKNESS: usize = 11;

/// …and at least this thick: a pen (6–15 px, 9 on a 720 px copy), not an
/// outlined button's hairline (3 px), whose erasing moved the page's lines
/// about and cost a card row its last four.
const MIN_MARK_THICKNESS: usize = 5;

/// How far (in pixels) a stroke's tinted rim reaches…
const HALO_REACH: usize = 3;

/// …and how much its channels spread at least.
const MIN_HALO_SPREAD: u8 = 30;

/// Paints the pen strokes of `image` out of `gray` (its grey copy, the same
/// size); returns how many pixels it painted.
pub fn erase(image: &DynamicImage, gray: &mut GrayImage) -> usize {
    // Read in place: a copy of a phone screenshot costs more than the rest.
    let (raw, channels) = match image {
        DynamicImage::ImageRgb8(rgb) => (rgb.as_raw(), 3),
        DynamicImage::ImageRgba8(rgba) => (rgba.as_raw(), 4),
        _ => return 0,
    };
    if (image.width(), image.height()) != gray.dimensions() {
        return 0;
    }
    let mask = pen_mask(raw, channels);
    if !mask.iter().any(|&pen| pen) {
        return 0;
    }
    let strokes = strokes(&mask, image.width());
    if strokes.is_empty() {
        return 0;
    }
    let mut stroke_mask = vec![false; mask.len()];
    for &i in strokes.iter().flatten() {
        stroke_mask[i] = true;
    }
    let painted = with_halo(raw, channels, stroke_mask, image.width() as usize);
    // The background beside a pixel is what is neither pen nor painted; a
    // painted pixel is never another's background, so the order is free.
    let covered: Vec<bool> = mask.iter().zip(&painted).map(|(&a, &b)| a || b).collect();
    let mut count = 0;
    for i in (0..painted.len()).filter(|&i| painted[i]) {
        mask_paint(gray, &covered, i);
        count += 1;
    }
    count
}

/// The strokes' pixels and their tinted rim: pixels within [`HALO_REACH`]
/// of them whose channels still spread [`MIN_HALO_SPREAD`] (anti-aliasing,
/// and a shrunk JPEG's smeared colour: a 720 px copy's ring left a grey
/// ring behind that read as ink round the amount). Grey text and paper
/// spread less.
fn with_halo(raw: &[u8], channels: usize, stroke: Vec<bool>, width: usize) -> Vec<bool> {
    let spread = |i: usize| spread(&raw[i * channels..i * channels + 3]);
    let mut frontier: Vec<usize> = (0..stroke.len()).filter(|&i| stroke[i]).collect();
    let height = stroke.len() / width.max(1);
    let mut grown = stroke;
    for _ in 0..HALO_REACH {
        let mut next = Vec::new();
        for &i in &frontier {
            let (x, y) = (i % width, i / width);
            for ny in y.saturating_sub(1)..=(y + 1).min(height - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(width - 1) {
                    let j = ny * width + nx;
                    if !grown[j] && spread(j) >= MIN_HALO_SPREAD {
                        grown[j] = true;
                        next.push(j);
                    }
                }
            }
        }
        frontier = next;
    }
    grown
}

/// Whether each pixel (row-major) of raw RGB or RGBA bytes is pen-coloured.
fn pen_mask(raw: &[u8], channels: usize) -> Vec<bool> {
    raw.chunks_exact(channels)
        .map(|p| spread(p) >= MIN_SPREAD)
        .collect()
}

/// How far apart a pixel's colour channels lie (its first three bytes).
fn spread(p: &[u8]) -> u8 {
    let (r, g, b) = (p[0], p[1], p[2]);
    r.max(g).max(b) - r.min(g).min(b)
}

/// The pixel indices of each pen-coloured shape that is a stroke: 8-connected,
/// spanning at least a quarter of the width or height and thin, or a shorter
/// mark far longer than thick (see [`MIN_MARK_SPAN_OF_WIDTH`]).
fn strokes(mask: &[bool], width: u32) -> Vec<Vec<usize>> {
    let min_span = (width / MIN_SPAN_OF_WIDTH) as usize;
    let min_mark_span = (width / MIN_MARK_SPAN_OF_WIDTH) as usize;
    crate::shapes::shapes(mask, width as usize)
        .into_iter()
        .filter(|shape| {
            let area = (shape.width() * shape.height()) as u64;
            let ink = shape.pixels.len() as u64;
            let span = shape.width().max(shape.height());
            let long_and_thin = span >= min_span && ink * 100 <= area * MAX_FILL_PERCENT;
            let mark = span >= min_mark_span && ink * 100 <= area * MAX_MARK_FILL_PERCENT && {
                let thick = thickness(shape, mask, width as usize);
                thick >= MIN_MARK_THICKNESS && span >= MIN_MARK_LENGTH_PER_THICKNESS * thick
            };
            long_and_thin || mark
        })
        .map(|shape| shape.pixels)
        .collect()
}

/// A shape's mean stroke thickness in pixels, rounded up: a stroke `t`
/// thick and `l` long has `t·l` pixels and about `2·l` on its edge (with a
/// pen-coloured neighbour missing above, below, left or right).
fn thickness(shape: &crate::shapes::Shape, mask: &[bool], width: usize) -> usize {
    let inside = |i: usize, dx: isize, dy: isize| {
        let (x, y) = ((i % width) as isize + dx, (i / width) as isize + dy);
        x >= 0
            && (x as usize) < width
            && y >= 0
            && mask.get(y as usize * width + x as usize) == Some(&true)
    };
    let edge = shape
        .pixels
        .iter()
        .filter(|&&i| !(inside(i, -1, 0) && inside(i, 1, 0) && inside(i, 0, -1) && inside(i, 0, 1)))
        .count();
    (2 * shape.pixels.len()).div_ceil(edge.max(1))
}

/// Paints pixel `i` with the nearest pixels left and right of it that are
/// not pen-coloured (the background a stroke crosses), averaged.
fn mask_paint(gray: &mut GrayImage, mask: &[bool], i: usize) {
    let w = gray.width() as usize;
    let (x, y) = (i % w, i / w);
    let row = y * w;
    let left = (0..x).rev().find(|&nx| !mask[row + nx]);
    let right = (x + 1..w).find(|&nx| !mask[row + nx]);
    let value = |nx: usize| u32::from(gray.as_raw()[row + nx]);
    let paint = match (left, right) {
        (Some(l), Some(r)) => (value(l) + value(r)) / 2,
        (Some(n), None) | (None, Some(n)) => value(n),
        (None, None) => 255,
    };
    let paint = u8::try_from(paint).unwrap_or(u8::MAX);
    let (px, py) = (x as u32, y as u32);
    gray.put_pixel(px, py, image::Luma([paint]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage};

    /// Paints the rectangle `xs` × `ys` of `img` with `colour`.
    fn fill(
        img: &mut RgbImage,
        xs: std::ops::Range<u32>,
        ys: std::ops::Range<u32>,
        colour: [u8; 3],
    ) {
        for x in xs {
            for y in ys.clone() {
                img.put_pixel(x, y, Rgb(colour));
            }
        }
    }

    /// A white page with black text bars and a red ring round one of them.
    fn annotated() -> RgbImage {
        let mut img = RgbImage::from_pixel(400, 300, Rgb([255, 255, 255]));
        fill(&mut img, 150..250, 140..160, [20, 20, 20]);
        // A small red glyph (a discount) that must stay.
        fill(&mut img, 20..30, 20..40, [230, 0, 18]);
        for step in 0..2000 {
            let t = f64::from(step) / 2000.0 * std::f64::consts::TAU;
            for d in 0..3 {
                let rx = 150.0 + f64::from(d);
                let x = (200.0 + rx * t.cos()) as u32;
                let y = (150.0 + 40.0 * t.sin()) as u32;
                img.put_pixel(x.min(399), y.min(299), Rgb([239, 68, 68]));
            }
        }
        img
    }

    #[test]
    fn a_drawn_ring_is_painted_out_and_text_and_glyphs_stay() {
        let image = DynamicImage::ImageRgb8(annotated());
        let mut gray = image.to_luma8();
        let painted = erase(&image, &mut gray);
        assert!(painted > 500, "painted {painted}");
        // The ring's pixels are white again; the text bar and the red
        // glyph are as they were.
        assert_eq!(gray.get_pixel(350, 150).0[0], 255);
        assert!(gray.get_pixel(200, 150).0[0] < 40);
        assert!(gray.get_pixel(25, 30).0[0] < 120);
    }

    /// A white page with a short red ring (a fifth of the width, 6 px
    /// thick) round a black bar, and a big bold red glyph.
    fn small_ring_and_bold_glyph() -> RgbImage {
        let mut img = RgbImage::from_pixel(1000, 400, Rgb([255, 255, 255]));
        fill(&mut img, 440..560, 185..215, [20, 20, 20]);
        for step in 0..4000 {
            let t = f64::from(step) / 4000.0 * std::f64::consts::TAU;
            // A pale rim each side, as anti-aliasing and JPEG leave.
            for d in -1..7 {
                let x = (500.0 + (100.0 + f64::from(d)) * t.cos()) as u32;
                let y = (200.0 + (45.0 + f64::from(d)) * t.sin()) as u32;
                let rim = d == -1 || d == 6;
                let colour = if rim { [228, 178, 178] } else { [239, 68, 68] };
                img.put_pixel(x, y, Rgb(colour));
            }
        }
        // A big bold `7`, longer than a mark's least span but stout: a
        // 20 px bar and stem, 130 px high.
        fill(&mut img, 50..130, 100..120, [230, 0, 18]);
        fill(&mut img, 110..130, 100..230, [230, 0, 18]);
        img
    }

    #[test]
    fn a_short_ring_is_painted_out_and_a_bold_red_glyph_stays() {
        let image = DynamicImage::ImageRgb8(small_ring_and_bold_glyph());
        let mut gray = image.to_luma8();
        erase(&image, &mut gray);
        // Right edge of the ring and its rims, the bar inside, the glyph's stem.
        assert_eq!(gray.get_pixel(602, 200).0[0], 255);
        assert_eq!(gray.get_pixel(599, 200).0[0], 255);
        assert_eq!(gray.get_pixel(606, 200).0[0], 255);
        assert!(gray.get_pixel(500, 200).0[0] < 40);
        assert!(gray.get_pixel(120, 200).0[0] < 120);
    }

    #[test]
    fn an_outlined_button_s_hairline_is_no_mark() {
        // A 3 px green outline, 220 x 80, on a 1000 px wide page.
        let mut img = RgbImage::from_pixel(1000, 400, Rgb([255, 255, 255]));
        let green = [7, 193, 96];
        fill(&mut img, 300..520, 100..103, green);
        fill(&mut img, 300..520, 177..180, green);
        fill(&mut img, 300..303, 100..180, green);
        fill(&mut img, 517..520, 100..180, green);
        let image = DynamicImage::ImageRgb8(img);
        let mut gray = image.to_luma8();
        assert_eq!(erase(&image, &mut gray), 0);
    }

    #[test]
    fn a_grey_image_has_no_strokes() {
        let image = DynamicImage::ImageLuma8(GrayImage::from_pixel(50, 50, image::Luma([200])));
        let mut gray = image.to_luma8();
        assert_eq!(erase(&image, &mut gray), 0);
    }
}
