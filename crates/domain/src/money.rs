//! Money as people write it, in cents: `¥1,234.5`, `1234.50`, `-12.00`.

/// Cents of an amount: an optional sign and currency sign, digits with optional thousands
/// commas, at most two decimals. None for anything else.
pub fn parse_cents(text: &str) -> Option<i64> {
    let text = text.trim();
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let rest = rest
        .trim_start_matches(['¥', '￥'])
        .trim()
        .trim_end_matches('元')
        .replace(',', "");
    let (whole, fraction) = rest.split_once('.').unwrap_or((&rest, ""));
    if whole.is_empty()
        || fraction.len() > 2
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
        || whole.len() > 15
    {
        return None;
    }
    let cents = whole.parse::<i64>().ok()? * 100
        + match fraction.len() {
            0 => 0,
            1 => fraction.parse::<i64>().ok()? * 10,
            _ => fraction.parse::<i64>().ok()?,
        };
    Some(if negative { -cents } else { cents })
}

/// The interface's amount form: two decimals, no separators (`1234.50`, `-12.00`).
pub fn format_cents(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    format!(
        "{sign}{}.{:02}",
        cents.unsigned_abs() / 100,
        cents.unsigned_abs() % 100
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_in_every_written_form() {
        for (text, cents) in [
            ("1234.50", 123_450),
            ("¥1,234.5", 123_450),
            ("-12.00", -1_200),
            ("12", 1_200),
            ("35元", 3_500),
        ] {
            assert_eq!(parse_cents(text), Some(cents), "{text}");
        }
        for bad in ["", "1.234", "abc", "1..2", "¥", "1e5"] {
            assert_eq!(parse_cents(bad), None, "{bad}");
        }
        assert_eq!(format_cents(123_450), "1234.50");
        assert_eq!(format_cents(-5), "-0.05");
    }
}
