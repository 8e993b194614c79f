//! Money amounts: parsing printed amounts (¥/￥/CNY, thousands separators, signs) to cents
//! and formatting cents with exactly two decimals.

/// Parses a printed amount to cents. Accepts a leading currency mark (`¥`, `￥`, `CNY`,
/// `RMB`), a sign, thousands separators and at most two decimals; anything else is `None`
/// so that unit prices and codes are never mistaken for amounts.
pub(crate) fn parse_cents(s: &str) -> Option<i64> {
    let s = strip_currency(s.trim());
    let (negative, s) = match s.strip_prefix(['-', '−', '－']) {
        Some(rest) => (true, strip_currency(rest)),
        None => (false, s),
    };
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    if int.is_empty() || frac.len() > 2 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !valid_grouping(int) {
        return None;
    }
    let mut units: i64 = 0;
    for b in int.bytes().filter(u8::is_ascii_digit) {
        units = units.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
    }
    let mut cents = 0i64;
    for (i, b) in frac.bytes().enumerate() {
        let digit = i64::from(b - b'0');
        cents += if i == 0 { digit * 10 } else { digit };
    }
    let total = units.checked_mul(100)?.checked_add(cents)?;
    Some(if negative { -total } else { total })
}

/// Digits, optionally grouped by commas in threes (`1,234,567`).
fn valid_grouping(int: &str) -> bool {
    if !int.contains(',') {
        return int.bytes().all(|b| b.is_ascii_digit());
    }
    let mut groups = int.split(',');
    let first_ok = groups
        .next()
        .is_some_and(|g| (1..=3).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_digit()));
    first_ok && groups.all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
}

fn strip_currency(s: &str) -> &str {
    let s = s.trim_start_matches(['¥', '￥', '$']);
    let s = s
        .strip_prefix("CNY")
        .or_else(|| s.strip_prefix("RMB"))
        .unwrap_or(s);
    s.trim_start()
}

/// Cents as `1234.56` / `-2.92`: no separators, exactly two decimals.
pub(crate) fn format_cents(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// A printed amount re-formatted with two decimals, or `None` if it is not an amount.
pub(crate) fn normalize(s: &str) -> Option<String> {
    parse_cents(s).map(format_cents)
}

/// A plain decimal number as printed in quantity and unit price columns (any number of
/// decimals, optional sign).
pub(crate) fn is_number(s: &str) -> bool {
    let s = s.strip_prefix(['-', '−']).unwrap_or(s);
    let mut digits = 0;
    let mut dots = 0;
    for c in s.chars() {
        match c {
            '0'..='9' => digits += 1,
            '.' => dots += 1,
            ',' => {}
            _ => return false,
        }
    }
    digits > 0 && dots <= 1
}

/// A tax rate cell: `13%`, `1.5%`, `0.06` is not one (XML writes those; see [`rate_from_decimal`]),
/// or the printed words for exempt and non-taxable lines.
pub(crate) fn is_rate(s: &str) -> bool {
    if let Some(num) = s.strip_suffix('%') {
        return is_number(num);
    }
    ["免税", "不征税", "零税率", "出口零税率", "免征"]
        .iter()
        .any(|w| s.contains(w))
}

/// `0.06` → `6%`, `0.015` → `1.5%`; other text unchanged.
#[cfg(feature = "xml")]
pub(crate) fn rate_from_decimal(s: &str) -> String {
    let t = s.trim();
    if t.ends_with('%') || !is_number(t) {
        return t.to_owned();
    }
    // Work in thousandths of a percent to avoid float formatting noise.
    let (int, frac) = t.split_once('.').unwrap_or((t, ""));
    let mut scaled: u64 = 0;
    let mut digits = int.to_owned();
    let mut frac5: String = frac.chars().take(5).collect();
    while frac5.len() < 5 {
        frac5.push('0');
    }
    digits.push_str(&frac5);
    for b in digits.bytes().filter(u8::is_ascii_digit) {
        scaled = scaled
            .saturating_mul(10)
            .saturating_add(u64::from(b - b'0'));
    }
    // scaled = value * 100000; percent * 1000 = value * 100000.
    let whole = scaled / 1000;
    let rest = scaled % 1000;
    if rest == 0 {
        format!("{whole}%")
    } else {
        let frac = format!("{rest:03}");
        format!("{whole}.{}%", frac.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_currency_marks_separators_and_signs() {
        assert_eq!(parse_cents("¥146.00"), Some(14600));
        assert_eq!(parse_cents("￥ 684.40"), Some(68440));
        assert_eq!(parse_cents("CNY 1,234.5"), Some(123450));
        assert_eq!(parse_cents("12,345,678.90"), Some(1_234_567_890));
        assert_eq!(parse_cents("-2.92"), Some(-292));
        assert_eq!(parse_cents("¥-0.38"), Some(-38));
        assert_eq!(parse_cents("-¥0.38"), Some(-38));
        assert_eq!(parse_cents("124.8"), Some(12480));
        assert_eq!(parse_cents("12"), Some(1200));
    }

    #[test]
    fn rejects_non_amounts() {
        assert_eq!(parse_cents("183.168316831683"), None);
        assert_eq!(parse_cents("1,23.00"), None);
        assert_eq!(parse_cents("13%"), None);
        assert_eq!(parse_cents("***"), None);
        assert_eq!(parse_cents(""), None);
        assert_eq!(parse_cents("¥"), None);
        assert_eq!(parse_cents("99999999999999999999999"), None);
    }

    #[test]
    fn formats_two_decimals() {
        assert_eq!(format_cents(14600), "146.00");
        assert_eq!(format_cents(-292), "-2.92");
        assert_eq!(format_cents(5), "0.05");
        assert_eq!(normalize("1,250"), Some("1250.00".to_owned()));
    }

    #[test]
    fn numbers_and_rates() {
        assert!(is_number("16.72566372"));
        assert!(is_number("3"));
        assert!(!is_number("3%"));
        assert!(!is_number("."));
        assert!(is_rate("13%"));
        assert!(is_rate("1.5%"));
        assert!(is_rate("免税"));
        assert!(is_rate("不征税"));
        assert!(!is_rate("5.18"));
    }

    #[test]
    #[cfg(feature = "xml")]
    fn decimal_rates_as_xml_writes_them() {
        assert_eq!(rate_from_decimal("0.06"), "6%");
        assert_eq!(rate_from_decimal("0.13"), "13%");
        assert_eq!(rate_from_decimal("0.015"), "1.5%");
        assert_eq!(rate_from_decimal("0"), "0%");
        assert_eq!(rate_from_decimal("免税"), "免税");
    }
}
