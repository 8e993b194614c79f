//! Text detection (DBNet): the image scaled to [`LONG_SIDE`] on its longer side, or kept at
//! full size when small (see [`scale`]; sides multiples of 32), normalised to [-1, 1]; the
//! model's probability map thresholded, its connected regions scored, and each region's box
//! widened (the "unclip" of DB, which trains on shrunk boxes) and scaled back to the image.
//! Phone screens are level and their boxes axis aligned; a line at a slant (a photo of a slip)
//! keeps its angle, found from the region's second moments, and is cut out straightened for
//! recognition.

use crate::runtime::Input;

/// Longer side of the detection input, in pixels: phone text is large, and the model's time
/// grows with the area.
pub(crate) const LONG_SIDE: u32 = 960;
/// Images up to this long side are detected at full size.
pub(crate) const FULL_SIZE: u32 = 1800;

/// The factor a `w` × `h` image is scaled by for detection. A full phone screenshot (long side
/// over 1800 px) has large text and is detected at 960 px on its long side; a smaller image (a
/// photo of a slip, a screenshot forwarded at 720 px) is read at full size: reduced, its small
/// print's boxes lost their edges, and a slip's card number lost the digit after its stars (8
/// of 14 slips read whole at 960 px, 14 of 14 at full size).
pub fn scale(w: u32, h: u32) -> f32 {
    let long = w.max(h).max(1);
    if long <= FULL_SIZE {
        1.0
    } else {
        LONG_SIDE as f32 / long as f32
    }
}
/// Probability above which a map pixel is text.
const THRESHOLD: f32 = 0.3;
/// Mean probability a region needs to count.
const BOX_SCORE: f32 = 0.5;
/// How far a box is widened, as DB's unclip ratio (area × ratio / perimeter).
const UNCLIP: f32 = 1.6;
/// Regions smaller than this many map pixels are noise.
const MIN_PIXELS: usize = 3;

/// A box on the image, in pixels (right and bottom exclusive).
/// Slants below this (radians, about 0.8°) are read as level.
const LEVEL: f32 = 0.014;
/// Slants above this (about 15°) are not a line's: read as level.
const MAX_SLANT: f32 = 0.26;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextBox {
    /// The axis-aligned box around the line.
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
    /// A slanted line: centre, angle (radians, clockwise on the image), half length and half
    /// height in image pixels.
    pub slant: Option<Slant>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slant {
    pub cx: f32,
    pub cy: f32,
    pub angle: f32,
    pub half_len: f32,
    pub half_height: f32,
}

impl TextBox {
    pub(crate) fn ratio(&self) -> f32 {
        match self.slant {
            Some(s) => s.half_len / s.half_height.max(0.5),
            None => (self.x1 - self.x0) as f32 / (self.y1 - self.y0).max(1) as f32,
        }
    }

    /// The line's pixels, level: a crop, or for a slanted line its rectangle sampled
    /// straight (bilinear).
    pub(crate) fn cut(&self, image: &image::RgbImage) -> image::RgbImage {
        let Some(s) = self.slant else {
            return image::imageops::crop_imm(
                image,
                self.x0,
                self.y0,
                self.x1 - self.x0,
                self.y1 - self.y0,
            )
            .to_image();
        };
        let (w, h) = (
            (2.0 * s.half_len).round().max(1.0) as u32,
            (2.0 * s.half_height).round().max(1.0) as u32,
        );
        let (cos, sin) = (s.angle.cos(), s.angle.sin());
        image::RgbImage::from_fn(w, h, |u, v| {
            let (du, dv) = (u as f32 + 0.5 - s.half_len, v as f32 + 0.5 - s.half_height);
            let x = s.cx + du * cos - dv * sin;
            let y = s.cy + du * sin + dv * cos;
            bilinear(image, x - 0.5, y - 0.5)
        })
    }
}

fn bilinear(image: &image::RgbImage, x: f32, y: f32) -> image::Rgb<u8> {
    let (w, h) = image.dimensions();
    let x = x.clamp(0.0, (w - 1) as f32);
    let y = y.clamp(0.0, (h - 1) as f32);
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let p = |a: u32, b: u32| image.get_pixel(a, b).0;
    let (a, b, c, d) = (p(x0, y0), p(x1, y0), p(x0, y1), p(x1, y1));
    image::Rgb(std::array::from_fn(|k| {
        let top = f32::from(a[k]) * (1.0 - fx) + f32::from(b[k]) * fx;
        let bottom = f32::from(c[k]) * (1.0 - fx) + f32::from(d[k]) * fx;
        (top * (1.0 - fy) + bottom * fy).round().clamp(0.0, 255.0) as u8
    }))
}

/// The model input for `image`.
pub(crate) fn input(image: &image::RgbImage, long_side: Option<u32>) -> Input {
    let (w, h) = image.dimensions();
    let scale = long_side.map_or_else(
        || scale(w, h),
        |side| (side as f32 / w.max(h).max(1) as f32).min(1.0),
    );
    let side = |v: u32| (((v as f32 * scale) / 32.0).round().max(1.0) * 32.0) as u32;
    let (rw, rh) = (side(w), side(h));
    let small = image::imageops::resize(image, rw, rh, image::imageops::FilterType::Triangle);
    let mut input = Input::zeros([1, 3, rh as usize, rw as usize]);
    input.put_image(0, &small);
    input
}

/// The boxes of a probability map (`map_w` × `map_h`, row by row) on an image of
/// `image_w` × `image_h`, top to bottom and left to right.
pub(crate) fn boxes(
    map: &[f32],
    map_w: usize,
    map_h: usize,
    image_w: u32,
    image_h: u32,
) -> Vec<TextBox> {
    let mut seen = vec![false; map.len()];
    let mut out = Vec::new();
    let (sx, sy) = (image_w as f32 / map_w as f32, image_h as f32 / map_h as f32);
    for start in 0..map.len().min(map_w * map_h) {
        if seen[start] || map[start] <= THRESHOLD {
            continue;
        }
        let Region {
            x0,
            y0,
            x1,
            y1,
            sum,
            count,
            pixels,
        } = region(map, map_w, map_h, start, &mut seen);
        if count < MIN_PIXELS || sum / (count as f32) < BOX_SCORE {
            continue;
        }
        if let Some(b) = slanted(&pixels, sx, sy, image_w, image_h) {
            out.push(b);
            continue;
        }
        let (bw, bh) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
        let grow = bw * bh * UNCLIP / (2.0 * (bw + bh));
        let clamp = |v: f32, max: u32| v.clamp(0.0, max as f32) as u32;
        let b = TextBox {
            x0: clamp((x0 as f32 - grow) * sx, image_w),
            y0: clamp((y0 as f32 - grow) * sy, image_h),
            x1: clamp(((x1 + 1) as f32 + grow) * sx, image_w),
            y1: clamp(((y1 + 1) as f32 + grow) * sy, image_h),
            slant: None,
        };
        if b.x1 > b.x0 && b.y1 > b.y0 {
            out.push(b);
        }
    }
    // Reading order: rows (within a quarter of a line), then left to right.
    out.sort_by_key(|b| (b.y0 / 8, b.x0));
    out
}

/// The 4-connected region of text pixels from `start`: its bounds and (sum, count) of its
/// probabilities.
fn region(map: &[f32], w: usize, h: usize, start: usize, seen: &mut [bool]) -> Region {
    let (sx, sy) = (start % w, start / w);
    let (mut x0, mut y0, mut x1, mut y1) = (sx, sy, sx, sy);
    let (mut sum, mut count) = (0.0f32, 0usize);
    let mut stack = vec![start];
    let mut pixels = Vec::new();
    seen[start] = true;
    while let Some(i) = stack.pop() {
        let (x, y) = (i % w, i / w);
        pixels.push((x, y));
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
        sum += map[i];
        count += 1;
        let mut visit = |j: usize| {
            if !seen[j] && map[j] > THRESHOLD {
                seen[j] = true;
                stack.push(j);
            }
        };
        if x > 0 {
            visit(i - 1);
        }
        if x + 1 < w {
            visit(i + 1);
        }
        if y > 0 {
            visit(i - w);
        }
        if y + 1 < h {
            visit(i + w);
        }
    }
    Region {
        x0,
        y0,
        x1,
        y1,
        sum,
        count,
        pixels,
    }
}

/// One connected region of the thresholded map: its bounds, score sum and pixels.
struct Region {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
    sum: f32,
    count: usize,
    pixels: Vec<(usize, usize)>,
}

/// The box of a region that is a slanted line (its principal axis between [`LEVEL`] and
/// [`MAX_SLANT`] off level, and long): the rectangle along that axis, widened as DB's unclip
/// widens, in image pixels.
fn slanted(
    pixels: &[(usize, usize)],
    sx: f32,
    sy: f32,
    image_w: u32,
    image_h: u32,
) -> Option<TextBox> {
    let n = pixels.len() as f32;
    let (mx, my) = pixels
        .iter()
        .fold((0.0, 0.0), |(a, b), &(x, y)| (a + x as f32, b + y as f32));
    let (mx, my) = (mx / n, my / n);
    let (mut cxx, mut cyy, mut cxy) = (0.0f32, 0.0f32, 0.0f32);
    for &(x, y) in pixels {
        let (dx, dy) = (x as f32 - mx, y as f32 - my);
        cxx += dx * dx;
        cyy += dy * dy;
        cxy += dx * dy;
    }
    let angle = 0.5 * (2.0 * cxy).atan2(cxx - cyy);
    if angle.abs() < LEVEL || angle.abs() > MAX_SLANT {
        return None;
    }
    let (cos, sin) = (angle.cos(), angle.sin());
    let (mut u0, mut u1, mut v0, mut v1) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
    for &(x, y) in pixels {
        let (dx, dy) = (x as f32 - mx, y as f32 - my);
        let (u, v) = (dx * cos + dy * sin, -dx * sin + dy * cos);
        u0 = u0.min(u);
        u1 = u1.max(u);
        v0 = v0.min(v);
        v1 = v1.max(v);
    }
    let (len, height) = (u1 - u0 + 1.0, v1 - v0 + 1.0);
    if len < 3.0 * height {
        return None;
    }
    let grow = len * height * UNCLIP / (2.0 * (len + height));
    let (uc, vc) = ((u0 + u1) / 2.0, (v0 + v1) / 2.0);
    // Centre back on the map (pixel centres), then to the image.
    let (cx, cy) = (
        mx + uc * cos - vc * sin + 0.5,
        my + uc * sin + vc * cos + 0.5,
    );
    let scale = (sx + sy) / 2.0;
    let slant = Slant {
        cx: cx * sx,
        cy: cy * sy,
        angle,
        half_len: (len / 2.0 + grow) * scale,
        half_height: (height / 2.0 + grow) * scale,
    };
    let (ex, ey) = (
        slant.half_len * cos.abs() + slant.half_height * sin.abs(),
        slant.half_len * sin.abs() + slant.half_height * cos.abs(),
    );
    let clamp = |v: f32, max: u32| v.clamp(0.0, max as f32) as u32;
    let b = TextBox {
        x0: clamp(slant.cx - ex, image_w),
        y0: clamp(slant.cy - ey, image_h),
        x1: clamp(slant.cx + ex, image_w),
        y1: clamp(slant.cy + ey, image_h),
        slant: Some(slant),
    };
    (b.x1 > b.x0 && b.y1 > b.y0).then_some(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_become_widened_boxes_in_reading_order() {
        let (w, h) = (20, 10);
        let mut map = vec![0.0f32; w * h];
        for y in 2..4 {
            for x in 10..18 {
                map[y * w + x] = 0.9;
            }
        }
        for y in 2..4 {
            for x in 1..6 {
                map[y * w + x] = 0.8;
            }
        }
        map[8 * w + 1] = 0.9; // a lone pixel: noise
        for x in 12..15 {
            map[7 * w + x] = 0.35; // weak: below the box score
        }
        let b = boxes(&map, w, h, 40, 20);
        assert_eq!(b.len(), 2, "{b:?}");
        assert!(b[0].x0 < b[1].x0, "left first on one row");
        assert!(
            b[1].x0 < 20 && b[1].x1 > 36,
            "widened and scaled: {:?}",
            b[1]
        );
    }

    #[test]
    fn inputs_are_multiples_of_32_within_the_long_side() {
        let image = image::RgbImage::new(1080, 2400);
        let t = input(&image, None);
        let shape = t.shape;
        assert_eq!(shape[2] % 32, 0);
        assert_eq!(shape[3] % 32, 0);
        assert!(shape[2] <= LONG_SIDE as usize + 16);
    }
}
