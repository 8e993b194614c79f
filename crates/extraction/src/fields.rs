//! Header and footer fields every layout prints beside a label: title, 发票号码, 发票代码,
//! 开票日期, 校验码, 开票人 and the 备注 area.

use crate::date;
use crate::geometry::Sheet;
use crate::labels::Take;
use crate::parties::{self, BlockKind};

/// The printed title: the largest text on the line naming the document (`…发票…`,
/// `…行程单`, `…票据…`), without the smaller seal characters drawn over it.
pub(crate) fn title(sheet: &Sheet) -> String {
    let best = sheet
        .lines
        .iter()
        .filter(|l| {
            let t = l.text();
            t.contains("发票") || t.contains("行程单") || t.contains("票据")
        })
        .max_by(|a, b| a.size().total_cmp(&b.size()));
    let Some(line) = best else {
        return String::new();
    };
    let big = 0.75 * line.size();
    let raw: String = line
        .glyphs
        .iter()
        .filter(|g| g.size >= big)
        .map(|g| g.ch)
        .collect();
    trim_title(&raw)
}

/// Cuts a title after its closing bracket or its last `发票`/`行程单`, dropping labels and
/// seal characters that share its line.
fn trim_title(raw: &str) -> String {
    let end = if let Some(open) = raw.find('(') {
        raw.get(open..)
            .and_then(|rest| rest.find(')'))
            .map(|close| open + close + ')'.len_utf8())
    } else {
        None
    };
    let end = end.or_else(|| {
        ["行程单", "发票"]
            .iter()
            .filter_map(|k| raw.rfind(k).map(|i| i + k.len()))
            .max()
    });
    let cut = end.and_then(|e| raw.get(..e)).unwrap_or(raw);
    // Leading labels printed at the same size (rare) are not part of the title.
    cut.trim_start_matches(|c: char| !crate::text::is_cjk(c))
        .to_owned()
}

/// 发票号码: the first labelled run of digits on any sheet.
pub(crate) fn number(sheets: &[Sheet]) -> String {
    first_value(sheets, &["发票号码"], &Take::digits(1.0))
}

/// 发票代码 (old formats).
pub(crate) fn code(sheets: &[Sheet]) -> String {
    first_value(sheets, &["发票代码"], &Take::digits(1.0))
}

/// 校验码, digits only (printed in groups of five).
pub(crate) fn check_code(sheets: &[Sheet]) -> String {
    first_value(sheets, &["校验码"], &Take::digits(2.5))
}

/// 开票日期 as `YYYY/MM/DD`.
pub(crate) fn date(sheets: &[Sheet]) -> String {
    sheets
        .iter()
        .flat_map(|s| s.find("开票日期").into_iter().map(move |h| (s, h)))
        .find_map(|(s, h)| {
            s.take_after(&h, &Take::date())
                .and_then(|v| date::parse_date(&v.text))
        })
        .unwrap_or_default()
}

/// 开票人, read close to its label so that an empty field does not pick up the next label.
pub(crate) fn issuer(sheets: &[Sheet]) -> String {
    let how = Take {
        first_gap: 4.0,
        gap: 2.0,
        ..Take::text(f32::INFINITY)
    };
    for sheet in sheets {
        for hit in sheet.find("开票人") {
            let Some(v) = sheet.take_after(&hit, &how) else {
                continue;
            };
            if is_next_label(sheet, hit.line, v.x1) {
                continue;
            }
            return v.text;
        }
    }
    String::new()
}

/// Whether a colon follows right after `x` on the line (the value read was a label).
fn is_next_label(sheet: &Sheet, line: usize, x: f32) -> bool {
    sheet.lines.get(line).is_some_and(|l| {
        l.glyphs
            .iter()
            .find(|g| g.x0 >= x - 0.01)
            .is_some_and(|g| g.ch == ':')
    })
}

fn first_value(sheets: &[Sheet], labels: &[&str], how: &Take) -> String {
    sheets
        .iter()
        .find_map(|s| s.value_of(labels, how))
        .map(|v| v.text)
        .unwrap_or_default()
}

/// The 备注 area: lines between 价税合计 and the signature line (收款人/开票人), right of
/// the vertical 备注 label. Lines are joined with `; `.
pub(crate) fn remark(sheet: &Sheet) -> String {
    let Some(totals) = sheet.find("价税合计").into_iter().next() else {
        return String::new();
    };
    let signature = ["开票人", "收款人"]
        .iter()
        .flat_map(|l| sheet.find(l))
        .map(|h| h.line)
        .filter(|&line| line > totals.line)
        .min()
        .unwrap_or(sheet.lines.len());
    let blocks = parties::blocks(sheet);
    let remark_block = blocks
        .iter()
        .filter(|b| b.kind == BlockKind::Remark && b.top > totals.y - 5.0)
        .min_by(|a, b| a.top.total_cmp(&b.top));
    let x0 = remark_block.map_or(0.0, |b| b.x + 0.6 * b.size);
    let lines: Vec<String> = (totals.line + 1..signature)
        .filter_map(|i| {
            let t = sheet.spaced_text(i, x0, f32::INFINITY);
            let t = t.trim_start_matches("备注").trim_start_matches(':').trim();
            (!t.is_empty()).then(|| t.to_owned())
        })
        .collect();
    lines.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Run;
    use crate::geometry::tests::{run, sheet};

    fn big(text: &str, x: f32, y: f32, size: f32) -> Run {
        Run::new(text, x, y, x + size * text.chars().count() as f32, size)
    }

    #[test]
    fn title_drops_seal_characters_and_labels() {
        let s = sheet(vec![
            big("电⼦发票（增值税专用发票）", 164.0, 37.0, 20.0),
            big("统一发", 300.0, 37.0, 7.0),
            run("发票号码:24942000000003727672", 438.0, 40.0),
        ]);
        assert_eq!(title(&s), "电子发票(增值税专用发票)");
        let s = sheet(vec![
            big("天津增值税电子普通发票", 186.0, 40.9, 20.0),
            big("统", 290.0, 40.0, 9.0),
        ]);
        assert_eq!(title(&s), "天津增值税电子普通发票");
    }

    #[test]
    fn header_fields() {
        let s = sheet(vec![
            run("发票代码:", 434.0, 19.0),
            run("037021700211", 470.0, 19.0),
            run("开票日期:", 434.0, 54.0),
            run("2018", 470.0, 54.0),
            run("年10月22日", 492.0, 54.0),
            run("校", 31.0, 71.0),
            run("验", 41.0, 71.0),
            run("码:15842", 51.0, 71.0),
            run("56445", 90.0, 71.0),
            run("收款人:小雨", 33.0, 363.7),
            run("开票人:小王", 150.0, 363.7),
            run("销售方:(章)", 300.0, 363.7),
        ]);
        let sheets = [s];
        assert_eq!(code(&sheets), "037021700211");
        assert_eq!(date(&sheets), "2018/10/22");
        assert_eq!(check_code(&sheets), "1584256445");
        assert_eq!(issuer(&sheets), "小王");
    }

    #[test]
    fn empty_issuer_does_not_take_the_next_label() {
        let sheets = [sheet(vec![
            run("开票人:", 150.0, 363.7),
            run("销售方:(章)", 185.0, 363.7),
        ])];
        assert_eq!(issuer(&sheets), "");
    }

    #[test]
    fn remark_is_right_of_its_label_between_totals_and_signatures() {
        let s = sheet(vec![
            run("价税合计(大写)", 61.0, 283.9),
            run("名称:某某航空服务有限公司", 48.0, 303.5),
            run("2024-01-23", 370.0, 303.5),
            run("08:00", 420.0, 303.5),
            run("备", 351.0, 309.5),
            run("注", 351.0, 338.3),
            run("收款人:某", 30.9, 361.1),
        ]);
        assert_eq!(remark(&s), "2024-01-23 08:00");
    }
}
