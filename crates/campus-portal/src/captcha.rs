//! The login captcha: four digits drawn into a small PNG with noise lines and dots, like the
//! images of real campus login pages (readable by a person, not a plain text a script copies).

use std::io::Cursor;

use image::{ImageFormat, Rgb, RgbImage};

use crate::random::Rng;

const WIDTH: u32 = 100;
const HEIGHT: u32 = 40;
/// Each font cell becomes a block of this many pixels across and down.
const SCALE_X: u32 = 3;
const SCALE_Y: u32 = 4;

/// 5×7 bitmaps of the digits, one row per byte, the bit 0b10000 leftmost.
const DIGITS: [[u8; 7]; 10] = [
    [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
    [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
    [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
    [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
    [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
    [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
    [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
    [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
    [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
    [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
];

/// A new random code of four digits.
pub(crate) fn new_code(rng: &mut Rng) -> String {
    (0..4)
        .map(|_| char::from(b'0' + u8::try_from(rng.below(10)).unwrap_or(0)))
        .collect()
}

/// The code drawn as a PNG.
pub(crate) fn render_png(code: &str, rng: &mut Rng) -> Result<Vec<u8>, image::ImageError> {
    let background = Rgb([
        light(rng.below(24)),
        light(rng.below(24)),
        light(rng.below(24)),
    ]);
    let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, background);
    for (index, digit) in code.bytes().enumerate() {
        let Some(glyph) = digit
            .checked_sub(b'0')
            .and_then(|d| DIGITS.get(usize::from(d)))
        else {
            continue;
        };
        let slot = u32::try_from(index).unwrap_or(0);
        let x = 8 + slot * 22 + rng.below(5);
        let y = 3 + rng.below(8);
        draw_glyph(&mut img, glyph, (x, y), dark(rng));
    }
    for _ in 0..4 {
        let from = (rng.below(WIDTH), rng.below(HEIGHT));
        let to = (rng.below(WIDTH), rng.below(HEIGHT));
        draw_line(&mut img, from, to, dark(rng));
    }
    for _ in 0..80 {
        let colour = dark(rng);
        img.put_pixel(rng.below(WIDTH), rng.below(HEIGHT), colour);
    }
    let mut png = Vec::new();
    img.write_to(&mut Cursor::new(&mut png), ImageFormat::Png)?;
    Ok(png)
}

fn light(jitter: u32) -> u8 {
    u8::try_from(230 + jitter).unwrap_or(u8::MAX)
}

fn dark(rng: &mut Rng) -> Rgb<u8> {
    let channel = |rng: &mut Rng| u8::try_from(rng.below(120)).unwrap_or(0);
    Rgb([channel(rng), channel(rng), channel(rng)])
}

fn draw_glyph(img: &mut RgbImage, glyph: &[u8; 7], (x, y): (u32, u32), colour: Rgb<u8>) {
    for (row, bits) in (0_u32..).zip(glyph) {
        for column in 0..5_u32 {
            if bits & (0x10 >> column) == 0 {
                continue;
            }
            for dy in 0..SCALE_Y {
                for dx in 0..SCALE_X {
                    let (px, py) = (x + column * SCALE_X + dx, y + row * SCALE_Y + dy);
                    if px < WIDTH && py < HEIGHT {
                        img.put_pixel(px, py, colour);
                    }
                }
            }
        }
    }
}

/// Bresenham's line, one pixel wide so the digits stay legible under it.
fn draw_line(img: &mut RgbImage, from: (u32, u32), to: (u32, u32), colour: Rgb<u8>) {
    let (mut x, mut y) = (i64::from(from.0), i64::from(from.1));
    let (x1, y1) = (i64::from(to.0), i64::from(to.1));
    let (dx, dy) = ((x1 - x).abs(), -(y1 - y).abs());
    let (sx, sy) = (if x < x1 { 1 } else { -1 }, if y < y1 { 1 } else { -1 });
    let mut error = dx + dy;
    loop {
        if let (Ok(px), Ok(py)) = (u32::try_from(x), u32::try_from(y))
            && px < WIDTH
            && py < HEIGHT
        {
            img.put_pixel(px, py, colour);
        }
        if x == x1 && y == y1 {
            break;
        }
        let doubled = 2 * error;
        if doubled >= dy {
            error += dy;
            x += sx;
        }
        if doubled <= dx {
            error += dx;
            y += sy;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_four_digits() {
        let mut rng = Rng::from_os();
        let code = new_code(&mut rng);
        assert_eq!(code.len(), 4);
        assert!(code.bytes().all(|b| b.is_ascii_digit()));
    }

    #[test]
    fn renders_a_png_of_the_stated_size() {
        let png = render_png("0123", &mut Rng::from_os()).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        let img = image::load_from_memory(&png).unwrap();
        assert_eq!((img.width(), img.height()), (WIDTH, HEIGHT));
    }
}
