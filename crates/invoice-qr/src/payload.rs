//! The Chinese invoice QR payload: comma-separated fields, parsed and
//! checked field by field.
//!
//! Layout: `01,<type>,<发票代码 or empty>,<发票号码>,<amount>,<YYYYMMDD>,
//! <校验码 or empty>,<check digits>`, sometimes with a trailing comma, and
//! with "empty" fields sometimes holding a single space.

use serde::{Deserialize, Serialize};

use crate::kind;

/// The fields of an invoice QR code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvoiceQr {
    /// The decoded text exactly as read, trailing comma included.
    pub raw: String,
    /// Type code, e.g. `"10"` or `"32"`; see [`crate::describe_kind`].
    pub kind: String,
    /// 发票代码 (10 or 12 digits on older formats); `None` when blank, as on
    /// fully digital (数电) invoices.
    pub code: Option<String>,
    /// 发票号码 (8 digits on older formats, 20 on 数电).
    pub number: String,
    /// The amount as printed (`"88.8"`, `"100.00"`); see
    /// [`InvoiceQr::amount_cents`] and [`InvoiceQr::amount_is_pre_tax`].
    pub amount: String,
    /// 开票日期 as `YYYYMMDD`; empty when the code does not carry it (verification URLs).
    pub date: String,
    /// 校验码 (20 digits on older e-invoices); `None` when blank.
    pub check_code: Option<String>,
    /// The trailing check field (four hex digits in practice; empty when
    /// the payload has none).
    pub crc: String,
}

impl InvoiceQr {
    /// The amount in cents (fen): `"88.8"` is 8880. `None` only if the
    /// amount does not fit an `i64`.
    pub fn amount_cents(&self) -> Option<i64> {
        parse_cents(&self.amount)
    }

    /// The amount normalised to two decimals, e.g. `"88.80"`.
    pub fn amount_two_decimals(&self) -> Option<String> {
        let cents = self.amount_cents()?;
        let sign = if cents < 0 { "-" } else { "" };
        let abs = cents.unsigned_abs();
        Some(format!("{sign}{}.{:02}", abs / 100, abs % 100))
    }

    /// Whether the amount is the total before tax (金额合计, older formats)
    /// rather than the total with tax (价税合计, 数电 formats).
    pub fn amount_is_pre_tax(&self) -> bool {
        kind::amount_is_pre_tax(&self.kind)
    }

    /// A description of [`InvoiceQr::kind`] when the code is a known one.
    pub fn kind_description(&self) -> Option<&'static str> {
        kind::describe_kind(&self.kind)
    }

    /// The date as `(year, month, day)`.
    pub fn date_parts(&self) -> Option<(u16, u8, u8)> {
        parse_date(&self.date)
    }
}

/// Parse a QR payload; `None` unless it has the invoice layout with
/// plausible fields (digits where digits belong, a real date, a decimal
/// amount), or is a known verification address (its kind is [`URL_KIND`](crate::URL_KIND)).
pub fn parse_invoice_qr(text: &str) -> Option<InvoiceQr> {
    if let Some(qr) = crate::verify_url::parse(text) {
        return Some(qr);
    }
    let body = text.trim_end_matches(['\r', '\n', ' ', '\0']);
    let body = body.trim_start_matches('\u{feff}');
    let mut fields: Vec<&str> = body.split(',').collect();
    // One trailing comma leaves an empty last field.
    if fields.len() > 8 && fields.last().is_some_and(|f| f.trim().is_empty()) {
        fields.pop();
    }
    // Some producers leave the check field off altogether.
    let (version, kind, code, number, amount, date, check_code, crc) = match fields.as_slice() {
        [v, k, c, n, a, d, x, crc, ..] => (*v, *k, *c, *n, *a, *d, *x, *crc),
        [v, k, c, n, a, d, x] => (*v, *k, *c, *n, *a, *d, *x, ""),
        _ => return None,
    };
    let version = version.trim();
    let kind = kind.trim();
    let number = number.trim();
    let amount = amount.trim();
    let date = date.trim();
    let crc = crc.trim();
    let ok = is_digits(version, 2, 2)
        && is_digits(kind, 2, 2)
        && is_digits(number, 6, 20)
        && parse_cents(amount).is_some()
        && parse_date(date).is_some()
        && crc.len() <= 16
        && crc.chars().all(|c| c.is_ascii_alphanumeric());
    if !ok {
        return None;
    }
    let optional = |field: &str, max: usize| -> Option<Option<String>> {
        let field = field.trim();
        if field.is_empty() {
            Some(None)
        } else if field.len() <= max && field.chars().all(|c| c.is_ascii_alphanumeric()) {
            Some(Some(field.to_owned()))
        } else {
            None
        }
    };
    Some(InvoiceQr {
        raw: text.to_owned(),
        kind: kind.to_owned(),
        code: optional(code, 20)?,
        number: number.to_owned(),
        amount: amount.to_owned(),
        date: date.to_owned(),
        check_code: optional(check_code, 32)?,
        crc: crc.to_owned(),
    })
}

pub(crate) fn is_digits(s: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
}

/// `-?digits(.d{1,2})?` to cents.
pub(crate) fn parse_cents(s: &str) -> Option<i64> {
    let (negative, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (units, fraction) = s.split_once('.').unwrap_or((s, ""));
    if !is_digits(units, 1, 15)
        || fraction.len() > 2
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    if s.ends_with('.') {
        return None;
    }
    let units: i64 = units.parse().ok()?;
    let mut fraction_cents: i64 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().ok()?
    };
    if fraction.len() == 1 {
        fraction_cents *= 10;
    }
    let cents = units.checked_mul(100)?.checked_add(fraction_cents)?;
    Some(if negative { -cents } else { cents })
}

/// `YYYYMMDD` with a plausible year and a day that exists in the month.
fn parse_date(s: &str) -> Option<(u16, u8, u8)> {
    if !is_digits(s, 8, 8) {
        return None;
    }
    let year: u16 = s.get(0..4)?.parse().ok()?;
    let month: u8 = s.get(4..6)?.parse().ok()?;
    let day: u8 = s.get(6..8)?.parse().ok()?;
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    ((1990..=2100).contains(&year) && (1..=days).contains(&day)).then_some((year, month, day))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn older_e_invoice_with_trailing_comma() {
        let raw = "01,10,011001900111,12345678,52.10,20190615,12345678901234567890,3F2A,";
        let qr = parse_invoice_qr(raw).unwrap();
        assert_eq!(qr.raw, raw);
        assert_eq!(qr.kind, "10");
        assert_eq!(qr.code.as_deref(), Some("011001900111"));
        assert_eq!(qr.number, "12345678");
        assert_eq!(qr.amount_cents(), Some(5210));
        assert_eq!(qr.date_parts(), Some((2019, 6, 15)));
        assert_eq!(qr.check_code.as_deref(), Some("12345678901234567890"));
        assert_eq!(qr.crc, "3F2A");
        assert!(qr.amount_is_pre_tax());
    }

    #[test]
    fn each_type_code() {
        for (kind, pre_tax) in [
            ("01", true),
            ("04", true),
            ("08", true),
            ("10", true),
            ("20", true),
            ("31", false),
            ("32", false),
            ("51", false),
            ("61", false),
        ] {
            let raw = format!("01,{kind},,12345678901234567890,100.00,20250101,,ABCD");
            let qr = parse_invoice_qr(&raw).unwrap();
            assert_eq!(qr.kind, kind);
            assert_eq!(qr.amount_is_pre_tax(), pre_tax, "{kind}");
            assert!(qr.kind_description().is_some(), "{kind}");
            assert_eq!(qr.code, None);
            assert_eq!(qr.check_code, None);
        }
    }

    #[test]
    fn blank_fields_may_hold_a_space() {
        let qr = parse_invoice_qr("01,31, ,12345678901234567890,300.50,20240110, ,1C2B").unwrap();
        assert_eq!(qr.code, None);
        assert_eq!(qr.check_code, None);
        assert_eq!(qr.amount_two_decimals().as_deref(), Some("300.50"));
        assert!(!qr.amount_is_pre_tax());
    }

    #[test]
    fn amounts_normalise_to_cents() {
        let qr = |amount: &str| {
            parse_invoice_qr(&format!(
                "01,10,123456789012,12345678,{amount},20180411,,9E0F,"
            ))
        };
        assert_eq!(qr("88.8").unwrap().amount_cents(), Some(8880));
        assert_eq!(
            qr("88.8").unwrap().amount_two_decimals().as_deref(),
            Some("88.80")
        );
        assert_eq!(qr("7").unwrap().amount_cents(), Some(700));
        assert_eq!(
            qr("-5.05").unwrap().amount_two_decimals().as_deref(),
            Some("-5.05")
        );
        for bad in ["", "1.234", "1.", ".5", "1,5", "abc", "1e3"] {
            assert!(qr(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn garbage_is_rejected() {
        for bad in [
            "",
            "https://example.com/invoice?id=1",
            "01,10,1,2,3",
            "01,10,,12345678,1.00,20190228",
            "01,10,123,12345678,1.00,20181301,,AAAA",
            "01,10,123,12345678,1.00,20190229,,AAAA",
            "01,1A,,12345678,1.00,20190228,,AAAA",
            "01,10,,1234,1.00,20190228,,AAAA",
            "01,10,,12345678,1.00,20190228,,AA-A",
            "01,10,,12345678,1.00,20190228,两,AAAA",
        ] {
            assert!(parse_invoice_qr(bad).is_none(), "{bad:?}");
        }
        // Seven fields: no check field.
        let short = parse_invoice_qr("01,04,123456789012,12345678,1.00,20200301,12345").unwrap();
        assert_eq!(
            (short.crc.as_str(), short.check_code.as_deref()),
            ("", Some("12345"))
        );
        assert_eq!(
            parse_invoice_qr("01,10,,12345678,1.00,20200229,,AAAA\r\n")
                .unwrap()
                .date_parts(),
            Some((2020, 2, 29))
        );
    }
}
