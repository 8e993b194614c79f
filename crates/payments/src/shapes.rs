//! The shapes of a pixel mask: its 8-connected runs of set pixels, each with
//! its bounding box, for the passes that judge marks by their shape (a pen
//! stroke, the dot inside a zero); and the mask's outside, what its edges
//! reach (the paper around a glyph, the desk around a slip).

use std::collections::VecDeque;

/// One 8-connected shape: its pixel indices (row-major) and its bounds,
/// inclusive.
#[derive(Debug)]
pub struct Shape {
    pub pixels: Vec<usize>,
    pub left: usize,
    pub top: usize,
    pub right: usize,
    pub bottom: usize,
}

impl Shape {
    pub fn width(&self) -> usize {
        self.right - self.left + 1
    }

    pub fn height(&self) -> usize {
        self.bottom - self.top + 1
    }
}

/// The shapes of `mask`, a `width`-wide image's pixels row by row, in the
/// order of their first pixel.
pub fn shapes(mask: &[bool], width: usize) -> Vec<Shape> {
    if width == 0 {
        return Vec::new();
    }
    let height = mask.len() / width;
    let mut seen = vec![false; mask.len()];
    let mut found = Vec::new();
    let mut stack = Vec::new();
    for start in 0..mask.len() {
        if !mask[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut shape = Shape {
            pixels: Vec::new(),
            left: width,
            top: height,
            right: 0,
            bottom: 0,
        };
        while let Some(i) = stack.pop() {
            shape.pixels.push(i);
            let (x, y) = (i % width, i / width);
            shape.left = shape.left.min(x);
            shape.right = shape.right.max(x);
            shape.top = shape.top.min(y);
            shape.bottom = shape.bottom.max(y);
            for ny in y.saturating_sub(1)..=(y + 1).min(height - 1) {
                for nx in x.saturating_sub(1)..=(x + 1).min(width - 1) {
                    let j = ny * width + nx;
                    if mask[j] && !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
        }
        found.push(shape);
    }
    found
}

/// Cells not set in `mask` (a `w`-wide grid of `h` rows) connected 4-way
/// to its edges without crossing a set cell: the outside of the set
/// shapes; what they enclose is not reached.
pub fn reached_from_edges(mask: &[bool], w: usize, h: usize) -> Vec<bool> {
    let mut reached = vec![false; mask.len()];
    let mut queue = VecDeque::new();
    let edges = (0..w)
        .flat_map(|x| [x, (h - 1) * w + x])
        .chain((0..h).flat_map(|y| [y * w, y * w + w - 1]));
    for i in edges {
        if !mask[i] && !reached[i] {
            reached[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(i) = queue.pop_front() {
        for j in neighbours4(i, w, h) {
            if !mask[j] && !reached[j] {
                reached[j] = true;
                queue.push_back(j);
            }
        }
    }
    reached
}

/// The 4-neighbours of cell `i` of a `w`-wide grid of `h` rows.
pub fn neighbours4(i: usize, w: usize, h: usize) -> impl Iterator<Item = usize> {
    let (x, y) = (i % w, i / w);
    [
        (x > 0).then(|| i - 1),
        (x + 1 < w).then(|| i + 1),
        (y > 0).then(|| i - w),
        (y + 1 < h).then(|| i + w),
    ]
    .into_iter()
    .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagonal_neighbours_join_and_gaps_part() {
        // Row-major, 4 wide: a diagonal pair joined at a corner, and a lone
        // pixel two columns away.
        let mask = [
            true, false, false, true, //
            false, true, false, false, //
        ];
        let found = shapes(&mask, 4);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].pixels.len(), 2);
        assert_eq!((found[0].width(), found[0].height()), (2, 2));
        assert_eq!((found[1].left, found[1].top), (3, 0));
    }
}
