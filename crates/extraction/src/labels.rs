//! Finding printed labels (`发票号码`, `开 票 日 期 ：`) on a sheet and reading the value that
//! follows them on the same visual line, bounded by gaps and block edges.

use crate::geometry::{Glyph, Sheet};

/// Label characters further apart than this (in em) are not one label.
const LABEL_GAP_EM: f32 = 8.0;
/// A value whose baseline is this close (in em of the label) to the label's still belongs
/// to it when nothing follows the label on its own line.
const NEAR_EM: f32 = 0.85;

/// Where a label was found: glyphs `start..end` of line `line`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Hit {
    pub line: usize,
    pub start: usize,
    pub end: usize,
    pub x0: f32,
    pub x1: f32,
    pub y: f32,
    pub size: f32,
}

/// A value read after a label.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Value {
    pub text: String,
    pub x0: f32,
    pub x1: f32,
}

/// How to read a value: which characters belong to it and how far apart they may be.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Take {
    /// Characters of the value; the first other character ends it.
    pub accept: fn(char) -> bool,
    /// Leading characters to skip (colons, brackets, currency marks).
    pub skip: &'static str,
    /// Largest gap (em) between the label and the value's first character.
    pub first_gap: f32,
    /// Largest gap (em) between consecutive value characters.
    pub gap: f32,
    /// Characters at or beyond this x belong to another block.
    pub right: f32,
}

impl Take {
    /// Free text such as a name: anything but a colon, no wide gaps.
    pub(crate) fn text(right: f32) -> Self {
        Self {
            accept: |c| c != ':',
            skip: ":",
            first_gap: 12.0,
            gap: 2.5,
            right,
        }
    }

    /// Digits, allowing the spaces some producers put between groups (`11241 63620`).
    pub(crate) fn digits(gap: f32) -> Self {
        Self {
            accept: |c| c.is_ascii_digit(),
            skip: ":",
            first_gap: 12.0,
            gap,
            right: f32::INFINITY,
        }
    }

    /// Tax IDs: digits and capitals.
    pub(crate) fn tax_id(right: f32) -> Self {
        Self {
            accept: |c| c.is_ascii_digit() || c.is_ascii_uppercase(),
            skip: ":",
            first_gap: 12.0,
            gap: 1.0,
            right,
        }
    }

    /// Dates as printed: digits, 年月日 and separators, spaced or not.
    pub(crate) fn date() -> Self {
        Self {
            accept: |c| c.is_ascii_digit() || "年月日-/.".contains(c),
            skip: ":",
            first_gap: 12.0,
            gap: 2.0,
            right: f32::INFINITY,
        }
    }

    /// Amounts: `¥ 1,234.56`, `-2.92`.
    pub(crate) fn money() -> Self {
        Self {
            accept: |c| c.is_ascii_digit() || ".,-".contains(c),
            skip: ":()¥$CNYRMB小写",
            first_gap: 12.0,
            gap: 1.0,
            right: f32::INFINITY,
        }
    }
}

impl Sheet {
    /// Every occurrence of `label` (normalised, without whitespace), top to bottom.
    pub(crate) fn find(&self, label: &str) -> Vec<Hit> {
        let needle: Vec<char> = label.chars().collect();
        let mut hits = Vec::new();
        let Some(&first) = needle.first() else {
            return hits;
        };
        for (li, line) in self.lines.iter().enumerate() {
            let g = &line.glyphs;
            for start in 0..g.len() {
                if g.get(start).map(|x| x.ch) != Some(first) {
                    continue;
                }
                if let Some(hit) = match_at(li, g, start, &needle) {
                    hits.push(hit);
                }
            }
        }
        hits
    }

    /// The first occurrence of `label` on line `line`.
    pub(crate) fn find_in_line(&self, line: usize, label: &str) -> Option<Hit> {
        let needle: Vec<char> = label.chars().collect();
        let first = *needle.first()?;
        let g = &self.lines.get(line)?.glyphs;
        (0..g.len())
            .filter(|&i| g.get(i).is_some_and(|x| x.ch == first))
            .find_map(|i| match_at(line, g, i, &needle))
    }

    /// Reads the value after `hit` on its line; failing that, from glyphs right of it whose
    /// baselines lie within [`NEAR_EM`] of the label's (producers that place values a little
    /// above or below their labels, as some OFD writers do).
    pub(crate) fn take_after(&self, hit: &Hit, how: &Take) -> Option<Value> {
        let same_line = self.lines.get(hit.line)?.glyphs.get(hit.end..)?;
        take(same_line.iter(), hit, how).or_else(|| {
            let near = self.glyphs_right_of(hit);
            take(near.iter(), hit, how)
        })
    }

    /// Glyphs right of a hit on other lines whose baselines are within [`NEAR_EM`] of its
    /// own, left to right.
    pub(crate) fn glyphs_right_of(&self, hit: &Hit) -> Vec<Glyph> {
        let window = NEAR_EM * hit.size;
        let mut out: Vec<Glyph> = self
            .lines
            .iter()
            .enumerate()
            .filter(|(i, l)| *i != hit.line && (l.y - hit.y).abs() <= 2.0 * window + hit.size)
            .flat_map(|(_, l)| l.glyphs.iter())
            .filter(|g| (g.y - hit.y).abs() <= window && g.x0 >= hit.x1 - 0.1)
            .copied()
            .collect();
        out.sort_by(|a, b| a.x0.total_cmp(&b.x0));
        out
    }

    /// The value after the first occurrence of any label that has one.
    pub(crate) fn value_of(&self, labels: &[&str], how: &Take) -> Option<Value> {
        labels
            .iter()
            .flat_map(|l| self.find(l))
            .find_map(|h| self.take_after(&h, how))
    }

    /// The glyph just before a hit on its line, if it is close (within `em` of the label).
    pub(crate) fn glyph_before(&self, hit: &Hit, em: f32) -> Option<Glyph> {
        let g = self
            .lines
            .get(hit.line)?
            .glyphs
            .get(hit.start.checked_sub(1)?)
            .copied()?;
        (hit.x0 - g.x1 <= em * hit.size).then_some(g)
    }
}

/// Reads a value from glyphs following a label, left to right.
fn take<'a>(glyphs: impl Iterator<Item = &'a Glyph>, hit: &Hit, how: &Take) -> Option<Value> {
    let mut prev_x1 = hit.x1;
    let mut out = String::new();
    let (mut x0, mut x1) = (f32::NAN, f32::NAN);
    for g in glyphs {
        if g.x0 >= how.right {
            break;
        }
        // Glyphs of another row that line grouping merged in (a large title spanning two
        // label rows) are not part of the value.
        if (g.y - hit.y).abs() > 0.9 * hit.size.max(g.size) {
            continue;
        }
        let gap = g.x0 - prev_x1;
        let limit = if out.is_empty() {
            how.first_gap
        } else {
            how.gap
        };
        if gap > limit * g.size.max(hit.size * 0.5) {
            break;
        }
        if out.is_empty() && how.skip.contains(g.ch) {
            prev_x1 = g.x1;
            continue;
        }
        if !(how.accept)(g.ch) {
            break;
        }
        if out.is_empty() {
            x0 = g.x0;
        }
        x1 = g.x1;
        out.push(g.ch);
        prev_x1 = g.x1;
    }
    (!out.is_empty()).then_some(Value { text: out, x0, x1 })
}

fn match_at(line: usize, g: &[Glyph], start: usize, needle: &[char]) -> Option<Hit> {
    let mut prev: Option<&Glyph> = None;
    for (k, want) in needle.iter().enumerate() {
        let glyph = g.get(start + k)?;
        if glyph.ch != *want {
            return None;
        }
        if let Some(p) = prev
            && glyph.x0 - p.x1 > LABEL_GAP_EM * p.size
        {
            return None;
        }
        prev = Some(glyph);
    }
    let first = g.get(start)?;
    let last = g.get(start + needle.len() - 1)?;
    Some(Hit {
        line,
        start,
        end: start + needle.len(),
        x0: first.x0,
        x1: last.x1,
        y: first.y,
        size: first.size,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tests::{run, sheet};

    #[test]
    fn finds_labels_spread_over_runs_and_reads_values() {
        let s = sheet(vec![
            run("开", 438.0, 56.7),
            run("票", 450.0, 56.7),
            run("日", 462.0, 56.7),
            run("期", 474.0, 56.7),
            run("：", 486.0, 56.7),
            run("2025年03月12日", 500.0, 56.7),
        ]);
        let v = s.value_of(&["开票日期"], &Take::date()).unwrap();
        assert_eq!(v.text, "2025年03月12日");
    }

    #[test]
    fn digits_stop_at_other_text() {
        let s = sheet(vec![
            run("发票号码:25429165818000355594", 25.0, 55.0),
            run("湖", 250.0, 55.0),
            run("开票日期:2025年03月03日", 300.0, 55.0),
        ]);
        let v = s.value_of(&["发票号码"], &Take::digits(1.5)).unwrap();
        assert_eq!(v.text, "25429165818000355594");
    }

    #[test]
    fn spaced_check_code_digits_are_joined() {
        let s = sheet(vec![
            run("校验码:", 24.0, 73.0),
            run("11241", 60.0, 73.0),
            run("63620", 85.0, 73.0),
            run("68024", 110.0, 73.0),
        ]);
        let v = s.value_of(&["校验码"], &Take::digits(2.0)).unwrap();
        assert_eq!(v.text, "112416362068024");
    }

    #[test]
    fn text_values_stop_at_a_block_edge_or_a_wide_gap() {
        let s = sheet(vec![
            run("名称:杭州某某科技有限公司", 30.0, 100.0),
            run("销", 300.0, 100.0),
            run("名称:", 315.0, 100.0),
            run("某某餐饮店", 338.0, 100.0),
            run("次", 586.0, 100.0),
        ]);
        let hits = s.find("名称");
        assert_eq!(hits.len(), 2);
        let buyer = s.take_after(&hits[0], &Take::text(300.0)).unwrap();
        assert_eq!(buyer.text, "杭州某某科技有限公司");
        let seller = s.take_after(&hits[1], &Take::text(f32::INFINITY)).unwrap();
        assert_eq!(seller.text, "某某餐饮店");
    }

    #[test]
    fn values_slightly_off_the_label_baseline_are_found() {
        // Label on its own line, the value drawn 7 pt higher (as an OFD writer did).
        let s = sheet(vec![
            run("价税合计(大写)", 46.0, 289.0),
            run("(小写)", 405.0, 289.0),
            run("贰仟圆整", 178.0, 282.0),
            run("¥2000.00", 441.0, 282.0),
            run("备", 15.0, 318.0),
        ]);
        let v = s.value_of(&["小写"], &Take::money()).unwrap();
        assert_eq!(v.text, "2000.00");
    }

    #[test]
    fn money_skips_brackets_and_currency() {
        let s = sheet(vec![
            run("(小写)", 448.0, 284.0),
            run("¥", 476.0, 284.0),
            run("53.40", 481.0, 284.0),
        ]);
        let v = s.value_of(&["小写"], &Take::money()).unwrap();
        assert_eq!(v.text, "53.40");
    }
}
