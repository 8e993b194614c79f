//! Cross-checks of the text layer against independent sources: the 大写 amount, the
//! arithmetic of items and totals, an embedded or sibling XML, OFD metadata and the QR code.
//! Agreement adds the source to `confirmed_by`; disagreement adds a [`FieldFlag`] and keeps
//! the printed value. A value missing from the text may be filled from a source, flagged.

use crate::amount;
use crate::date;
use crate::words;
use domain::{DocumentType, FieldFlag, InvoiceRecord};

/// The QR code's fields, as `invoice_qr` decodes them (`date` is `YYYYMMDD`). Kept separate
/// from that crate's type so this module does not depend on it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct QrFields {
    pub kind: String,
    pub code: String,
    pub number: String,
    pub amount: String,
    pub date: String,
    pub check_code: String,
}

/// Values an independent source states, any of them optional.
#[cfg(feature = "xml")]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Witness {
    pub number: Option<String>,
    /// `YYYY/MM/DD`.
    pub date: Option<String>,
    pub total_amount: Option<String>,
    pub total_tax: Option<String>,
    pub total_with_tax: Option<String>,
}

pub(crate) fn flag(
    record: &mut InvoiceRecord,
    field: &str,
    value: &str,
    source: &str,
    other: &str,
) {
    record.flags.push(FieldFlag {
        field: field.to_owned(),
        value: value.to_owned(),
        source: source.to_owned(),
        other: other.to_owned(),
    });
}

fn confirm(record: &mut InvoiceRecord, source: &str) {
    if !record.confirmed_by.iter().any(|s| s == source) {
        record.confirmed_by.push(source.to_owned());
    }
}

/// Outcome of comparing one field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Agree,
    Disagree,
    Filled,
    Skipped,
}

/// Compares (or fills) one string field; `same` decides equality.
fn check_field(
    record: &mut InvoiceRecord,
    field: &str,
    source: &str,
    other: Option<&str>,
    same: fn(&str, &str) -> bool,
) -> Cmp {
    let Some(other) = other.filter(|o| !o.is_empty()) else {
        return Cmp::Skipped;
    };
    let Some(slot) = field_mut(record, field) else {
        return Cmp::Skipped;
    };
    if slot.is_empty() {
        *slot = other.to_owned();
        flag(record, field, "", source, other);
        return Cmp::Filled;
    }
    if same(slot, other) {
        Cmp::Agree
    } else {
        let value = slot.clone();
        flag(record, field, &value, source, other);
        Cmp::Disagree
    }
}

fn field_mut<'a>(record: &'a mut InvoiceRecord, field: &str) -> Option<&'a mut String> {
    Some(match field {
        "invoice_number" => &mut record.invoice_number,
        "invoice_date" => &mut record.invoice_date,
        "invoice_code" => &mut record.invoice_code,
        "check_code" => &mut record.check_code,
        "total_amount" => &mut record.total_amount,
        "total_tax" => &mut record.total_tax,
        "total_with_tax" => &mut record.total_with_tax,
        _ => return None,
    })
}

fn same_text(a: &str, b: &str) -> bool {
    a == b
}

fn same_money(a: &str, b: &str) -> bool {
    match (amount::parse_cents(a), amount::parse_cents(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

fn same_date(a: &str, b: &str) -> bool {
    date::to_compact(a) == date::to_compact(b)
}

/// Compares the record with a witness; confirms `source` when every stated field agrees
/// and `confirms` is set (metadata written by the same producer as the page, such as OFD
/// CustomData, only ever flags).
#[cfg(feature = "xml")]
pub(crate) fn against(record: &mut InvoiceRecord, source: &str, w: &Witness, confirms: bool) {
    let results = [
        check_field(
            record,
            "invoice_number",
            source,
            w.number.as_deref(),
            same_text,
        ),
        check_field(record, "invoice_date", source, w.date.as_deref(), same_date),
        check_field(
            record,
            "total_with_tax",
            source,
            w.total_with_tax.as_deref(),
            same_money,
        ),
        check_field(
            record,
            "total_amount",
            source,
            w.total_amount.as_deref(),
            same_money,
        ),
        check_field(
            record,
            "total_tax",
            source,
            w.total_tax.as_deref(),
            same_money,
        ),
    ];
    let agreed = results.contains(&Cmp::Agree);
    let all_fine = results
        .iter()
        .all(|r| matches!(r, Cmp::Agree | Cmp::Skipped));
    if confirms && agreed && all_fine {
        confirm(record, source);
    }
}

/// The order sources are listed in `confirmed_by`.
const SOURCE_ORDER: [&str; 4] = ["qr", "xml", "大写", "arith"];

/// Puts `confirmed_by` in the canonical order (unknown sources last, as found).
pub(crate) fn order_sources(record: &mut InvoiceRecord) {
    let rank = |s: &String| {
        SOURCE_ORDER
            .iter()
            .position(|o| o == s)
            .unwrap_or(SOURCE_ORDER.len())
    };
    record.confirmed_by.sort_by_key(rank);
}

/// 大写 vs 价税合计（小写）.
pub(crate) fn in_words(record: &mut InvoiceRecord) {
    if record.total_in_words.is_empty() {
        return;
    }
    // Unreadable words cannot confirm or contradict anything.
    let Some(words_cents) = words::to_cents(&record.total_in_words) else {
        return;
    };
    let words_amount = amount::format_cents(words_cents);
    match amount::parse_cents(&record.total_with_tax) {
        Some(c) if c == words_cents => confirm(record, "大写"),
        Some(_) => {
            let value = record.total_with_tax.clone();
            flag(record, "total_with_tax", &value, "大写", &words_amount);
        }
        None => {
            record.total_with_tax = words_amount.clone();
            flag(record, "total_with_tax", "", "大写", &words_amount);
        }
    }
}

/// Σ item amounts = 合计金额, Σ item taxes = 合计税额, 金额 + 税额 = 价税合计, to the cent;
/// for an air itinerary 票价 + 燃油附加费 + 民航发展基金 + 其他税费 = 合计. Railway tickets
/// print no amounts to add (their split comes from the XML), so they are not checked.
pub(crate) fn arithmetic(record: &mut InvoiceRecord) {
    if record.doc_type == DocumentType::Railway {
        return;
    }
    if let Some(air) = &record.air {
        let parts = [
            &air.fare,
            &air.fuel_surcharge,
            &air.caac_fund,
            &air.other_taxes,
        ];
        let sum = checked_sum(
            parts
                .iter()
                .filter(|p| !p.is_empty())
                .map(|p| amount::parse_cents(p)),
        );
        let (Some(sum), Some(total)) = (sum, amount::parse_cents(&record.total_with_tax)) else {
            return;
        };
        if air.fare.is_empty() {
            return;
        }
        if sum == total {
            confirm(record, "arith");
        } else {
            let value = record.total_with_tax.clone();
            flag(
                record,
                "total_with_tax",
                &value,
                "arith",
                &amount::format_cents(sum),
            );
        }
        return;
    }
    let total_amount = amount::parse_cents(&record.total_amount);
    let total_tax = amount::parse_cents(&record.total_tax);
    let with_tax = amount::parse_cents(&record.total_with_tax);
    let mut checked = 0;
    let mut failed = false;
    if !record.items.is_empty() {
        let sum_amount = checked_sum(record.items.iter().map(|i| amount::parse_cents(&i.amount)));
        // `***` (exempt) and empty taxes count as zero.
        let sum_tax = checked_sum(record.items.iter().map(|i| {
            if i.tax.is_empty() || i.tax.chars().all(|c| c == '*') {
                Some(0)
            } else {
                amount::parse_cents(&i.tax)
            }
        }));
        if let (Some(s), Some(t)) = (sum_amount, total_amount) {
            checked += 1;
            if s != t {
                failed = true;
                let value = record.total_amount.clone();
                flag(
                    record,
                    "total_amount",
                    &value,
                    "arith",
                    &amount::format_cents(s),
                );
            }
        }
        if let (Some(s), Some(t)) = (sum_tax, total_tax) {
            checked += 1;
            if s != t {
                failed = true;
                let value = record.total_tax.clone();
                flag(
                    record,
                    "total_tax",
                    &value,
                    "arith",
                    &amount::format_cents(s),
                );
            }
        }
    }
    if let (Some(sum), Some(w)) = (checked_sum([total_amount, total_tax].into_iter()), with_tax) {
        checked += 1;
        if sum != w {
            failed = true;
            let value = record.total_with_tax.clone();
            flag(
                record,
                "total_with_tax",
                &value,
                "arith",
                &amount::format_cents(sum),
            );
        }
    }
    if checked > 0 && !failed {
        confirm(record, "arith");
    }
}

/// Sum of amounts, `None` if one is missing or the sum overflows (hostile input).
fn checked_sum(mut values: impl Iterator<Item = Option<i64>>) -> Option<i64> {
    values.try_fold(0i64, |acc, v| acc.checked_add(v?))
}

/// Whether the QR amount field is the pre-tax total for this layout (old VAT formats) or
/// the total with tax (数电, railway).
fn qr_amount_is_pretax(doc_type: DocumentType) -> bool {
    matches!(
        doc_type,
        DocumentType::VatENormal
            | DocumentType::VatESpecial
            | DocumentType::Toll
            | DocumentType::GeneralMachine
    )
}

/// QR code vs number, date, amount (and code and check code where the QR carries them).
pub(crate) fn qr(record: &mut InvoiceRecord, qr: Option<&QrFields>) {
    let Some(q) = qr else {
        return;
    };
    let qr_date = date::parse_date(&q.date);
    // The type code says which total the amount is (below 30: the older, pre-tax family);
    // without one, the layout decides.
    let kind = q.kind.trim();
    let pretax = match kind.parse::<u32>() {
        Ok(code) => code < 30,
        // Verification addresses state the total with tax.
        Err(_) if !kind.is_empty() => false,
        Err(_) => qr_amount_is_pretax(record.doc_type),
    };
    let amount_field = if pretax {
        "total_amount"
    } else {
        "total_with_tax"
    };
    let code = q.code.trim();
    let check = q.check_code.trim();
    let results = [
        check_field(
            record,
            "invoice_number",
            "qr",
            Some(q.number.trim()),
            same_text,
        ),
        check_field(record, "invoice_date", "qr", qr_date.as_deref(), same_date),
        check_field(
            record,
            amount_field,
            "qr",
            Some(q.amount.trim()),
            same_money,
        ),
        if record.invoice_code.is_empty() {
            Cmp::Skipped
        } else {
            check_field(record, "invoice_code", "qr", Some(code), same_text)
        },
        if record.check_code.is_empty() {
            Cmp::Skipped
        } else {
            check_field(record, "check_code", "qr", Some(check), |a, b| {
                a.ends_with(b) || b.ends_with(a)
            })
        },
    ];
    let agreed = results.contains(&Cmp::Agree);
    let all_fine = results
        .iter()
        .all(|r| matches!(r, Cmp::Agree | Cmp::Skipped));
    if agreed && all_fine {
        confirm(record, "qr");
    }
}

/// A record for a document only its QR code could be read from: the layout its type code
/// names, every value left for [`qr`] to fill (and so flagged as coming from the QR code
/// alone). `None` unless the code carries number, date and amount.
pub(crate) fn from_qr(q: &QrFields) -> Option<InvoiceRecord> {
    let carries = |s: &str| !s.trim().is_empty();
    if !(carries(&q.number) && carries(&q.date) && carries(&q.amount)) {
        return None;
    }
    let doc_type = match q.kind.trim() {
        "01" | "08" => DocumentType::VatESpecial,
        "14" => DocumentType::Toll,
        "20" => DocumentType::GeneralMachine,
        "31" => DocumentType::DigitalSpecial,
        "32" => DocumentType::DigitalNormal,
        "51" => DocumentType::Railway,
        "61" => DocumentType::AirItinerary,
        _ => DocumentType::VatENormal,
    };
    let mut record = InvoiceRecord {
        doc_type,
        invoice_code: q.code.trim().to_owned(),
        check_code: q.check_code.trim().to_owned(),
        text_source: "qr".to_owned(),
        ..InvoiceRecord::default()
    };
    // The pre-tax amount of the older family is the total when no tax is charged, which the
    // QR code cannot tell: the total stays for the user, flagged.
    if q.kind.trim().parse::<u32>().is_ok_and(|code| code < 30) {
        flag(&mut record, "total_with_tax", "", "qr", "");
    }
    Some(record)
}

/// The key fields only OCR read and no other source confirmed (the QR code stating the same
/// value, the 大写 amount agreeing): each flagged for review (source `ocr`), never silently
/// trusted.
#[cfg(feature = "ocr")]
pub(crate) fn weak_source(record: &mut InvoiceRecord, qr: Option<&QrFields>) {
    if record.text_source != "ocr" {
        return;
    }
    let qr_says = |field: &str, value: &str| {
        qr.is_some_and(|q| match field {
            "invoice_number" => !value.is_empty() && q.number.trim() == value,
            "invoice_date" => date::parse_date(&q.date).is_some_and(|d| same_date(&d, value)),
            _ => false,
        })
    };
    let by_words = record.confirmed_by.iter().any(|s| s == "大写");
    for field in [
        "invoice_number",
        "invoice_date",
        "total_with_tax",
        "seller_name",
    ] {
        let value = match field {
            "seller_name" => record.seller.name.clone(),
            other => field_mut(record, other)
                .map(|v| v.clone())
                .unwrap_or_default(),
        };
        let confirmed = qr_says(field, &value)
            || (field == "total_with_tax"
                && (by_words || record.confirmed_by.iter().any(|s| s == "qr")));
        if confirmed || record.flags.iter().any(|f| f.field == field) {
            continue;
        }
        flag(record, field, &value, "ocr", "");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::LineItem;

    fn record() -> InvoiceRecord {
        InvoiceRecord {
            doc_type: DocumentType::DigitalNormal,
            invoice_number: "25432000000022014229".into(),
            invoice_date: "2025/02/19".into(),
            total_amount: "144.55".into(),
            total_tax: "1.45".into(),
            total_with_tax: "146.00".into(),
            total_in_words: "壹佰肆拾陆圆整".into(),
            items: vec![LineItem {
                amount: "144.55".into(),
                tax: "1.45".into(),
                ..LineItem::default()
            }],
            ..InvoiceRecord::default()
        }
    }

    #[test]
    fn words_agree_or_flag() {
        let mut r = record();
        in_words(&mut r);
        assert_eq!(r.confirmed_by, ["大写"]);
        let mut r = record();
        r.total_with_tax = "164.00".into();
        in_words(&mut r);
        assert_eq!(r.flags.len(), 1);
        assert_eq!(r.flags[0].field, "total_with_tax");
        assert_eq!(r.flags[0].value, "164.00");
        assert_eq!(r.flags[0].other, "146.00");
        assert_eq!(r.total_with_tax, "164.00", "the printed value is kept");
    }

    #[test]
    fn arithmetic_with_discounts_and_exempt_lines() {
        let mut r = record();
        arithmetic(&mut r);
        assert_eq!(r.confirmed_by, ["arith"]);

        let mut r = record();
        r.items = vec![
            LineItem {
                amount: "50.18".into(),
                tax: "6.52".into(),
                ..LineItem::default()
            },
            LineItem {
                amount: "-2.92".into(),
                tax: "-0.38".into(),
                ..LineItem::default()
            },
            LineItem {
                amount: "97.29".into(),
                tax: "***".into(),
                ..LineItem::default()
            },
        ];
        r.total_amount = "144.55".into();
        r.total_tax = "6.14".into();
        r.total_with_tax = "150.69".into();
        arithmetic(&mut r);
        assert_eq!(r.confirmed_by, ["arith"]);
        assert!(r.flags.is_empty());

        let mut r = record();
        r.total_tax = "1.46".into();
        arithmetic(&mut r);
        assert!(r.confirmed_by.is_empty());
        let fields: Vec<&str> = r.flags.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(fields, ["total_tax", "total_with_tax"]);
    }

    #[test]
    #[cfg(feature = "xml")]
    fn witness_fills_missing_values_with_a_flag() {
        let mut r = record();
        r.invoice_date.clear();
        let w = Witness {
            number: Some("25432000000022014229".into()),
            date: Some("2025/02/19".into()),
            total_with_tax: Some("146.00".into()),
            ..Witness::default()
        };
        against(&mut r, "xml", &w, true);
        assert_eq!(r.invoice_date, "2025/02/19");
        assert_eq!(r.flags[0].field, "invoice_date");
        assert_eq!(r.flags[0].value, "");
        assert!(r.confirmed_by.is_empty(), "a fill is not a confirmation");

        let mut r = record();
        against(&mut r, "xml", &w, true);
        assert_eq!(r.confirmed_by, ["xml"]);
        let mut r = record();
        against(&mut r, "ofd", &w, false);
        assert!(r.confirmed_by.is_empty() && r.flags.is_empty());
    }

    #[test]
    fn air_fare_components_add_up_and_sources_are_ordered() {
        let mut r = InvoiceRecord {
            doc_type: DocumentType::AirItinerary,
            total_with_tax: "1300.00".into(),
            air: Some(domain::AirTrip {
                fare: "1120.00".into(),
                fuel_surcharge: "80.00".into(),
                caac_fund: "100.00".into(),
                other_taxes: "0.00".into(),
                ..domain::AirTrip::default()
            }),
            ..InvoiceRecord::default()
        };
        arithmetic(&mut r);
        assert_eq!(r.confirmed_by, ["arith"]);
        r.confirmed_by = vec!["arith".into(), "大写".into(), "qr".into()];
        order_sources(&mut r);
        assert_eq!(r.confirmed_by, ["qr", "大写", "arith"]);
    }

    #[test]
    fn railway_is_not_added_up() {
        let mut r = record();
        r.doc_type = DocumentType::Railway;
        r.items.clear();
        arithmetic(&mut r);
        assert!(r.confirmed_by.is_empty());
    }

    #[test]
    fn qr_amount_is_pretax_for_old_formats() {
        let mut r = record();
        let q = QrFields {
            kind: "32".into(),
            number: "25432000000022014229".into(),
            amount: "146.00".into(),
            date: "20250219".into(),
            ..QrFields::default()
        };
        qr(&mut r, Some(&q));
        assert_eq!(r.confirmed_by, ["qr"]);

        let mut r = record();
        r.doc_type = DocumentType::Toll;
        r.invoice_code = "042001700112".into();
        r.check_code = "11241636206802490280".into();
        r.total_amount = "124.80".into();
        let q = QrFields {
            kind: "10".into(),
            code: "042001700112".into(),
            number: "25432000000022014229".into(),
            amount: "124.8".into(),
            date: "20250219".into(),
            check_code: "11241636206802490280".into(),
        };
        qr(&mut r, Some(&q));
        assert_eq!(r.confirmed_by, ["qr"]);

        let mut r = record();
        let q = QrFields {
            number: "25432000000022014220".into(),
            amount: "146.00".into(),
            date: "20250219".into(),
            ..QrFields::default()
        };
        qr(&mut r, Some(&q));
        assert_eq!(r.flags[0].field, "invoice_number");
        assert_eq!(r.flags[0].source, "qr");
        assert_eq!(r.invoice_number, "25432000000022014229");
    }
}
