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
    let mut painted = 0;
    for stroke in &strokes {
        for &i in stroke {
            mask_paint(gray, &mask, i);
            painted += 1;
        }
    }
    painted
}

/// Whether each pixel (row-major) of raw RGB or RGBA bytes is pen-coloured.
fn pen_mask(raw: &[u8], channels: usize) -> Vec<bool> {
    raw.chunks_exact(channels)
        .map(|p| {
            let (r, g, b) = (p[0], p[1], p[2]);
            r.max(g).max(b) - r.min(g).min(b) >= MIN_SPREAD
        })
        .collect()
}

/// The pixel indices of each pen-coloured shape that is a stroke: 8-connected,
/// spanning at least a quarter of the width or height, and thin.
fn strokes(mask: &[bool], width: u32) -> Vec<Vec<usize>> {
    let min_span = (width / MIN_SPAN_OF_WIDTH) as usize;
    crate::shapes::shapes(mask, width as usize)
        .into_iter()
        .filter(|shape| {
            let area = (shape.width() * shape.height()) as u64;
            let thin = (shape.pixels.len() as u64) * 100 <= area * MAX_FILL_PERCENT;
            shape.width().max(shape.height()) >= min_span && thin
        })
        .map(|shape| shape.pixels)
        .collect()
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

    /// A white page with black text bars and a red ring round one of them.
    fn annotated() -> RgbImage {
        let mut img = RgbImage::from_pixel(400, 300, Rgb([255, 255, 255]));
        for x in 150..250 {
            for y in 140..160 {
                img.put_pixel(x, y, Rgb([20, 20, 20]));
            }
        }
        // A small red glyph (a discount) that must stay.
        for x in 20..30 {
            for y in 20..40 {
                img.put_pixel(x, y, Rgb([230, 0, 18]));
            }
        }
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

    #[test]
    fn a_grey_image_has_no_strokes() {
        let image = DynamicImage::ImageLuma8(GrayImage::from_pixel(50, 50, image::Luma([200])));
        let mut gray = image.to_luma8();
        assert_eq!(erase(&image, &mut gray), 0);
    }
}
