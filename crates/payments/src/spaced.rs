//! Letter-spaced labels. A slip prints a short label spread over the width of its column
//! (`凭  证  号`, `金      额`); detection then gives a line per character or two, and the
//! label is lost (or its last character is read glued to the value: `额RMB135.64`). Such
//! pieces of a row are joined back into one line when, together, they open with a label of
//! the vocabulary.

use crate::layout::opens_with_label;
use crate::lines::ScreenLine;
use crate::text;

/// The farthest a piece may lie from the next, in line heights.
const GAP: u32 = 3;

/// The number of ideographs of a line of one or two ideographs: what a letter-spaced label
/// falls into.
fn piece_len(line: &ScreenLine) -> Option<usize> {
    let t = text::folded_compact(&line.text);
    let n = t.chars().count();
    ((1..=2).contains(&n) && t.chars().all(text::is_cjk)).then_some(n)
}

fn is_piece(line: &ScreenLine) -> bool {
    piece_len(line).is_some()
}

fn is_single(line: &ScreenLine) -> bool {
    piece_len(line) == Some(1)
}

fn starts_with_ideograph(line: &ScreenLine) -> bool {
    text::folded_compact(&line.text)
        .chars()
        .next()
        .is_some_and(text::is_cjk)
}

/// The nearest line right of `from` in its row, close enough to continue it.
fn next_in_row(lines: &[ScreenLine], taken: &[bool], from: &ScreenLine) -> Option<usize> {
    let height = from.height().max(1);
    (0..lines.len())
        .filter(|&j| {
            let b = &lines[j];
            !taken[j]
                && b.x0 > (from.x0 + from.x1) / 2
                && b.x0 <= from.x1 + GAP * height.max(b.height())
                && from.shares_row(b)
        })
        .min_by_key(|&j| lines[j].x0)
}

/// The lines with each letter-spaced label joined into one line.
pub(crate) fn joined(mut lines: Vec<ScreenLine>) -> Vec<ScreenLine> {
    lines.sort_by_key(|l| l.x0);
    let mut taken = vec![false; lines.len()];
    let mut out = Vec::with_capacity(lines.len());
    for i in 0..lines.len() {
        if taken[i] || !is_piece(&lines[i]) {
            continue;
        }
        // The run: pieces left to right, then maybe the line they run into.
        let mut run = vec![i];
        let mut seen = taken.clone();
        seen[i] = true;
        while let Some(j) = next_in_row(&lines, &seen, &lines[run[run.len() - 1]]) {
            seen[j] = true;
            run.push(j);
            if !is_piece(&lines[j]) {
                if !starts_with_ideograph(&lines[j]) {
                    run.pop();
                }
                break;
            }
        }
        // The longest start of the run that has a lone character and opens with a label.
        let Some(len) = (2..=run.len()).rev().find(|&len| {
            let part = &run[..len];
            part.iter().any(|&k| is_single(&lines[k]))
                && opens_with_label(&text::folded_compact(&concat(&lines, part)))
        }) else {
            continue;
        };
        let part = &run[..len];
        let mut merged = lines[part[0]].clone();
        merged.text = concat(&lines, part);
        for &k in part {
            let l = &lines[k];
            (merged.x0, merged.y0) = (merged.x0.min(l.x0), merged.y0.min(l.y0));
            (merged.x1, merged.y1) = (merged.x1.max(l.x1), merged.y1.max(l.y1));
            taken[k] = true;
        }
        out.push(merged);
    }
    out.extend(
        lines
            .into_iter()
            .zip(taken)
            .filter(|(_, t)| !t)
            .map(|(l, _)| l),
    );
    out
}

fn concat(lines: &[ScreenLine], part: &[usize]) -> String {
    part.iter().map(|&k| lines[k].text.trim()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(x0: u32, y0: u32, x1: u32, y1: u32, text: &str) -> ScreenLine {
        ScreenLine {
            text: text.to_owned(),
            x0,
            y0,
            x1,
            y1,
            angle: 0.0,
        }
    }

    fn texts(lines: Vec<ScreenLine>) -> Vec<String> {
        let mut t: Vec<String> = joined(lines).into_iter().map(|l| l.text).collect();
        t.sort();
        t
    }

    #[test]
    fn a_spaced_label_is_joined_and_its_value_left_alone() {
        let got = texts(vec![
            line(157, 716, 186, 744, "凭"),
            line(181, 713, 237, 743, "证"),
            line(233, 710, 282, 742, "号"),
            line(304, 707, 392, 740, "088912"),
        ]);
        assert_eq!(got, ["088912", "凭证号"]);
    }

    #[test]
    fn a_last_character_glued_to_the_value_joins_the_label() {
        let got = texts(vec![
            line(165, 943, 214, 984, "金"),
            line(297, 928, 572, 981, "额RMB135.64"),
        ]);
        assert_eq!(got, ["金额RMB135.64"]);
    }

    #[test]
    fn pieces_that_make_no_label_stay_apart() {
        let got = texts(vec![
            line(164, 786, 181, 804, "会"),
            line(203, 794, 239, 823, "考"),
            line(235, 790, 285, 823, "号"),
        ]);
        assert_eq!(got, ["会", "号", "考"]);
        // A label and its value of two characters each: nothing letter-spaced.
        let got = texts(vec![
            line(40, 500, 120, 540, "状态"),
            line(300, 500, 380, 540, "成功"),
        ]);
        assert_eq!(got, ["成功", "状态"]);
    }

    #[test]
    fn pieces_of_different_rows_stay_apart() {
        let got = texts(vec![
            line(96, 828, 124, 874, "日"),
            line(192, 900, 226, 935, "期"),
        ]);
        assert_eq!(got, ["日", "期"]);
    }
}
