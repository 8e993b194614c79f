//! Positioned text the layouts work on: runs (from PDF or OFD), grouped into visual lines of
//! glyphs with estimated x extents, so labels and values are matched by position and never
//! by drawing order.

use crate::text;

/// Glyph box above and below the baseline, as fractions of the font size.
const ASCENT: f32 = 0.8;
const DESCENT: f32 = 0.2;
/// Runs whose boxes overlap by at least this fraction of the smaller box share a line.
const SAME_LINE: f32 = 0.5;
/// A run repeating another's text within this fraction of the size is fake bold.
const OVERPRINT: f32 = 0.3;

/// A stretch of text without whitespace, normalised (see [`text::normalize`]). Coordinates
/// are points, origin top-left, `y` the baseline growing downwards.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Run {
    pub text: String,
    pub x: f32,
    pub y: f32,
    pub end_x: f32,
    pub size: f32,
}

impl Run {
    /// Builds a run, normalising its text. Whitespace must already have split runs.
    pub(crate) fn new(text: &str, x: f32, y: f32, end_x: f32, size: f32) -> Self {
        let size = if size.is_finite() && size > 0.0 {
            size
        } else {
            1.0
        };
        Self {
            text: text::normalize(text),
            x,
            y,
            end_x: end_x.max(x),
            size,
        }
    }

    fn top(&self) -> f32 {
        self.y - ASCENT * self.size
    }

    fn bottom(&self) -> f32 {
        self.y + DESCENT * self.size
    }
}

/// One page of runs.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Page {
    pub width: f32,
    pub height: f32,
    pub runs: Vec<Run>,
}

impl Page {
    /// A PDF page's text layer as runs, unrepaired.
    pub(crate) fn from_text_layer(p: &pdf_text::Page) -> Self {
        Self {
            width: p.width,
            height: p.height,
            runs: p
                .runs
                .iter()
                .map(|r| Run::new(&r.text, r.x, r.y, r.end_x, r.font_size))
                .collect(),
        }
    }
}

/// One character with its estimated horizontal extent and the run it came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Glyph {
    pub ch: char,
    pub x0: f32,
    pub x1: f32,
    /// Baseline of the glyph's run.
    pub y: f32,
    pub size: f32,
    /// Index into [`Sheet::runs`].
    pub run: usize,
}

/// Runs sharing a baseline, left to right, and their glyphs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    /// Baseline of the line's first (topmost) run.
    pub y: f32,
    /// Indices into [`Sheet::runs`], left to right.
    pub runs: Vec<usize>,
    pub glyphs: Vec<Glyph>,
}

impl Line {
    /// The line's text without whitespace.
    pub(crate) fn text(&self) -> String {
        self.glyphs.iter().map(|g| g.ch).collect()
    }

    /// Largest font size on the line.
    pub(crate) fn size(&self) -> f32 {
        self.glyphs.iter().map(|g| g.size).fold(0.0, f32::max)
    }
}

/// A page grouped into lines; what every layout reads.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Sheet {
    pub width: f32,
    pub height: f32,
    pub runs: Vec<Run>,
    pub lines: Vec<Line>,
}

impl Sheet {
    pub(crate) fn new(page: Page) -> Self {
        let mut runs: Vec<Run> = page
            .runs
            .into_iter()
            .filter(|r| !r.text.is_empty() && r.x.is_finite() && r.y.is_finite())
            .collect();
        runs.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
        let lines = group_lines(&runs);
        Self {
            width: page.width,
            height: page.height,
            runs,
            lines,
        }
    }

    /// The run a glyph came from.
    pub(crate) fn run(&self, index: usize) -> Option<&Run> {
        self.runs.get(index)
    }

    /// Text of the runs of `line` starting in `x0..x1`, a space where runs are apart by more
    /// than 0.2 em unless both sides are CJK (spaced-out CJK is joined, word breaks kept).
    pub(crate) fn spaced_text(&self, line: usize, x0: f32, x1: f32) -> String {
        let mut out = String::new();
        let mut prev: Option<&Run> = None;
        let Some(l) = self.lines.get(line) else {
            return out;
        };
        for run in l.runs.iter().filter_map(|&i| self.runs.get(i)) {
            if run.x < x0 || run.x >= x1 {
                continue;
            }
            if let Some(p) = prev {
                let gap = run.x - p.end_x;
                let cjk_both = out.chars().next_back().is_some_and(text::is_cjk)
                    && run.text.chars().next().is_some_and(text::is_cjk);
                if gap > 0.2 * p.size.min(run.size) && !cjk_both {
                    out.push(' ');
                }
            }
            out.push_str(&run.text);
            prev = Some(run);
        }
        out
    }
}

fn same_line(a: &Run, b: &Run) -> bool {
    let top = a.top().max(b.top());
    let bottom = a.bottom().min(b.bottom());
    bottom - top + 1e-3 >= SAME_LINE * a.size.min(b.size)
}

/// Groups runs already sorted by `y` into lines. A run joins the current line when its box
/// overlaps that of the line's mean baseline and size: the mean follows the line's text,
/// so neither a slightly raised first run (a vertical label beside the line) nor glyphs
/// drawn one by one with a little vertical jitter split a line in two.
fn group_lines(runs: &[Run]) -> Vec<Line> {
    let mut lines: Vec<Line> = Vec::new();
    // Sum of baselines and sizes of the current line's runs, and their count.
    let mut sum = (0.0f32, 0.0f32, 0usize);
    for (i, run) in runs.iter().enumerate() {
        let joins = sum.2 > 0 && {
            let n = sum.2 as f32;
            let mean = Run {
                text: String::new(),
                x: 0.0,
                y: sum.0 / n,
                end_x: 0.0,
                size: sum.1 / n,
            };
            same_line(&mean, run)
        };
        match lines.last_mut() {
            Some(line) if joins => {
                line.runs.push(i);
                sum = (sum.0 + run.y, sum.1 + run.size, sum.2 + 1);
            }
            _ => {
                sum = (run.y, run.size, 1);
                lines.push(Line {
                    y: run.y,
                    runs: vec![i],
                    glyphs: Vec::new(),
                });
            }
        }
    }
    for line in &mut lines {
        line.runs.sort_by(|&a, &b| {
            let (ra, rb) = (runs.get(a), runs.get(b));
            let xa = ra.map_or(0.0, |r| r.x);
            let xb = rb.map_or(0.0, |r| r.x);
            xa.total_cmp(&xb)
        });
        let mut kept: Vec<usize> = Vec::with_capacity(line.runs.len());
        for &i in &line.runs {
            let Some(run) = runs.get(i) else { continue };
            let tolerance = OVERPRINT * run.size;
            let overprint = kept.iter().rev().take(4).any(|&k| {
                runs.get(k).is_some_and(|o| {
                    o.text == run.text
                        && (o.x - run.x).abs() <= tolerance
                        && (o.y - run.y).abs() <= tolerance
                })
            });
            if !overprint {
                kept.push(i);
            }
        }
        line.glyphs = kept
            .iter()
            .filter_map(|&i| runs.get(i).map(|r| (i, r)))
            .flat_map(|(i, r)| glyphs_of(i, r))
            .collect();
        line.runs = kept;
    }
    lines
}

/// Spreads a run's width over its characters, full-width ones counting double.
fn glyphs_of(index: usize, run: &Run) -> Vec<Glyph> {
    let total: f32 = run.text.chars().map(text::width_weight).sum();
    let width = run.end_x - run.x;
    let mut x = run.x;
    run.text
        .chars()
        .map(|ch| {
            let w = if total > 0.0 {
                width * text::width_weight(ch) / total
            } else {
                0.0
            };
            let g = Glyph {
                ch,
                x0: x,
                x1: x + w,
                y: run.y,
                size: run.size,
                run: index,
            };
            x += w;
            g
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 9 pt run whose width follows its text (CJK 9 pt, Latin 4.5 pt per char).
    pub(crate) fn run(text: &str, x: f32, y: f32) -> Run {
        let w: f32 = text.chars().map(|c| 4.5 * text::width_weight(c)).sum();
        Run::new(text, x, y, x + w, 9.0)
    }

    pub(crate) fn sheet(runs: Vec<Run>) -> Sheet {
        Sheet::new(Page {
            width: 595.0,
            height: 397.0,
            runs,
        })
    }

    #[test]
    fn lines_follow_position_not_drawing_order() {
        // Values drawn before their labels, one slightly lower, as some producers do.
        let s = sheet(vec![
            run("25432000000022014229", 480.0, 40.5),
            run("2025年02月19日", 480.0, 57.0),
            run("发票号码:", 438.0, 40.0),
            run("开票日期:", 438.0, 56.8),
        ]);
        assert_eq!(s.lines.len(), 2);
        assert_eq!(s.lines[0].text(), "发票号码:25432000000022014229");
        assert_eq!(s.lines[1].text(), "开票日期:2025年02月19日");
    }

    #[test]
    fn glyph_extents_weight_full_width_characters() {
        let s = sheet(vec![run("名称:AB", 0.0, 10.0)]);
        let g = &s.lines[0].glyphs;
        assert_eq!(g.len(), 5);
        assert!((g[1].x1 - 18.0).abs() < 1e-3);
        assert!((g[4].x1 - 31.5).abs() < 1e-3);
    }

    #[test]
    fn spaced_text_keeps_latin_word_breaks_only() {
        let s = sheet(vec![
            run("2024-01-23", 370.0, 303.0),
            run("08:00", 420.0, 303.0),
            run("成都-长沙", 450.0, 303.0),
            run("3U8769", 500.0, 303.0),
            run("销", 550.0, 303.0),
            run("售", 562.0, 303.0),
        ]);
        assert_eq!(
            s.spaced_text(0, 0.0, 600.0),
            "2024-01-23 08:00 成都-长沙 3U8769 销售"
        );
        assert_eq!(s.spaced_text(0, 400.0, 540.0), "08:00 成都-长沙 3U8769");
    }

    #[test]
    fn fake_bold_overprint_is_dropped_and_kangxi_normalised() {
        let s = sheet(vec![
            run("电⼦发票", 10.0, 20.0),
            run("电⼦发票", 10.2, 20.1),
        ]);
        assert_eq!(s.lines[0].text(), "电子发票");
    }
}
