//! Grouping text runs into visual lines.

use crate::model::TextRun;

/// Runs whose glyph boxes overlap vertically by at least this fraction of
/// the smaller box share a line.
const SAME_LINE: f32 = 0.5;
/// Glyph box above and below the baseline, as fractions of the font size.
const ASCENT: f32 = 0.8;
const DESCENT: f32 = 0.2;
/// A horizontal gap wider than this fraction of the font size becomes a space
/// in [`Line::text`].
const SPACE_GAP: f32 = 0.2;
/// A run repeating the text of another within this fraction of the font size
/// is an overprint (fake bold) and is dropped.
const OVERPRINT: f32 = 0.3;

/// Runs sharing a baseline, left to right.
///
/// Runs are sorted by baseline `y`; a run joins the current line while its
/// glyph box (0.8 em above to 0.2 em below the baseline) overlaps the box of
/// the line's first run by at least half the smaller box's height. For equal
/// sizes that means baselines at most half a font size apart.
/// Within a line runs are sorted by `x`, and a run that repeats another's
/// text at almost the same spot (fake bold by overprinting) is dropped.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Baseline of the line's topmost run, from the top of the page.
    pub y: f32,
    /// The runs, left to right.
    pub runs: Vec<TextRun>,
}

impl Line {
    /// Left edge of the first run.
    pub fn x(&self) -> f32 {
        self.runs.first().map_or(0.0, |r| r.x)
    }

    /// Right edge of the line: the largest run `end_x`.
    pub fn end_x(&self) -> f32 {
        self.runs.iter().map(|r| r.end_x).fold(f32::MIN, f32::max)
    }

    /// Largest font size in the line.
    pub fn font_size(&self) -> f32 {
        self.runs.iter().map(|r| r.font_size).fold(0.0, f32::max)
    }

    /// The runs' text joined left to right, with one space where runs are
    /// separated by a gap wider than 0.2 em.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let mut prev: Option<&TextRun> = None;
        for run in &self.runs {
            if let Some(p) = prev {
                let gap = run.x - p.end_x;
                let size = p.font_size.min(run.font_size);
                let has_space =
                    out.ends_with(char::is_whitespace) || run.text.starts_with(char::is_whitespace);
                if gap > SPACE_GAP * size && !has_space {
                    out.push(' ');
                }
            }
            out.push_str(&run.text);
            prev = Some(run);
        }
        out
    }
}

fn same_line(a: &TextRun, b: &TextRun) -> bool {
    let top = (a.y - ASCENT * a.font_size).max(b.y - ASCENT * b.font_size);
    let bottom = (a.y + DESCENT * a.font_size).min(b.y + DESCENT * b.font_size);
    let smaller = a.font_size.min(b.font_size);
    // A small epsilon so exactly-half overlaps count despite rounding.
    bottom - top + 1e-3 >= SAME_LINE * smaller
}

/// Group runs into lines; see [`Line`].
pub(crate) fn group_lines(runs: &[TextRun]) -> Vec<Line> {
    let mut sorted: Vec<&TextRun> = runs.iter().collect();
    sorted.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));

    let mut lines: Vec<Line> = Vec::new();
    let mut anchor: Option<&TextRun> = None;
    for run in sorted {
        let joins = anchor.is_some_and(|a| same_line(a, run));
        match lines.last_mut() {
            Some(line) if joins => line.runs.push(run.clone()),
            _ => {
                anchor = Some(run);
                lines.push(Line {
                    y: run.y,
                    runs: vec![run.clone()],
                });
            }
        }
    }
    for line in &mut lines {
        line.runs.sort_by(|a, b| a.x.total_cmp(&b.x));
        let mut kept: Vec<TextRun> = Vec::with_capacity(line.runs.len());
        for run in line.runs.drain(..) {
            let tolerance = OVERPRINT * run.font_size;
            let overprint = kept.iter().rev().take(4).any(|k| {
                k.text == run.text
                    && (k.x - run.x).abs() <= tolerance
                    && (k.y - run.y).abs() <= tolerance
            });
            if !overprint {
                kept.push(run);
            }
        }
        line.runs = kept;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, x: f32, y: f32, w: f32) -> TextRun {
        TextRun {
            text: text.into(),
            x,
            y,
            end_x: x + w,
            font_size: 10.0,
        }
    }

    #[test]
    fn groups_by_baseline_then_x() {
        let runs = vec![
            run("value", 60.0, 101.0, 25.0),
            run("Label:", 10.0, 100.0, 30.0),
            run("next", 10.0, 120.0, 20.0),
            run("B", 41.0, 100.5, 5.0),
        ];
        let lines = group_lines(&runs);
        assert_eq!(lines.len(), 2);
        // "Label:" ends at 40, "B" starts at 41 (< 2pt gap): no space.
        assert_eq!(lines[0].text(), "Label:B value");
        assert_eq!(lines[1].text(), "next");
        assert_eq!(lines[0].y, 100.0);
    }

    #[test]
    fn mixed_sizes_share_a_line_when_boxes_overlap() {
        let mut big = run("91330108MA27Y5XH5G", 170.0, 137.5, 100.0);
        big.font_size = 10.0;
        let mut label = run("纳税人识别号：", 40.0, 133.0, 60.0);
        label.font_size = 9.0;
        let mut below = run("息", 20.0, 143.0, 9.0);
        below.font_size = 9.0;
        let lines = group_lines(&[big, label, below]);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].text(), "纳税人识别号： 91330108MA27Y5XH5G");
    }

    #[test]
    fn overprint_is_dropped() {
        let runs = vec![
            run("发票", 10.0, 50.0, 20.0),
            run("发票", 10.3, 50.2, 20.0),
            run("发票", 40.0, 50.0, 20.0),
        ];
        let lines = group_lines(&runs);
        assert_eq!(lines[0].runs.len(), 2);
        assert_eq!(lines[0].text(), "发票 发票");
    }
}
