//! 电子发票（航空运输电子客票行程单）: passenger, ID, ticket number, flight segments (自/至 rows
//! under 承运人/航班号/座位等级/日期/时间) and the fare breakdown. No sample of this layout was
//! available, so values are looked for both right of and below their labels, and English
//! sub-labels (`Fare`, `Name`) are skipped.

use crate::amount;
use crate::date;
use crate::fields;
use crate::geometry::Sheet;
use crate::items::{self, Token};
use crate::labels::{Hit, Take};
use crate::text;
use domain::{AirTrip, DocumentType, FlightSegment, InvoiceRecord, Party};

pub(super) fn read(sheets: &[Sheet]) -> InvoiceRecord {
    let mut record = InvoiceRecord {
        doc_type: DocumentType::AirItinerary,
        title: sheets.first().map(fields::title).unwrap_or_default(),
        invoice_number: fields::number(sheets),
        invoice_date: fields::date(sheets),
        ..InvoiceRecord::default()
    };
    let Some(sheet) = sheets.first() else {
        return record;
    };
    let trip = AirTrip {
        passenger: text_near(sheet, &["旅客姓名"]),
        passenger_id: text_near(sheet, &["有效身份证件号码", "身份证件号码"]),
        ticket_no: text_near(sheet, &["电子客票号码", "客票号码"])
            .chars()
            .filter(|c| c.is_ascii_digit() || *c == '-')
            .collect(),
        segments: segments(sheet),
        fare: money_near(sheet, &["票价"]),
        fuel_surcharge: money_near(sheet, &["燃油附加费"]),
        caac_fund: money_near(sheet, &["民航发展基金"]),
        other_taxes: money_near(sheet, &["其他税费"]),
    };
    record.total_with_tax = money_near(sheet, &["合计"]);
    record.total_tax = money_near(sheet, &["增值税税额"]);
    record.buyer = Party {
        name: sheet
            .value_of(&["购买方名称"], &Take::text(f32::INFINITY))
            .map(|v| v.text)
            .unwrap_or_default(),
        tax_id: sheet
            .value_of(
                &["纳税人识别号", "统一社会信用代码"],
                &Take::tax_id(f32::INFINITY),
            )
            .map(|v| v.text)
            .unwrap_or_default(),
    };
    record.seller.name = text_near(sheet, &["填开单位"]);
    record.air = Some(trip);
    record
}

/// An English sub-label such as `Fare` or `Passenger`: Title-case ASCII words.
fn is_english_label(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && s.chars().any(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_alphabetic() || c == '.' || c == '/')
}

/// Tokens right of a label on its line, without colons and English sub-labels.
fn right_tokens(sheet: &Sheet, hit: &Hit) -> Vec<Token> {
    items::tokens(sheet, hit.line)
        .into_iter()
        .filter(|t| t.x >= hit.x1 - 0.1)
        .map(|mut t| {
            t.text = t.text.trim_start_matches(':').to_owned();
            t
        })
        .filter(|t| !t.text.is_empty() && !is_english_label(&t.text))
        .collect()
}

/// Tokens of the first line below a label that overlap its column.
fn below_tokens(sheet: &Sheet, hit: &Hit) -> Vec<Token> {
    let (lo, hi) = (hit.x0 - 2.0 * hit.size, hit.x1 + 2.0 * hit.size);
    for li in hit.line + 1..sheet.lines.len() {
        let Some(line) = sheet.lines.get(li) else {
            break;
        };
        if line.y - hit.y > 3.0 * hit.size {
            break;
        }
        let toks: Vec<Token> = items::tokens(sheet, li)
            .into_iter()
            .filter(|t| t.end_x > lo && t.x < hi && !is_english_label(&t.text))
            .collect();
        if !toks.is_empty() {
            return toks;
        }
    }
    Vec::new()
}

/// The label's value to its right (up to a wide gap), else below it. A value that is
/// itself a label (a colon follows it) or an English sub-label does not count.
fn text_near(sheet: &Sheet, labels: &[&str]) -> String {
    let how = Take {
        first_gap: 6.0,
        gap: 1.5,
        ..Take::text(f32::INFINITY)
    };
    for hit in labels.iter().flat_map(|l| sheet.find(l)) {
        if let Some(v) = sheet.take_after(&hit, &how)
            && !is_english_label(&v.text)
            && !followed_by_colon(sheet, hit.line, v.x1)
        {
            return v.text;
        }
        let below = below_tokens(sheet, &hit);
        if !below.is_empty() {
            return text::join_tokens(below.iter().map(|t| t.text.as_str()));
        }
    }
    String::new()
}

/// Whether the glyph right after `x` on a line is a colon (what was read is a label).
fn followed_by_colon(sheet: &Sheet, line: usize, x: f32) -> bool {
    sheet.lines.get(line).is_some_and(|l| {
        l.glyphs
            .iter()
            .find(|g| g.x0 >= x - 0.01)
            .is_some_and(|g| g.ch == ':')
    })
}

/// An amount right of the label (skipping `CNY` and sub-labels) or below it.
fn money_near(sheet: &Sheet, labels: &[&str]) -> String {
    for hit in labels.iter().flat_map(|l| sheet.find(l)) {
        // `合计` also ends `价税合计`-style labels; a bare 合计 is meant here.
        if sheet
            .glyph_before(&hit, 0.2)
            .is_some_and(|g| text::is_cjk(g.ch))
        {
            continue;
        }
        for t in right_tokens(sheet, &hit) {
            if let Some(a) = amount::normalize(&t.text) {
                return a;
            }
            if t.text != "CNY" && t.text != "¥" {
                break;
            }
        }
        if let Some(a) = below_tokens(sheet, &hit)
            .iter()
            .find_map(|t| amount::normalize(&t.text))
        {
            return a;
        }
    }
    String::new()
}

/// Flight segments: the 自 row and the 至 rows give the stations; each row but the last
/// carries the flight leaving that station, read under the header's columns.
fn segments(sheet: &Sheet) -> Vec<FlightSegment> {
    let Some(header) = sheet.find("航班号").into_iter().next() else {
        return Vec::new();
    };
    let columns: Vec<(usize, f32, f32)> = ["承运人", "航班号", "座位等级", "日期", "时间"]
        .iter()
        .enumerate()
        .filter_map(|(k, l)| sheet.find_in_line(header.line, l).map(|h| (k, h.x0, h.x1)))
        .collect();
    let left = columns.iter().map(|c| c.1).fold(f32::INFINITY, f32::min);
    let mut rows: Vec<(String, [String; 5])> = Vec::new();
    for li in header.line + 1..sheet.lines.len() {
        let toks = items::tokens(sheet, li);
        let Some(first) = toks.first() else { continue };
        let station_tok = if first.text == "自" || first.text == "至" {
            toks.iter()
                .skip(1)
                .find(|t| !is_english_label(&t.text) && t.text != "FROM" && t.text != "TO")
                .filter(|t| t.x < left - header.size)
                .map(|t| t.text.clone())
        } else {
            first.text.strip_prefix(['自', '至']).map(str::to_owned)
        };
        let Some(station) = station_tok else {
            if rows.is_empty() {
                continue;
            }
            break;
        };
        let mut cells: [String; 5] = Default::default();
        for t in toks.iter().filter(|t| t.x >= left - header.size) {
            let center = (t.x + t.end_x) / 2.0;
            let nearest = columns
                .iter()
                .min_by(|a, b| {
                    let da = (center - (a.1 + a.2) / 2.0).abs();
                    let db = (center - (b.1 + b.2) / 2.0).abs();
                    da.total_cmp(&db)
                })
                .map(|c| c.0);
            if let Some(cell) = nearest.and_then(|k| cells.get_mut(k))
                && cell.is_empty()
            {
                cell.clone_from(&t.text);
            }
        }
        rows.push((station, cells));
    }
    rows.windows(2)
        .filter_map(|w| {
            let (from, cells) = w.first()?;
            let (to, _) = w.get(1)?;
            let [carrier, flight_no, seat_class, day, time] = cells.clone();
            if flight_no.is_empty() && carrier.is_empty() {
                return None;
            }
            Some(FlightSegment {
                from: from.clone(),
                to: to.clone(),
                carrier,
                flight_no,
                seat_class,
                date: date::parse_date(&day).unwrap_or(day),
                time,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tests::{run, sheet};

    #[test]
    fn reads_an_itinerary() {
        let s = sheet(vec![
            run("发票号码:24110000000000000001", 420.0, 40.0),
            run("开票日期:2024年05月02日", 420.0, 55.0),
            run("旅客姓名", 20.0, 80.0),
            run("张三", 70.0, 80.0),
            run("有效身份证件号码", 150.0, 80.0),
            run("110101199001011234", 230.0, 80.0),
            run("自", 20.0, 110.0),
            run("承运人", 120.0, 110.0),
            run("航班号", 170.0, 110.0),
            run("座位等级", 220.0, 110.0),
            run("日期", 280.0, 110.0),
            run("时间", 330.0, 110.0),
            run("自", 20.0, 125.0),
            run("北京首都", 35.0, 125.0),
            run("国航", 122.0, 125.0),
            run("CA1501", 170.0, 125.0),
            run("Y", 235.0, 125.0),
            run("2024-05-01", 270.0, 125.0),
            run("08:00", 330.0, 125.0),
            run("至", 20.0, 140.0),
            run("上海虹桥", 35.0, 140.0),
            run("票价", 20.0, 170.0),
            run("Fare", 42.0, 170.0),
            run("燃油附加费", 120.0, 170.0),
            run("民航发展基金", 220.0, 170.0),
            run("其他税费", 320.0, 170.0),
            run("合计", 420.0, 170.0),
            run("CNY1000.00", 20.0, 185.0),
            run("CNY50.00", 120.0, 185.0),
            run("CNY50.00", 220.0, 185.0),
            run("0.00", 320.0, 185.0),
            run("CNY1100.00", 420.0, 185.0),
            run("电子客票号码", 20.0, 215.0),
            run("9991234567890", 90.0, 215.0),
            run("购买方名称:某某科技有限公司", 20.0, 260.0),
        ]);
        let r = read(&[s]);
        assert_eq!(r.doc_type, DocumentType::AirItinerary);
        assert_eq!(r.invoice_number, "24110000000000000001");
        assert_eq!(r.invoice_date, "2024/05/02");
        assert_eq!(r.total_with_tax, "1100.00");
        assert_eq!(r.buyer.name, "某某科技有限公司");
        let a = r.air.unwrap();
        assert_eq!(a.passenger, "张三");
        assert_eq!(a.passenger_id, "110101199001011234");
        assert_eq!(a.ticket_no, "9991234567890");
        assert_eq!(a.fare, "1000.00");
        assert_eq!(a.fuel_surcharge, "50.00");
        assert_eq!(a.caac_fund, "50.00");
        assert_eq!(a.other_taxes, "0.00");
        assert_eq!(a.segments.len(), 1);
        let seg = &a.segments[0];
        assert_eq!(seg.from, "北京首都");
        assert_eq!(seg.to, "上海虹桥");
        assert_eq!(seg.carrier, "国航");
        assert_eq!(seg.flight_no, "CA1501");
        assert_eq!(seg.seat_class, "Y");
        assert_eq!(seg.date, "2024/05/01");
        assert_eq!(seg.time, "08:00");
    }
}
