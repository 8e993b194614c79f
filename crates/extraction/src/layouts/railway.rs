//! 电子发票（铁路电子客票）: number, date, 票价, the trip (stations around the train number,
//! travel date/time/seat line, masked passenger ID and name, 电子客票号) and the buyer,
//! cross-checked against the embedded `rai_issuer_*.xml` XBRL.

use super::Attachment;
use crate::amount;
#[cfg(feature = "xml")]
use crate::crosscheck;
use crate::date;
#[cfg(feature = "xml")]
use crate::dom;
use crate::fields;
use crate::geometry::Sheet;
use crate::items::{self, Token};
use crate::labels::Take;
use crate::text;
#[cfg(feature = "xml")]
use crate::xml;
#[cfg(feature = "xml")]
use domain::FieldFlag;
use domain::{DocumentType, InvoiceRecord, Party, RailwayTrip};

pub(super) fn read(sheets: &[Sheet], attachments: &[Attachment<'_>]) -> InvoiceRecord {
    let mut record = InvoiceRecord {
        doc_type: DocumentType::Railway,
        title: sheets.first().map(fields::title).unwrap_or_default(),
        invoice_number: fields::number(sheets),
        invoice_date: fields::date(sheets),
        ..InvoiceRecord::default()
    };
    let mut trip = RailwayTrip::default();
    if let Some(sheet) = sheets.first() {
        record.total_with_tax = fare(sheet);
        record.buyer = buyer(sheet);
        read_trip(sheet, &mut trip);
    }
    #[cfg(feature = "xml")]
    with_xbrl(&mut record, &mut trip, attachments);
    #[cfg(not(feature = "xml"))]
    let _ = attachments;
    record.railway = Some(trip);
    record
}

/// What the embedded `rai_issuer_*.xml` XBRL adds to the ticket, and its cross-check.
#[cfg(feature = "xml")]
fn with_xbrl(record: &mut InvoiceRecord, trip: &mut RailwayTrip, attachments: &[Attachment<'_>]) {
    let parsed = attachments
        .iter()
        .filter(|a| a.name.to_ascii_lowercase().ends_with(".xml"))
        .filter_map(|a| dom::parse(a.data).ok())
        .find_map(|root| xml::railway(&root));
    if let Some(x) = parsed {
        // The ticket does not print the pre-tax split; the XBRL is its only source.
        record.total_amount = x.total_amount.clone();
        record.total_tax = x.total_tax.clone();
        fill_trip(record, trip, &x.trip);
        if record.buyer.name.is_empty() {
            record.buyer = x.buyer.clone();
        }
        crosscheck::against(record, "xml", &x.witness, true);
    }
}

/// 票价 (or the fee of a refund/change ticket).
fn fare(sheet: &Sheet) -> String {
    sheet
        .value_of(&["票价", "退票费", "改签费"], &Take::money())
        .and_then(|v| amount::normalize(&v.text))
        .unwrap_or_default()
}

fn buyer(sheet: &Sheet) -> Party {
    let text_value = |labels: &[&str], how: &Take| {
        sheet
            .value_of(labels, how)
            .map(|v| v.text)
            .unwrap_or_default()
    };
    Party {
        name: text_value(&["购买方名称"], &Take::text(f32::INFINITY)),
        tax_id: text_value(
            &["统一社会信用代码", "纳税人识别号"],
            &Take::tax_id(f32::INFINITY),
        ),
    }
}

/// A train number: an optional letter and up to five digits (`G883`, `K1`, `1461`).
fn is_train_no(s: &str) -> bool {
    let digits = s.trim_start_matches(|c: char| c.is_ascii_uppercase());
    let letters = s.len() - digits.len();
    letters <= 1 && (1..=5).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
}

fn station(s: &str) -> String {
    s.strip_suffix('站').unwrap_or(s).to_owned()
}

fn is_cjk_word(s: &str) -> bool {
    !s.is_empty() && s.chars().all(text::is_cjk)
}

/// Tokens of a line with CJK text drawn glyph by glyph joined back into words.
fn words(sheet: &Sheet, line: usize) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    for t in items::tokens(sheet, line) {
        match out.last_mut() {
            Some(prev)
                if t.x - prev.end_x <= 1.2 * t.size.min(prev.size)
                    && prev.text.chars().next_back().is_some_and(text::is_cjk)
                    && t.text.chars().next().is_some_and(text::is_cjk) =>
            {
                prev.text.push_str(&t.text);
                prev.end_x = t.end_x;
            }
            _ => out.push(t),
        }
    }
    out
}

fn read_trip(sheet: &Sheet, trip: &mut RailwayTrip) {
    for li in 0..sheet.lines.len() {
        let toks = words(sheet, li);
        let line_text: String = toks.iter().map(|t| t.text.as_str()).collect();
        if trip.train_no.is_empty() {
            stations(&toks, trip);
        }
        if trip.travel_date.is_empty() && line_text.contains('开') {
            travel(&toks, &line_text, trip);
        }
        if trip.passenger_id.is_empty() {
            passenger(&toks, trip);
        }
    }
    if let Some(v) = sheet.value_of(&["电子客票号"], &Take::digits(1.0)) {
        trip.ticket_no = v.text;
    }
}

/// `长沙南站 G883 广州南站`.
fn stations(toks: &[Token], trip: &mut RailwayTrip) {
    for (i, t) in toks.iter().enumerate() {
        if !is_train_no(&t.text) {
            continue;
        }
        let (Some(from), Some(to)) = (i.checked_sub(1).and_then(|j| toks.get(j)), toks.get(i + 1))
        else {
            continue;
        };
        if is_cjk_word(&from.text) && is_cjk_word(&to.text) {
            trip.train_no = t.text.clone();
            trip.from_station = station(&from.text);
            trip.to_station = station(&to.text);
            return;
        }
    }
}

/// `2025年02月20日 16:32开 04车02A号 二等座`.
fn travel(toks: &[Token], line_text: &str, trip: &mut RailwayTrip) {
    let (Some(d), Some(t)) = (date::parse_date(line_text), date::parse_time(line_text)) else {
        return;
    };
    trip.travel_date = d;
    trip.departure_time = t;
    for tok in toks {
        let s = tok.text.as_str();
        if s.contains('车')
            && (s.ends_with('号')
                || s.ends_with("号铺")
                || s.contains("号上")
                || s.contains("号下"))
        {
            trip.seat = s.to_owned();
        } else if s.ends_with('座') || s.ends_with('卧') || s.ends_with('铺') {
            if s.contains("车") {
                trip.seat = s.to_owned();
            } else {
                trip.seat_class = s.to_owned();
            }
        }
    }
}

/// `3207051981****2012 张三`.
fn passenger(toks: &[Token], trip: &mut RailwayTrip) {
    for (i, t) in toks.iter().enumerate() {
        let s = t.text.as_str();
        let masked = s.contains('*')
            && s.chars().filter(char::is_ascii_digit).count() >= 6
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '*');
        if !masked {
            continue;
        }
        trip.passenger_id = s.to_owned();
        if let Some(name) = toks.get(i + 1).filter(|n| !n.text.contains(':')) {
            trip.passenger = name.text.clone();
        } else if let Some(name) = i.checked_sub(1).and_then(|j| toks.get(j)) {
            trip.passenger = name.text.clone();
        }
        return;
    }
}

/// Fills trip fields the text lacks from the XBRL, flagging each fill.
#[cfg(feature = "xml")]
fn fill_trip(record: &mut InvoiceRecord, trip: &mut RailwayTrip, x: &RailwayTrip) {
    let pairs: [(&str, &mut String, &String); 10] = [
        ("railway.passenger", &mut trip.passenger, &x.passenger),
        (
            "railway.passenger_id",
            &mut trip.passenger_id,
            &x.passenger_id,
        ),
        ("railway.train_no", &mut trip.train_no, &x.train_no),
        (
            "railway.from_station",
            &mut trip.from_station,
            &x.from_station,
        ),
        ("railway.to_station", &mut trip.to_station, &x.to_station),
        ("railway.travel_date", &mut trip.travel_date, &x.travel_date),
        (
            "railway.departure_time",
            &mut trip.departure_time,
            &x.departure_time,
        ),
        ("railway.seat_class", &mut trip.seat_class, &x.seat_class),
        ("railway.seat", &mut trip.seat, &x.seat),
        ("railway.ticket_no", &mut trip.ticket_no, &x.ticket_no),
    ];
    for (field, mine, theirs) in pairs {
        if mine.is_empty() && !theirs.is_empty() {
            mine.clone_from(theirs);
            record.flags.push(FieldFlag {
                field: field.to_owned(),
                value: String::new(),
                source: "xml".to_owned(),
                other: theirs.clone(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tests::{run, sheet};

    fn ticket() -> Sheet {
        sheet(vec![
            run("发票号码:25000000000000000001", 25.5, 55.0),
            run("湖", 200.0, 55.0),
            run("开票日期:2025年03月03日", 300.0, 55.0),
            run("长沙南站", 96.0, 98.0),
            run("G883", 200.0, 98.0),
            run("广州南站", 300.0, 98.0),
            run("2025年02月20日", 25.5, 143.5),
            run("16:32开", 110.0, 143.5),
            run("04车02A号", 200.0, 143.5),
            run("二等座", 300.0, 143.5),
            run("票价:", 25.5, 178.5),
            run("￥377.00", 50.0, 178.5),
            run("3207051981****2012", 25.5, 232.5),
            run("张三", 120.0, 232.5),
            run("电子客票号:6581876086022190319642025", 25.5, 289.2),
            run("购买方名称:某某科技有限公司", 25.5, 313.5),
            run("统一社会信用代码:91330108MA27Y5XH5G", 300.0, 313.5),
        ])
    }

    #[test]
    fn reads_the_ticket() {
        let r = read(&[ticket()], &[]);
        assert_eq!(r.doc_type, DocumentType::Railway);
        assert_eq!(r.invoice_number, "25000000000000000001");
        assert_eq!(r.invoice_date, "2025/03/03");
        assert_eq!(r.total_with_tax, "377.00");
        assert_eq!(r.buyer.name, "某某科技有限公司");
        assert_eq!(r.buyer.tax_id, "91330108MA27Y5XH5G");
        let t = r.railway.unwrap();
        assert_eq!(t.train_no, "G883");
        assert_eq!(t.from_station, "长沙南");
        assert_eq!(t.to_station, "广州南");
        assert_eq!(t.travel_date, "2025/02/20");
        assert_eq!(t.departure_time, "16:32");
        assert_eq!(t.seat, "04车02A号");
        assert_eq!(t.seat_class, "二等座");
        assert_eq!(t.passenger_id, "3207051981****2012");
        assert_eq!(t.passenger, "张三");
        assert_eq!(t.ticket_no, "6581876086022190319642025");
    }

    #[test]
    #[cfg(feature = "xml")]
    fn xml_confirms_or_flags() {
        let xml = |fare: &str| {
            format!(
                "<xbrl><ElectronicInvoiceRailwayETicketNumber>25000000000000000001</ElectronicInvoiceRailwayETicketNumber>\
                 <DateOfIssue>2025-03-03</DateOfIssue><Fare>{fare}</Fare>\
                 <TotalAmountExcludingTax>345.87</TotalAmountExcludingTax><TaxAmount>31.13</TaxAmount></xbrl>"
            )
        };
        let good = xml("377.00");
        let bad = xml("376.00");
        fn att(data: &str) -> Attachment<'_> {
            Attachment {
                name: "rai_issuer_x.xml",
                data: data.as_bytes(),
            }
        }
        let r = read(&[ticket()], &[att(&good)]);
        assert_eq!(r.confirmed_by, ["xml"]);
        assert_eq!(r.total_amount, "345.87");
        assert_eq!(r.total_tax, "31.13");
        let r = read(&[ticket()], &[att(&bad)]);
        assert!(r.confirmed_by.is_empty());
        assert_eq!(r.flags[0].field, "total_with_tax");
        assert_eq!(r.total_with_tax, "377.00");
    }

    #[test]
    fn spaced_out_stations_are_joined() {
        let s = sheet(vec![
            run("长", 96.0, 98.0),
            run("沙", 110.0, 98.0),
            run("南", 124.0, 98.0),
            run("站", 138.0, 98.0),
            run("G883", 200.0, 98.0),
            run("广州南站", 300.0, 98.0),
        ]);
        let mut trip = RailwayTrip::default();
        read_trip(&s, &mut trip);
        assert_eq!(trip.from_station, "长沙南");
        assert_eq!(trip.to_station, "广州南");
    }

    #[test]
    fn train_numbers() {
        assert!(is_train_no("G883"));
        assert!(is_train_no("1461"));
        assert!(is_train_no("K1"));
        assert!(!is_train_no("GG1"));
        assert!(!is_train_no("G"));
        assert!(!is_train_no("票价"));
    }
}
