//! Invoice totals: the 合计 row (pre-tax amount and tax), 价税合计（小写） and its 大写 form.

use crate::amount;
use crate::geometry::{Glyph, Sheet};
use crate::items::{self, Col};
use crate::labels::Take;
use crate::words;

/// Totals as printed, amounts with two decimals (empty when absent).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Totals {
    pub amount: String,
    pub tax: String,
    pub with_tax: String,
    pub words: String,
}

/// Reads the totals from the last sheet that prints them (items run over earlier pages).
pub(crate) fn totals(sheets: &[Sheet]) -> Totals {
    let mut out = Totals::default();
    let Some(sheet) = sheets
        .iter()
        .rev()
        .find(|s| !s.find("价税合计").is_empty() || !s.find("小写").is_empty())
    else {
        return out;
    };
    out.with_tax = with_tax(sheet).unwrap_or_default();
    out.words = in_words(sheet);
    // The 合计 row may sit on the same sheet or, rarely, on the page before.
    let sum = sheets.iter().rev().find_map(sum_row);
    if let Some((a, t)) = sum {
        out.amount = a;
        out.tax = t;
    }
    out
}

/// 价税合计（小写）: after `小写`, else the last amount on the 价税合计 line.
fn with_tax(sheet: &Sheet) -> Option<String> {
    if let Some(v) = sheet.value_of(&["小写"], &Take::money())
        && let Some(a) = amount::normalize(&v.text)
    {
        return Some(a);
    }
    let hit = sheet.find("价税合计").into_iter().next()?;
    items::tokens(sheet, hit.line)
        .iter()
        .filter(|t| t.x >= hit.x1)
        .filter_map(|t| amount::normalize(&t.text))
        .next_back()
}

/// The 大写 amount's characters as printed.
fn in_words(sheet: &Sheet) -> String {
    for hit in sheet.find("大写") {
        let Some(line) = sheet.lines.get(hit.line) else {
            continue;
        };
        let same_line = line.glyphs.get(hit.end..).unwrap_or_default();
        let found = words_in(same_line.iter());
        if !found.is_empty() {
            return found;
        }
        let near = words_in(sheet.glyphs_right_of(&hit).iter());
        if !near.is_empty() {
            return near;
        }
    }
    String::new()
}

/// The capital-amount characters at the start of `glyphs` (leading brackets and marks
/// skipped), stopping at the first other character or at the 小写 figures.
fn words_in<'a>(glyphs: impl Iterator<Item = &'a Glyph>) -> String {
    let mut out = String::new();
    for g in glyphs {
        if words::is_words_char(g.ch) {
            out.push(g.ch);
        } else if !out.is_empty() || g.ch.is_ascii_digit() || g.ch == '¥' {
            break;
        }
    }
    out
}

/// The 合计 row's amount and tax (tax `***` on all-exempt invoices counts as zero).
fn sum_row(sheet: &Sheet) -> Option<(String, String)> {
    let hit = sheet.find("合计").into_iter().find(|h| {
        sheet
            .lines
            .get(h.line)
            .is_some_and(|l| !l.text().contains("价税合计"))
    })?;
    let table = items::find_table(sheet);
    let mut amount_cell = None;
    let mut tax_cell = None;
    let values: Vec<(String, f32, f32, f32)> = items::tokens(sheet, hit.line)
        .into_iter()
        .filter(|t| t.x >= hit.x1)
        .filter_map(|t| {
            let v = if t.text.chars().all(|c| c == '*') {
                Some(amount::format_cents(0))
            } else {
                amount::normalize(&t.text)
            };
            v.map(|v| (v, t.x, t.end_x, t.size))
        })
        .collect();
    match &table {
        Some(table) if table.column(Col::Tax).is_some() => {
            for (v, x, end_x, size) in &values {
                match table.column_of(*x, *end_x, *size) {
                    Some(Col::Tax) => tax_cell = Some(v.clone()),
                    Some(_) => amount_cell = Some(v.clone()),
                    None => {}
                }
            }
        }
        _ => {
            amount_cell = values.first().map(|v| v.0.clone());
            tax_cell = values.get(1).map(|v| v.0.clone());
        }
    }
    if amount_cell.is_none() && tax_cell.is_none() {
        return None;
    }
    Some((
        amount_cell.unwrap_or_default(),
        tax_cell.unwrap_or_default(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tests::{run, sheet};

    fn header(y: f32) -> Vec<crate::geometry::Run> {
        vec![
            run("项目名称", 45.0, y),
            run("金额", 407.0, y),
            run("税率/征收率", 446.0, y),
            run("税额", 551.0, y),
        ]
    }

    #[test]
    fn reads_sum_row_words_and_figures() {
        let mut runs = header(158.0);
        runs.push(run("合", 58.0, 268.0));
        runs.push(run("计", 103.0, 268.0));
        runs.push(run("¥", 401.5, 268.0));
        runs.push(run("648.51", 406.0, 268.0));
        runs.push(run("¥6.49", 560.0, 268.0));
        runs.push(run("价税合计(大写)", 48.0, 286.0));
        runs.push(run("⊗陆佰伍拾伍圆整", 190.0, 286.0));
        runs.push(run("(小写)¥655.00", 448.0, 286.0));
        let t = totals(&[sheet(runs)]);
        assert_eq!(t.amount, "648.51");
        assert_eq!(t.tax, "6.49");
        assert_eq!(t.with_tax, "655.00");
        assert_eq!(t.words, "陆佰伍拾伍圆整");
    }

    #[test]
    fn colon_and_full_width_yen_variants() {
        let runs = vec![
            run("价税合计（大写）", 54.0, 283.0),
            run("壹仟贰佰伍拾元整", 150.0, 283.0),
            run("（小写）：", 400.0, 283.0),
            run("￥1,250.00", 450.0, 283.0),
        ];
        let t = totals(&[sheet(runs)]);
        assert_eq!(t.with_tax, "1250.00");
        assert_eq!(t.words, "壹仟贰佰伍拾元整");
    }

    #[test]
    fn exempt_tax_stars_count_as_zero_and_last_page_wins() {
        let mut p1 = header(158.0);
        p1.push(run("小计", 58.0, 268.0));
        let mut p2 = header(158.0);
        p2.push(run("合计", 58.0, 268.0));
        p2.push(run("¥105.00", 400.0, 268.0));
        p2.push(run("***", 560.0, 268.0));
        p2.push(run("价税合计(大写)壹佰零伍圆整(小写)¥105.00", 48.0, 286.0));
        let t = totals(&[sheet(p1), sheet(p2)]);
        assert_eq!(t.amount, "105.00");
        assert_eq!(t.tax, "0.00");
        assert_eq!(t.with_tax, "105.00");
    }
}
