//! The surface under a photographed slip. A patterned tablecloth or placemat reads as short
//! noise lines (`众`, `x`, `8`, `★`) around the slip, and one beside a label takes the place
//! of its value. The slip is the span of its text lines; short lines wholly outside it are
//! dropped.

use crate::lines::{ScreenLine, ScreenText};
use crate::text;

/// Lines of at most this many characters may be noise.
const SHORT: usize = 2;

fn chars(line: &ScreenLine) -> usize {
    text::folded_compact(&line.text).chars().count()
}

/// The page without the short lines that lie wholly left or right of the slip's text.
pub(crate) fn without_surface(page: &ScreenText) -> ScreenText {
    let mut lefts: Vec<u32> = Vec::new();
    let mut rights: Vec<u32> = Vec::new();
    for l in page.lines.iter().filter(|l| chars(l) > SHORT + 1) {
        lefts.push(l.x0);
        rights.push(l.x1);
    }
    if lefts.len() < 5 {
        return page.clone();
    }
    lefts.sort_unstable();
    rights.sort_unstable();
    // Fifths, not extremes: a noise row of the pattern can be long too.
    let cut = lefts.len() / 5;
    let (lo, hi) = (lefts[cut], rights[rights.len() - 1 - cut]);
    ScreenText {
        lines: page
            .lines
            .iter()
            .filter(|l| chars(l) > SHORT || (l.x0 < hi && l.x1 > lo))
            .cloned()
            .collect(),
        ..page.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_beside_the_slip_goes_and_the_slip_stays() {
        let line = |x0: u32, x1: u32, t: &str| ScreenLine {
            text: t.to_owned(),
            x0,
            y0: 0,
            x1,
            y1: 30,
            angle: 0.0,
        };
        let mut lines = vec![
            line(655, 720, "众"),
            line(671, 707, "3"),
            line(13, 763, "文文★文★★"),
            line(150, 231, "金额："),
            line(582, 622, "01"),
        ];
        for k in 0..8 {
            lines.push(line(146 + k, 620 + k, "测试图书发行有限公司"));
        }
        let page = ScreenText {
            width: 840,
            height: 1720,
            lines,
        };
        let kept: Vec<String> = without_surface(&page)
            .lines
            .into_iter()
            .map(|l| l.text)
            .filter(|t| t.chars().count() < 8)
            .collect();
        assert_eq!(kept, ["文文★文★★", "金额：", "01"]);
    }
}
