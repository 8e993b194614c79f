//! A grey copy of a screenshot by colour distance from the page's
//! background, for text whose brightness is close to its background's
//! though its colour is not (a red amount on a black page).
//!
//! Brightness alone turns pure red on black into a mid grey that a page
//! threshold puts on the background's side, so OCR never sees the line.
//! Measured as how far each pixel's colour lies from the page's own colour
//! (the largest channel difference), any coloured or grey text on any page
//! comes out dark on white, as far from the page as its most distant
//! channel.

use image::{DynamicImage, GrayImage, Luma};

/// A pixel counts as hidden ink when its colour lies this much further from
/// the page than its brightness does (pure red on black: 255 against 76).
const HIDDEN_INK_GAIN: u8 = 80;

/// At least this many pixels per million must be hidden ink for the copy to
/// say anything brightness did not (a logo or a coloured icon is less).
const MIN_HIDDEN_PER_MILLION: u64 = 1_500;

/// The distance copy of `image`, or `None` when it shows nothing the
/// brightness copy does not (no text notably more distinct by colour than
/// by brightness).
pub fn distance_gray(image: &DynamicImage) -> Option<GrayImage> {
    let rgb = image.to_rgb8();
    let background = page_colour(&rgb)?;
    let background_luma = luma(background);
    let (w, h) = rgb.dimensions();
    let mut out = GrayImage::new(w, h);
    let mut hidden = 0u64;
    for (x, y, pixel) in rgb.enumerate_pixels() {
        let distance = channel_distance(pixel.0, background);
        let brightness_distance = luma(pixel.0).abs_diff(background_luma);
        if distance >= brightness_distance.saturating_add(HIDDEN_INK_GAIN) {
            hidden += 1;
        }
        out.put_pixel(x, y, Luma([255 - distance]));
    }
    let pixels = u64::from(w) * u64::from(h);
    (hidden * 1_000_000 >= pixels * MIN_HIDDEN_PER_MILLION).then_some(out)
}

/// The most common colour of a grid of samples (channels rounded to 8
/// levels), averaged over its samples: the page.
fn page_colour(rgb: &image::RgbImage) -> Option<[u8; 3]> {
    let (w, h) = rgb.dimensions();
    let step = ((u64::from(w) * u64::from(h) / 40_000).max(1) as f64).sqrt();
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a square root of a pixel count, far below u32::MAX"
    )]
    let step = (step.round() as u32).max(1);
    let mut bins: std::collections::HashMap<[u8; 3], (u64, [u64; 3])> =
        std::collections::HashMap::new();
    for y in (0..h).step_by(step as usize) {
        for x in (0..w).step_by(step as usize) {
            let p = rgb.get_pixel(x, y).0;
            let entry = bins.entry(p.map(|c| c >> 5)).or_insert((0, [0; 3]));
            entry.0 += 1;
            for (sum, c) in entry.1.iter_mut().zip(p) {
                *sum += u64::from(c);
            }
        }
    }
    let (count, sums) = bins.into_values().max_by_key(|(n, _)| *n)?;
    Some(sums.map(|s| u8::try_from(s / count.max(1)).unwrap_or(u8::MAX)))
}

/// The largest channel difference between two colours.
fn channel_distance(a: [u8; 3], b: [u8; 3]) -> u8 {
    a.iter()
        .zip(b)
        .map(|(&x, y)| x.abs_diff(y))
        .max()
        .unwrap_or(0)
}

/// Rec. 601 brightness, as `to_luma8` weighs it.
fn luma([r, g, b]: [u8; 3]) -> u8 {
    let value = (299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b)) / 1000;
    u8::try_from(value).unwrap_or(u8::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgb, RgbImage};

    fn page(background: [u8; 3], ink: [u8; 3]) -> DynamicImage {
        let mut img = RgbImage::from_pixel(200, 100, Rgb(background));
        for y in 40..60 {
            for x in 20..180 {
                if x % 4 != 0 {
                    img.put_pixel(x, y, Rgb(ink));
                }
            }
        }
        DynamicImage::ImageRgb8(img)
    }

    #[test]
    fn red_on_black_comes_out_black_on_white() {
        let gray = distance_gray(&page([0, 0, 0], [255, 0, 0])).expect("red text is hidden ink");
        assert_eq!(gray.get_pixel(5, 5).0[0], 255);
        assert_eq!(gray.get_pixel(21, 50).0[0], 0);
    }

    #[test]
    fn grey_text_adds_nothing() {
        assert!(distance_gray(&page([255, 255, 255], [90, 90, 90])).is_none());
        assert!(distance_gray(&page([18, 18, 18], [200, 200, 200])).is_none());
    }

    #[test]
    fn orange_on_white_is_hidden_ink() {
        // Brightness 138 on 255 (117 apart); colour 255 apart.
        assert!(distance_gray(&page([255, 255, 255], [255, 106, 0])).is_some());
    }
}
