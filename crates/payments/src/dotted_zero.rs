//! Dotted zeros in a crop of digits: the dot inside a monospaced font's zero
//! (DejaVu Sans Mono's `0`) painted out, so the glyph reads as `0` and not
//! as `9` or `8`.
//!
//! The dot is an island: ink whose surrounding paper is a hole of another
//! glyph, not the paper around the line. No digit, star or sign has one, so
//! in a crop of a number only such dots are touched.

use image::GrayImage;

/// Grey level below which a pixel is ink (crops are dark text on light
/// paper).
const INK: u8 = 128;

/// An island is at most this share (in percent) of the crop's height: a dot,
/// not a glyph inside a box.
const MAX_ISLAND_PERCENT_OF_HEIGHT: usize = 30;

/// Paints the islands of `crop` with the paper around them; returns how
/// many it painted.
pub fn paint_out_dots(crop: &mut GrayImage) -> usize {
    let (w, h) = (crop.width() as usize, crop.height() as usize);
    if w < 3 || h < 3 {
        return 0;
    }
    let ink: Vec<bool> = crop.as_raw().iter().map(|&p| p < INK).collect();
    let outside = crate::shapes::reached_from_edges(&ink, w, h);
    let max_height = (h * MAX_ISLAND_PERCENT_OF_HEIGHT / 100).max(1);
    let mut painted = 0;
    for island in crate::shapes::shapes(&ink, w) {
        // Enclosed: no pixel of it touches the paper around the line.
        let enclosed = island.pixels.iter().all(|&i| {
            crate::shapes::neighbours4(i, w, h).all(|j| ink[j] || !outside[j])
                && i % w != 0
                && i % w != w - 1
        });
        if enclosed && island.bottom - island.top < max_height {
            // With the grey halo around the dot (paper of the hole darker
            // than the ink level, within two pixels): left, an upscaled
            // 720 px dot's halo still read as `9`.
            let pixels: &mut [u8] = crop;
            let mut halo: Vec<usize> = island.pixels.clone();
            for _ in 0..2 {
                let ring: Vec<usize> = halo
                    .iter()
                    .flat_map(|&i| crate::shapes::neighbours4(i, w, h))
                    .filter(|&j| !ink[j] && !outside[j])
                    .collect();
                halo.extend(ring);
            }
            for i in halo {
                pixels[i] = u8::MAX;
            }
            painted += 1;
        }
    }
    painted
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A ring (a zero) with a dot in it, and a bar (a `1`) beside it.
    fn zero_and_one() -> GrayImage {
        let mut img = GrayImage::from_pixel(40, 30, Luma([255]));
        for y in 5..25 {
            for x in 5..20 {
                let ring = !(8..22).contains(&y) || !(8..17).contains(&x);
                if ring {
                    img.put_pixel(x, y, Luma([0]));
                }
            }
        }
        for y in 13..17 {
            for x in 11..14 {
                img.put_pixel(x, y, Luma([0]));
            }
        }
        for y in 5..25 {
            for x in 28..31 {
                img.put_pixel(x, y, Luma([0]));
            }
        }
        img
    }

    #[test]
    fn the_dot_inside_a_zero_is_painted_out() {
        let mut img = zero_and_one();
        assert_eq!(paint_out_dots(&mut img), 1);
        assert_eq!(img.get_pixel(12, 15).0[0], 255);
        // The ring and the bar stay.
        assert_eq!(img.get_pixel(6, 15).0[0], 0);
        assert_eq!(img.get_pixel(29, 15).0[0], 0);
    }

    #[test]
    fn a_decimal_point_is_no_island() {
        let mut img = GrayImage::from_pixel(20, 20, Luma([255]));
        for y in 14..17 {
            for x in 8..11 {
                img.put_pixel(x, y, Luma([0]));
            }
        }
        assert_eq!(paint_out_dots(&mut img), 0);
    }
}
