//! A cheap scan for QR finder patterns (dark–light–dark–light–dark runs in
//! the ratio 1:1:3:1:1 along a row, confirmed down the column through the
//! centre), so the costly detector only runs on images that may hold a
//! code, only on the part that does, and at a scale that suits its module
//! size.

use crate::luma::{Bounds, Luma};

/// Rows a finder's 3-module core must span at least, so scanning every
/// few rows still crosses it.
const ROWS_SCANNED: usize = 600;
/// Hits kept; more adds nothing.
const MAX_HITS: usize = 512;

/// Where finder-like run patterns cross the scanned rows.
#[derive(Debug, Default)]
pub(crate) struct Hits {
    /// Centres of the patterns, in pixels.
    pub points: Vec<(usize, usize)>,
    /// Each pattern's module size (its width / 7), in pixels.
    pub modules: Vec<f32>,
}

impl Hits {
    /// Whether a code may be there: at least three separate finder
    /// patterns (hits more than a few modules apart).
    pub fn promising(&self) -> bool {
        let mut centres: Vec<(f32, f32, f32)> = Vec::new();
        for (&(x, y), &m) in self.points.iter().zip(&self.modules) {
            let (x, y) = (x as f32, y as f32);
            let near =
                |c: &(f32, f32, f32)| (c.0 - x).abs() <= 3.0 * m && (c.1 - y).abs() <= 3.0 * m;
            if !centres.iter().any(near) {
                centres.push((x, y, m));
                if centres.len() >= 3 {
                    return true;
                }
            }
        }
        false
    }

    /// The region the hits suggest, `margin_modules` modules around their
    /// bounding box, and the median module size. `None` without hits.
    pub fn region(&self, luma: &Luma<'_>, margin_modules: f32) -> Option<(Bounds, f32)> {
        let mut modules = self.modules.clone();
        modules.sort_by(f32::total_cmp);
        let module = *modules.get(modules.len() / 2)?;
        let margin = (module * margin_modules).ceil() as usize;
        let left = self
            .points
            .iter()
            .map(|p| p.0)
            .min()?
            .saturating_sub(margin);
        let top = self
            .points
            .iter()
            .map(|p| p.1)
            .min()?
            .saturating_sub(margin);
        let right = (self.points.iter().map(|p| p.0).max()? + margin + 1).min(luma.width);
        let bottom = (self.points.iter().map(|p| p.1).max()? + margin + 1).min(luma.height);
        (right > left && bottom > top).then_some((
            Bounds {
                left,
                top,
                right,
                bottom,
            },
            module,
        ))
    }
}

/// Scan rows of `luma` for finder patterns; `inverted` looks for light
/// finders on a dark ground.
pub(crate) fn finder_hits(luma: &Luma<'_>, inverted: bool) -> Hits {
    let mut hits = Hits::default();
    let step = luma.height.div_ceil(ROWS_SCANNED).max(1);
    // The last five runs: lengths and whether each is dark.
    let mut runs: Vec<(usize, bool)> = Vec::with_capacity(luma.width);
    let threshold = luma.threshold();
    for y in (0..luma.height).step_by(step) {
        runs.clear();
        let row = luma.row(y);
        let mut start = 0;
        let mut current = row.first().is_some_and(|&v| (v <= threshold) != inverted);
        // One past the end closes the last run.
        for x in 1..=row.len() {
            let dark = row.get(x).map(|&v| (v <= threshold) != inverted);
            if dark == Some(current) {
                continue;
            }
            runs.push((x - start, current));
            if let [.., a, b, c, d, e] = runs.as_slice()
                && e.1
                && is_finder([a.0, b.0, c.0, d.0, e.0])
            {
                let width: usize = [a.0, b.0, c.0, d.0, e.0].iter().sum();
                let unit = width as f32 / 7.0;
                let centre = x - e.0 - d.0 - c.0 / 2;
                if confirmed_down(luma, centre, y, unit, inverted) {
                    hits.points.push((centre, y));
                    hits.modules.push(unit);
                    if hits.points.len() >= MAX_HITS {
                        return hits;
                    }
                }
            }
            start = x;
            current = dark.unwrap_or(current);
        }
    }
    hits
}

/// Whether the column through `(x, y)` also crosses a finder pattern of
/// about the same module size `unit` (as ZXing cross-checks).
fn confirmed_down(luma: &Luma<'_>, x: usize, y: usize, unit: f32, inverted: bool) -> bool {
    let dark = |y: usize| luma.dark(x, y) != inverted;
    if !dark(y) {
        return false;
    }
    let limit = (unit * 5.0).ceil() as usize + 2;
    // Run lengths going up from the centre, then down.
    let run_up = |from: usize, want: bool| {
        let mut n = 0;
        while n < limit && from > n && dark(from - n - 1) == want {
            n += 1;
        }
        n
    };
    let run_down = |from: usize, want: bool| {
        let mut n = 0;
        while n < limit && from + n < luma.height && dark(from + n) == want {
            n += 1;
        }
        n
    };
    let centre_up = run_up(y, true);
    let light_up = run_up(y - centre_up, false);
    let dark_up = run_up(y - centre_up - light_up, true);
    let centre_down = run_down(y, true);
    let light_down = run_down(y + centre_down, false);
    let dark_down = run_down(y + centre_down + light_down, true);
    let runs = [
        dark_up,
        light_up,
        centre_up + centre_down,
        light_down,
        dark_down,
    ];
    let vertical = runs.iter().sum::<usize>() as f32 / 7.0;
    is_finder(runs) && vertical >= unit * 0.6 && vertical <= unit * 1.6
}

/// Whether five run lengths (dark first) have the 1:1:3:1:1 shape.
fn is_finder(runs: [usize; 5]) -> bool {
    let total: usize = runs.iter().sum();
    if total < 7 {
        return false;
    }
    let unit = total as f32 / 7.0;
    let near = |run: usize, modules: f32| (run as f32 - modules * unit).abs() <= unit * 0.7;
    near(runs[0], 1.0)
        && near(runs[1], 1.0)
        && near(runs[2], 3.0)
        && near(runs[3], 1.0)
        && near(runs[4], 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finder_shape() {
        assert!(is_finder([1, 1, 3, 1, 1]));
        assert!(is_finder([4, 4, 12, 4, 4]));
        assert!(is_finder([3, 5, 11, 4, 5]));
        assert!(!is_finder([4, 4, 4, 4, 4]));
        assert!(!is_finder([1, 1, 1, 1, 1]));
        assert!(!is_finder([12, 4, 4, 4, 4]));
    }

    #[test]
    fn hits_where_a_finder_pattern_is() {
        // Three 7×7 finder patterns at 2 pixels per module, in a 40×40 image.
        let mut pixels = vec![255u8; 40 * 40];
        for (ox, oy) in [(2, 2), (24, 2), (2, 24)] {
            for dy in 0..14usize {
                for dx in 0..14usize {
                    let (mx, my) = (dx / 2, dy / 2);
                    let ring = mx.abs_diff(3).max(my.abs_diff(3));
                    if ring != 2 {
                        pixels[(oy + dy) * 40 + ox + dx] = 0;
                    }
                }
            }
        }
        let luma = Luma::new(40, 40, &pixels).unwrap();
        let hits = finder_hits(&luma, false);
        assert!(hits.promising(), "{hits:?}");
        assert!(hits.points.contains(&(9, 9)), "{hits:?}");
        assert!((hits.modules[0] - 2.0).abs() < 1e-3);
        let (region, module) = hits.region(&luma, 1.0).unwrap();
        assert!((module - 2.0).abs() < 1e-3);
        assert!(region.left <= 9 && region.right > 31 && region.top <= 9);
        assert!(!finder_hits(&luma, true).promising());
        // Bars that match along a row but not down a column.
        let mut bars = vec![255u8; 40 * 40];
        for y in 0..40 {
            for x in [3, 4, 7, 8, 9, 10, 11, 12, 15, 16] {
                bars[y * 40 + x] = 0;
            }
        }
        let luma = Luma::new(40, 40, &bars).unwrap();
        assert!(finder_hits(&luma, false).points.is_empty());
    }
}
