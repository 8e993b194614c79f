//! The shapes of a pixel mask: its 8-connected runs of set pixels, each with
//! its bounding box, for the passes that judge marks by their shape (a pen
//! stroke, the dot inside a zero).

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
