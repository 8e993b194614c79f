//! A plus sign in front of an amount: a heavy `+` (a refund's `+2,352.51`
//! in a bold font) reads as the digit `4` to every reader, so its shape
//! decides.
//!
//! A plus is shorter than the digits and floats between their top and
//! bottom, as wide as it is high, with ink through its middle row and
//! middle column and none in its corners. A `4` spans the digits' full
//! height; a minus is much wider than high; `¥` reaches the digits' top.

use image::GrayImage;

use crate::shapes::{Shape, shapes};

/// Grey level below which a pixel is ink (crops are dark text on light
/// paper).
const INK: u8 = 128;

/// Whether the first glyph of `crop`, a row of a number (see
/// `recognize::crop_numbers`), is a plus sign.
pub fn leads_with_plus(crop: &GrayImage) -> bool {
    let width = crop.width() as usize;
    let ink: Vec<bool> = crop.as_raw().iter().map(|&p| p < INK).collect();
    let glyphs = shapes(&ink, width);
    let Some(tallest) = glyphs.iter().map(Shape::height).max() else {
        return false;
    };
    // Specks of noise are no glyph; a comma or point is never first.
    let mut glyphs: Vec<&Shape> = glyphs
        .iter()
        .filter(|g| g.height() * 4 >= tallest)
        .collect();
    glyphs.sort_by_key(|g| g.left);
    let digits: Vec<&&Shape> = glyphs
        .iter()
        .filter(|g| g.height() * 10 >= tallest * 8)
        .collect();
    let (Some(top), Some(bottom)) = (
        digits.iter().map(|g| g.top).min(),
        digits.iter().map(|g| g.bottom).max(),
    ) else {
        return false;
    };
    match glyphs.first() {
        Some(first) if digits.len() >= 2 => is_plus(first, &ink, width, top, bottom, tallest),
        _ => false,
    }
}

fn is_plus(
    g: &Shape,
    ink: &[bool],
    width: usize,
    digits_top: usize,
    digits_bottom: usize,
    tallest: usize,
) -> bool {
    let (w, h) = (g.width(), g.height());
    let margin = tallest / 10;
    // A bold sans plus may stand 0.83 of the digits' height and end just
    // above their baseline (`+150.63`); a `4`'s cross reaches their top.
    let sized =
        h * 10 >= tallest * 4 && h * 20 <= tallest * 17 && w * 10 >= h * 7 && w * 10 <= h * 14;
    let floats = g.top >= digits_top + margin && g.bottom + margin / 2 <= digits_bottom;
    if !sized || !floats {
        return false;
    }
    let at = |x: usize, y: usize| ink[y * width + x];
    let (mid_x, mid_y) = (g.left + w / 2, g.top + h / 2);
    let row = (g.left..=g.right).filter(|&x| at(x, mid_y)).count();
    let column = (g.top..=g.bottom).filter(|&y| at(mid_x, y)).count();
    // The four corner quarters-of-quarters hold no ink.
    let corner =
        |x0: usize, y0: usize| (y0..y0 + h / 4).any(|y| (x0..x0 + w / 4).any(|x| at(x, y)));
    let corners_empty = !corner(g.left, g.top)
        && !corner(g.right + 1 - w / 4, g.top)
        && !corner(g.left, g.bottom + 1 - h / 4)
        && !corner(g.right + 1 - w / 4, g.bottom + 1 - h / 4);
    row * 10 >= w * 9 && column * 10 >= h * 9 && corners_empty
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A white row with black rectangles `(left, top, width, height)`.
    fn row(rects: &[(u32, u32, u32, u32)]) -> GrayImage {
        let mut img = GrayImage::from_pixel(400, 100, Luma([255]));
        for &(x, y, w, h) in rects {
            for yy in y..y + h {
                for xx in x..x + w {
                    img.put_pixel(xx, yy, Luma([0]));
                }
            }
        }
        img
    }

    /// A digit-sized block (a stand-in for `2` or `3`) at `x`.
    fn digit(x: u32) -> (u32, u32, u32, u32) {
        (x, 20, 30, 60)
    }

    #[test]
    fn a_floating_cross_is_a_plus() {
        // Bars 36 px long and 8 px thick, centred on the digits' middle.
        let plus = [(20, 46, 36, 8), (34, 32, 8, 36)];
        let img = row(&[plus[0], plus[1], digit(70), digit(110)]);
        assert!(leads_with_plus(&img));
        // A bold plus 50 px high (of 60), ending 4 px above the baseline.
        let tall = [(20, 46, 50, 10), (40, 26, 10, 50)];
        let img = row(&[tall[0], tall[1], digit(80), digit(120)]);
        assert!(leads_with_plus(&img));
    }

    #[test]
    fn a_four_a_minus_and_a_full_height_sign_are_not() {
        // A `4`: the cross reaches the digits' full height.
        let four = row(&[(20, 56, 36, 8), (40, 20, 8, 60), digit(70), digit(110)]);
        assert!(!leads_with_plus(&four));
        let minus = row(&[(20, 46, 36, 8), digit(70), digit(110)]);
        assert!(!leads_with_plus(&minus));
        // A block as high as the digits (`¥`).
        let yuan = row(&[digit(20), digit(70), digit(110)]);
        assert!(!leads_with_plus(&yuan));
        // A filled square floating at the plus's place is no cross.
        let square = row(&[(20, 32, 36, 36), digit(70), digit(110)]);
        assert!(!leads_with_plus(&square));
    }
}
