//! Text detection (DBNet): the image scaled to at most [`LONG_SIDE`] on its longer side (sides
//! multiples of 32), normalised to [-1, 1]; the model's probability map thresholded, its
//! connected regions scored, and each region's box widened (the "unclip" of DB, which trains on
//! shrunk boxes) and scaled back to the image. Phone screens are level, so boxes are axis
//! aligned.

use rten_tensor::NdTensor;

/// Longer side of the detection input, in pixels: phone text is large, and the model's time
/// grows with the area.
pub(crate) const LONG_SIDE: u32 = 960;
/// Probability above which a map pixel is text.
const THRESHOLD: f32 = 0.3;
/// Mean probability a region needs to count.
const BOX_SCORE: f32 = 0.5;
/// How far a box is widened, as DB's unclip ratio (area × ratio / perimeter).
const UNCLIP: f32 = 1.6;
/// Regions smaller than this many map pixels are noise.
const MIN_PIXELS: usize = 3;

/// A box on the image, in pixels (right and bottom exclusive).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextBox {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

impl TextBox {
    pub(crate) fn ratio(&self) -> f32 {
        (self.x1 - self.x0) as f32 / (self.y1 - self.y0).max(1) as f32
    }
}

/// The model input for `image`.
pub(crate) fn input(image: &image::RgbImage) -> NdTensor<f32, 4> {
    let (w, h) = image.dimensions();
    let scale = (LONG_SIDE as f32 / w.max(h).max(1) as f32).min(1.0);
    let side = |v: u32| (((v as f32 * scale) / 32.0).round().max(1.0) * 32.0) as u32;
    let (rw, rh) = (side(w), side(h));
    let small = image::imageops::resize(image, rw, rh, image::imageops::FilterType::Triangle);
    let mut input = NdTensor::<f32, 4>::zeros([1, 3, rh as usize, rw as usize]);
    for (x, y, p) in small.enumerate_pixels() {
        for c in 0..3 {
            input[[0, c, y as usize, x as usize]] = f32::from(p[c]) / 127.5 - 1.0;
        }
    }
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
        let (x0, y0, x1, y1, (sum, count)) = region(map, map_w, map_h, start, &mut seen);
        if count < MIN_PIXELS || sum / (count as f32) < BOX_SCORE {
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
fn region(
    map: &[f32],
    w: usize,
    h: usize,
    start: usize,
    seen: &mut [bool],
) -> (usize, usize, usize, usize, (f32, usize)) {
    let (sx, sy) = (start % w, start / w);
    let (mut x0, mut y0, mut x1, mut y1) = (sx, sy, sx, sy);
    let (mut sum, mut count) = (0.0f32, 0usize);
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(i) = stack.pop() {
        let (x, y) = (i % w, i / w);
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
    (x0, y0, x1, y1, (sum, count))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rten_tensor::prelude::*;

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
        let t = input(&image);
        let shape = t.shape();
        assert_eq!(shape[2] % 32, 0);
        assert_eq!(shape[3] % 32, 0);
        assert!(shape[2] <= LONG_SIDE as usize + 16);
    }
}
