//! The page as rows and labels: which lines share a row, which text is a label, and the
//! value a label points at (the rest of its line, the rest of its row, or the line below).

use crate::lines::{ScreenLine, ScreenText};
use crate::text;

/// One OCR line with its text normalised (full-width folded) and compacted (no spaces).
#[derive(Debug, Clone)]
pub struct Cell {
    pub line: ScreenLine,
    /// Normalised, spaces kept.
    pub text: String,
    /// Normalised, without spaces: how labels are compared.
    pub compact: String,
}

/// The page, top to bottom.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    pub cells: Vec<Cell>,
    pub height: u32,
    /// Every line's compact text joined: what screen rules look for words in.
    pub all: String,
}

impl Layout {
    pub fn new(page: &ScreenText) -> Self {
        let mut lines = crate::spaced::joined(deskewed(page));
        lines.sort_by(|a, b| a.cy().total_cmp(&b.cy()).then(a.x0.cmp(&b.x0)));
        let cells: Vec<Cell> = lines
            .into_iter()
            .map(|line| {
                let text = text::normalize(&line.text);
                let compact = text::compact(&text);
                Cell {
                    line,
                    text,
                    compact,
                }
            })
            .collect();
        let all = cells.iter().map(|c| c.compact.as_str()).collect();
        Self {
            cells,
            height: page.height,
            all,
        }
    }

    /// Whether any line holds `word`.
    pub fn has(&self, word: &str) -> bool {
        self.all.contains(word)
    }

    /// The lines sharing line `i`'s row ([`ScreenLine::shares_row`]), left to right, `i` included.
    pub fn row(&self, i: usize) -> Vec<usize> {
        let a = &self.cells[i].line;
        let mut row: Vec<usize> = (0..self.cells.len())
            .filter(|&j| a.shares_row(&self.cells[j].line))
            .collect();
        row.sort_by_key(|&j| self.cells[j].line.x0);
        row
    }

    /// The English gloss printed under label `i` (`交易金额` over `Amount`): the next line
    /// below, starting at the label's left edge, of Latin letters only.
    fn gloss_below(&self, i: usize) -> Option<usize> {
        let a = &self.cells[i].line;
        let j = self.below_any(i)?;
        let b = &self.cells[j].line;
        let letters = self.cells[j]
            .compact
            .chars()
            .all(|c| c.is_ascii_alphabetic() || matches!(c, '/' | '.' | ':'));
        (letters && b.x0.abs_diff(a.x0) <= a.height() && b.y0 <= a.y1 + a.height() / 2).then_some(j)
    }

    /// The nearest line starting below the middle of line `i` and overlapping it
    /// horizontally.
    fn below_any(&self, i: usize) -> Option<usize> {
        let a = &self.cells[i].line;
        (i + 1..self.cells.len())
            .filter(|&j| {
                let b = &self.cells[j].line;
                b.y0 >= a.y0 + a.height() / 2 && b.x0 < a.x1 && b.x1 > a.x0
            })
            .min_by_key(|&j| self.cells[j].line.y0)
    }

    /// The compact text of a row's pieces, left to right. Where two pieces' boxes overlap
    /// and the characters under the overlap are the same at the end of the first and the
    /// start of the second, they are one glyph read in both boxes (`********6` and `6591`
    /// for `********6591`); boxes are padded, so an overlap alone proves nothing.
    pub fn joined_row(&self, row: &[usize]) -> String {
        self.joined(row, false)
    }

    /// As [`Self::joined_row`], with each piece's normalised text (spaces kept) when
    /// `spaced`, the pieces then joined by a space.
    fn joined(&self, row: &[usize], spaced: bool) -> String {
        let text = |i: usize| {
            let c = &self.cells[i];
            if spaced {
                c.text.trim()
            } else {
                c.compact.as_str()
            }
        };
        let mut out = String::new();
        for (k, &i) in row.iter().enumerate() {
            let cell = &self.cells[i];
            let chars: Vec<char> = text(i).chars().collect();
            let mut keep = chars.len();
            if let Some(&next) = row.get(k + 1) {
                let (a, b) = (&cell.line, &self.cells[next].line);
                let glyphs = cell.compact.chars().count().max(1);
                let width = a.x1.saturating_sub(a.x0) as f32 / glyphs as f32;
                let overlap = a.x1.saturating_sub(b.x0.max(a.x0)) as f32;
                let under = if width > 0.0 && b.x0 > a.x0 {
                    ((overlap / width).round() as usize).min(keep)
                } else {
                    0
                };
                let next_chars: Vec<char> = text(next).chars().collect();
                if under > 0 && next_chars.starts_with(&chars[keep - under..]) {
                    keep -= under;
                }
            }
            if spaced && k > 0 {
                out.push(' ');
            }
            out.extend(&chars[..keep]);
        }
        out
    }

    /// The lines right of line `i` in its row, joined with spaces. A label with its English
    /// gloss under it spans both lines: its value is set against the pair.
    pub fn right_of(&self, i: usize) -> Option<(String, usize)> {
        // Boxes are padded: a value set close to its label may overlap the label's box.
        let a = &self.cells[i].line;
        let x = (a.x0 + a.x1) / 2;
        let right: Vec<usize> = match self.gloss_below(i) {
            Some(g) => {
                let mut span = a.clone();
                span.y1 = self.cells[g].line.y1;
                let mut right: Vec<usize> = (0..self.cells.len())
                    .filter(|&j| {
                        let b = &self.cells[j].line;
                        j != g && b.y0 >= span.y0 && b.y1 <= span.y1
                    })
                    .collect();
                right.sort_by_key(|&j| self.cells[j].line.x0);
                if right.is_empty() { self.row(i) } else { right }
            }
            None => self.row(i),
        }
        .into_iter()
        .filter(|&j| j != i && self.cells[j].line.x0 > x)
        .collect();
        let first = *right.first()?;
        Some((self.joined(&right, true), first))
    }

    /// The line right below line `i`: the nearest line starting below its middle, within
    /// the gap of one and a half line heights, overlapping it horizontally or right of it (a
    /// slip prints long values right-aligned under their label), and alone in its row right
    /// of the label's left edge (a row of its own is a value; a row of several is a label with
    /// its value).
    pub fn below(&self, i: usize) -> Option<usize> {
        let a = &self.cells[i].line;
        let gap = a.height() * 3 / 2;
        let j = (i + 1..self.cells.len())
            .filter(|&j| {
                let b = &self.cells[j].line;
                b.y0 >= a.y0 + a.height() / 2 && b.y0 <= a.y1 + gap && b.x1 > a.x0
            })
            .min_by_key(|&j| self.cells[j].line.y0)?;
        // Alone in its row from the label's left edge on: what lies left of the label (a form
        // the slip is clipped to) is no part of it.
        let alone = self
            .row(j)
            .into_iter()
            .all(|k| k == j || self.cells[k].line.x1 <= a.x0);
        alone.then_some(j)
    }

    /// The value under label `i` in a grid of label-over-value cells (`交易日期 交易时间`
    /// over `2024.06.19 11:44:49`): the nearest line below overlapping the label, within
    /// one and a half line heights, in a row that holds no label.
    fn column_below(&self, i: usize) -> Option<usize> {
        let a = &self.cells[i].line;
        let j = self.below_any(i)?;
        let values_only = self
            .row(j)
            .into_iter()
            .all(|k| !opens_with_label(&self.cells[k].compact));
        (self.cells[j].line.y0 <= a.y1 + a.height() * 3 / 2 && values_only).then_some(j)
    }

    /// A value cut by the screen's width with the line below it that completes it: a card
    /// (`中国工商银行信用卡(0` over `705)`, `退回中国农业银行信用卡` over `(0218)`), or a long
    /// number (an order number of 28 digits) run on under its own left or right edge.
    fn wrapped(&self, value: String, line: usize) -> String {
        let Some(j) = self.below(line) else {
            return value;
        };
        let next = &self.cells[j].compact;
        let open = value.matches('(').count() > value.matches(')').count() && next.contains(')');
        let tail = value.ends_with('卡') && next.starts_with('(') && next.ends_with(')');
        let (a, b) = (&self.cells[line].line, &self.cells[j].line);
        let number = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric());
        // Alone in its whole row: a number beside a label is that label's value.
        let runs_on = value.len() >= 12
            && number(&value)
            && number(next)
            && (a.x0.abs_diff(b.x0) <= a.height() || a.x1.abs_diff(b.x1) <= a.height())
            && self.row(j).len() == 1;
        if (open || tail || runs_on) && !opens_with_label(next) {
            format!("{value}{next}")
        } else {
            value
        }
    }

    /// For each line that opens with one of `labels` and holds some of its value, that value
    /// with the rest of the row joined (`卡号6200` beside `********2441`): a card number
    /// whose first group was read glued to its label and the rest as pieces of its own.
    pub fn labelled_with_row(&self, labels: &[&'static str]) -> Vec<String> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, cell)| {
                let rest = after_label(&cell.compact, labels).filter(|r| !r.is_empty())?;
                let (right, _) = self.right_of(i)?;
                Some(format!("{rest} {right}"))
            })
            .collect()
    }

    /// Every value `labels` point at. A line that starts with a label (longest label first)
    /// gives what follows the label on the line (after an English gloss in brackets and a
    /// colon); a label alone gives the rest of its row, else the line below it when that
    /// line is no label of `labels` itself.
    pub fn labelled(&self, labels: &[&'static str]) -> Vec<String> {
        let mut out = Vec::new();
        for (i, cell) in self.cells.iter().enumerate() {
            let Some(rest) = after_label(&cell.compact, labels) else {
                continue;
            };
            // A label beside a lone label (a grid of label-over-value cells) has no value
            // there.
            let right = || {
                self.right_of(i)
                    .filter(|(value, _)| !is_bare_label(&crate::text::compact(value)))
            };
            if !rest.is_empty() {
                out.push(rest);
            } else if let Some((value, line)) = right() {
                out.push(self.wrapped(value, line));
            } else if let Some(j) = self.below(i).or_else(|| self.column_below(i))
                && after_label(&self.cells[j].compact, labels).is_none()
            {
                out.push(self.cells[j].text.clone());
            }
        }
        out
    }
}

/// The page's lines turned level: a photo taken at a slant has its lines' boxes moved as
/// if the page were rotated back by the median slant of its long lines, so that a label and
/// its value far right on the same printed line share a row.
fn deskewed(page: &ScreenText) -> Vec<ScreenLine> {
    let mut angles: Vec<f32> = page
        .lines
        .iter()
        .filter(|l| l.x1.saturating_sub(l.x0) > 3 * l.height())
        .map(|l| l.angle)
        .collect();
    if angles.is_empty() {
        return page.lines.clone();
    }
    angles.sort_by(f32::total_cmp);
    let skew = angles[angles.len() / 2];
    if skew == 0.0 {
        return page.lines.clone();
    }
    let (cos, sin) = (skew.cos(), skew.sin());
    let (ox, oy) = (page.width as f32 / 2.0, page.height as f32 / 2.0);
    page.lines
        .iter()
        .map(|l| {
            let (cx, cy) = ((l.x0 + l.x1) as f32 / 2.0 - ox, l.cy() - oy);
            // The lines' own boxes stay upright; only their centres move.
            let (nx, ny) = (cx * cos + cy * sin + ox, -cx * sin + cy * cos + oy);
            let (hw, hh) = ((l.x1 - l.x0) as f32 / 2.0, l.height() as f32 / 2.0);
            let at = |v: f32| v.max(0.0) as u32;
            ScreenLine {
                x0: at(nx - hw),
                x1: at(nx + hw),
                y0: at(ny - hh),
                y1: at(ny + hh),
                ..l.clone()
            }
        })
        .collect()
}

/// A label written English first (`CARDNO(卡号):…`, `MERCHANT/商户名称:…`, `DATE日期`:
/// slips) turned Chinese first (`卡号:…`).
fn english_first(compact: &str) -> String {
    let lead = compact
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_uppercase() || matches!(c, '.' | '/')))
        .map_or(0, |(i, _)| i);
    if lead == 0 {
        return compact.to_owned();
    }
    let rest = &compact[lead..];
    if rest.chars().next().is_some_and(crate::text::is_cjk) {
        return rest.to_owned();
    }
    if let Some(inner) = rest.strip_prefix(['(', '['])
        && let Some(close) = inner.find([')', ']'])
        && inner[..close].chars().any(crate::text::is_cjk)
    {
        return format!("{}{}", &inner[..close], &inner[close + 1..]);
    }
    compact.to_owned()
}

/// Whether `compact` is a label of the vocabulary and nothing else (but a colon).
fn is_bare_label(compact: &str) -> bool {
    let compact = english_first(compact);
    let compact = compact.trim_end_matches(':');
    crate::labels::vocabulary().any(|l| compact == l)
}

/// Whether a label of the vocabulary opens `compact`.
pub fn opens_with_label(compact: &str) -> bool {
    let compact = &english_first(compact);
    crate::labels::vocabulary().any(|l| compact.starts_with(l))
}

/// What follows the longest label of the vocabulary that opens `compact`, when it is one of
/// `labels`: without a bracketed gloss
/// (`（MERCHANT NAME）`), a colon, or leading dots. `None` when no label opens it.
pub fn after_label(compact: &str, labels: &[&'static str]) -> Option<String> {
    let compact = &english_first(compact);
    let label = crate::labels::vocabulary()
        .chain(labels.iter().copied())
        .filter(|l| compact.starts_with(*l))
        .max_by_key(|l| l.len())?;
    if !labels.contains(&label) {
        return None;
    }
    let mut rest = &compact[label.len()..];
    if let Some(inner) = rest.strip_prefix(['(', '['])
        && let Some(end) = inner.find([')', ']'])
    {
        // Only an ASCII gloss or the unit (`(元)`), not a value in brackets.
        if inner[..end].is_ascii() || &inner[..end] == "元" {
            rest = &inner[end + 1..];
        }
    }
    // A gloss without brackets (`日期时间DATE/TIME`, `卡号CARDNO`): letters, no digits.
    if rest
        .chars()
        .all(|c| c.is_ascii_uppercase() || matches!(c, '/' | '.' | ' ' | ':'))
    {
        rest = "";
    }
    Some(rest.trim_start_matches([':', '.', '·', ' ']).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn page(lines: &[(u32, u32, u32, u32, &str)]) -> ScreenText {
        ScreenText {
            width: 1080,
            height: 2340,
            lines: lines
                .iter()
                .map(|&(x0, y0, x1, y1, t)| ScreenLine {
                    text: t.to_owned(),
                    x0,
                    y0,
                    x1,
                    y1,
                    angle: 0.0,
                })
                .collect(),
        }
    }

    #[test]
    fn label_then_value_in_the_row() {
        let l = Layout::new(&page(&[
            (49, 930, 230, 987, "支付时间"),
            (328, 933, 723, 986, "2024-07-05 07:52:27"),
        ]));
        let got = l.labelled(&["支付时间"]);
        assert_eq!(got[0], "2024-07-05 07:52:27");
    }

    #[test]
    fn label_with_gloss_then_value_below() {
        let l = Layout::new(&page(&[
            (128, 207, 452, 269, "商户名称（MERCHANT NAME）:"),
            (157, 249, 424, 302, "演示图文设计有限公司"),
            (122, 282, 626, 354, "商户编号（MERCHANTNO.）：88196131308"),
        ]));
        assert_eq!(l.labelled(&["商户名称"])[0], "演示图文设计有限公司");
        assert_eq!(l.labelled(&["商户编号"])[0], "88196131308");
    }

    #[test]
    fn a_value_below_ignores_what_lies_left_of_its_label() {
        // A slip clipped to an expense form: the form's items sit on the value's row.
        let l = Layout::new(&page(&[
            (293, 682, 484, 719, "卡号（CARDNO.）："),
            (165, 715, 245, 747, "材料费"),
            (552, 718, 799, 763, "621700******8234/C"),
        ]));
        assert_eq!(l.labelled(&["卡号"])[0], "621700******8234/C");
    }

    #[test]
    fn a_long_number_runs_on_under_its_edge() {
        let l = Layout::new(&page(&[
            (39, 1714, 221, 1791, "订单号"),
            (379, 1724, 1181, 1781, "20250508220080034364936816"),
            (370, 1794, 449, 1870, "35"),
            (366, 1951, 967, 2015, "T202505089667529701"),
            (48, 1952, 331, 2014, "商家订单号"),
        ]));
        assert_eq!(l.labelled(&["订单号"]), ["2025050822008003436493681635"]);
        assert_eq!(l.labelled(&["商家订单号"]), ["T202505089667529701"]);
        // Right-aligned values wrap under their right edge.
        let l = Layout::new(&page(&[
            (68, 1288, 203, 1344, "订单号"),
            (382, 1293, 1008, 1336, "202506082200301914516825711"),
            (984, 1359, 1008, 1390, "7"),
            (71, 1480, 285, 1534, "商家订单号"),
            (568, 1484, 1012, 1533, "T202506082091743080"),
        ]));
        assert_eq!(l.labelled(&["订单号"]), ["2025060822003019145168257117"]);
    }

    #[test]
    fn a_grid_of_labels_over_values_reads_by_column() {
        let l = Layout::new(&page(&[
            (268, 699, 438, 759, "交易日期"),
            (806, 699, 978, 759, "交易时间"),
            (236, 767, 473, 822, "2024.06.19"),
            (800, 766, 987, 826, "11:44:49"),
            (581, 881, 666, 938, "卡号"),
        ]));
        assert_eq!(l.labelled(&["交易日期"]), ["2024.06.19"]);
        assert_eq!(l.labelled(&["交易时间"]), ["11:44:49"]);
    }

    #[test]
    fn a_value_set_against_a_label_and_its_english_gloss() {
        let l = Layout::new(&page(&[
            (49, 579, 233, 638, "交易金额"),
            (963, 606, 1201, 667, "CNY 124.00"),
            (45, 639, 214, 693, "Amount"),
            (49, 755, 230, 815, "交易时间"),
            (698, 783, 1195, 840, "2025年11月28日22:16:21"),
            (47, 815, 273, 870, "Date / Time"),
        ]));
        assert_eq!(l.labelled(&["交易金额"]), ["CNY 124.00"]);
        assert_eq!(l.labelled(&["交易时间"]), ["2025年11月28日22:16:21"]);
    }

    #[test]
    fn a_glyph_read_in_two_overlapping_pieces_counts_once() {
        let l = Layout::new(&page(&[
            (73, 1048, 224, 1112, "6200"),
            (214, 1046, 590, 1099, "********6"),
            (558, 1047, 702, 1111, "6591"),
        ]));
        assert_eq!(l.joined_row(&l.row(0)), "6200********6591");
        // Padded boxes overlap too: different characters are not one glyph.
        let l = Layout::new(&page(&[
            (104, 810, 242, 868, "6200"),
            (212, 805, 686, 869, "********9497"),
        ]));
        assert_eq!(l.joined_row(&l.row(0)), "6200********9497");
    }

    #[test]
    fn a_value_glued_to_its_label_takes_the_rest_of_its_row() {
        let l = Layout::new(&page(&[
            (223, 370, 439, 428, "卡号6200"),
            (420, 362, 817, 427, "）********2441"),
        ]));
        assert_eq!(l.labelled(&["卡号"]), ["6200"]);
        assert_eq!(l.labelled_with_row(&["卡号"]), ["6200 )********2441"]);
    }

    #[test]
    fn a_longer_label_is_another_label() {
        assert_eq!(after_label("商家订单号T2024", &["订单号"]), None);
        assert_eq!(
            after_label("订单号123", &["订单号"]),
            Some("123".to_owned())
        );
        assert_eq!(
            after_label("商户单号可在支持的商户扫码退款", &["商户"]),
            None
        );
    }
}
