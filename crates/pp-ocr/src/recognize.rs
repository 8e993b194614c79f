//! Text recognition (SVTR, CTC): each box cropped, scaled to 48 px high keeping its shape,
//! normalised to [-1, 1]; boxes of similar shape go in one batch as wide as its widest line
//! (padding costs time); the output decoded greedily (best class per step, repeats and the
//! blank dropped).

use crate::detect::TextBox;
use crate::runtime::Input;

/// Height of a recognition input.
pub(crate) const HEIGHT: usize = 48;
/// Lines per batch.
pub(crate) const BATCH: usize = 8;
/// The widest line read, in input pixels (a very long box is squeezed to it).
const MAX_WIDTH: usize = 1600;

/// Box indices in batches of similar shape.
pub(crate) fn batches(boxes: &[TextBox]) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&a, &b| boxes[a].ratio().total_cmp(&boxes[b].ratio()));
    order.chunks(BATCH).map(<[usize]>::to_vec).collect()
}

/// One batch of whole images (each one line of text) as the recognition input.
pub(crate) fn input_images(images: &[&image::RgbImage]) -> Input {
    let ratio = |i: &image::RgbImage| i.width() as f32 / i.height().max(1) as f32;
    let widest = images.iter().map(|i| ratio(i)).fold(1.0f32, f32::max);
    let width = ((HEIGHT as f32 * widest).ceil() as usize).clamp(HEIGHT, MAX_WIDTH);
    let mut input = Input::zeros([images.len(), 3, HEIGHT, width]);
    for (k, image) in images.iter().enumerate() {
        let w = ((HEIGHT as f32 * ratio(image)).ceil() as u32).clamp(1, width as u32);
        let line = image::imageops::resize(
            *image,
            w,
            HEIGHT as u32,
            image::imageops::FilterType::Triangle,
        );
        input.put_image(k, &line);
    }
    input
}

/// Greedy CTC decoding over the classes `allowed` (all when `None`; the blank always).
pub(crate) fn decode_allowed(
    probs: &[f32],
    classes: usize,
    chars: &[String],
    allowed: Option<&[bool]>,
) -> (String, f32) {
    let Some(allowed) = allowed else {
        return decode(probs, classes, chars);
    };
    let masked: Vec<f32> = probs
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let class = i % classes;
            if class == 0 || allowed.get(class - 1).copied().unwrap_or(false) {
                p
            } else {
                -1.0
            }
        })
        .collect();
    decode(&masked, classes, chars)
}

/// Greedy CTC decoding of one line's class probabilities (`steps` × `classes`): the text and
/// the mean probability of its characters.
pub(crate) fn decode(probs: &[f32], classes: usize, chars: &[String]) -> (String, f32) {
    let mut text = String::new();
    let (mut sum, mut count) = (0.0f32, 0usize);
    let mut previous = 0usize;
    for step in probs.chunks(classes) {
        let (best, p) = step
            .iter()
            .copied()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or((0, 0.0));
        if best != 0 && best != previous {
            text.push_str(chars.get(best - 1).map_or(" ", String::as_str));
            sum += p;
            count += 1;
        }
        previous = best;
    }
    (text, if count == 0 { 0.0 } else { sum / count as f32 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_ctc_drops_blanks_and_repeats() {
        let chars: Vec<String> = ["¥", "1", "7"].iter().map(|s| (*s).to_owned()).collect();
        let step = |c: usize| {
            let mut v = vec![0.0f32; 5];
            v[c] = 0.9;
            v
        };
        // ¥ ¥ blank 1 7 7 blank 7, then the last class (a space)
        let probs: Vec<f32> = [1, 1, 0, 2, 3, 3, 0, 3, 4]
            .iter()
            .flat_map(|&c| step(c))
            .collect();
        let (text, score) = decode(&probs, 5, &chars);
        assert_eq!(text, "¥177 ");
        assert!((score - 0.9).abs() < 1e-6);
    }

    #[test]
    fn batches_group_similar_shapes() {
        let b = |w: u32| TextBox {
            x0: 0,
            y0: 0,
            x1: w,
            y1: 10,
            slant: None,
        };
        let boxes: Vec<TextBox> = (1..=10).map(|k| b(k * 10)).rev().collect();
        let batches = batches(&boxes);
        assert_eq!(batches.len(), 2);
        assert_eq!(batches[0].len(), BATCH);
        assert!(batches[0].iter().all(|&i| boxes[i].x1 <= 80));
    }
}
