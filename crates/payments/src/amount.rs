//! Money as a screen writes it: `-177.00`, `¥4,656.00`, `RMB 3512.53`, `58.00元`.

/// Sign written in front of an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    None,
    Minus,
    Plus,
}

/// One amount that is the whole of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Amount {
    /// Absolute value in cents.
    pub cents: i64,
    pub sign: Sign,
    /// Written with `¥`, `RMB`, `CNY`, `人民币` or `元`.
    pub currency: bool,
}

/// Largest amount accepted: ten million yuan; more is an order number.
const MAX_CENTS: i64 = 1_000_000_000;

const CURRENCY_BEFORE: [&str; 5] = ["人民币", "RMB", "CNY", "¥", "￥"];

/// The text as one amount written with two decimals: sign, currency, digits with optional
/// thousands commas, `.`, two digits, an optional `元`. Nothing else may be in the text, so
/// an order number or a date never passes for money.
pub fn parse_value(text: &str) -> Option<Amount> {
    let mut t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut currency = false;
    if let Some(rest) = t.strip_suffix('元') {
        t = rest.to_owned();
        currency = true;
    }
    let (sign, body) = match t.chars().next() {
        Some('-') => (Sign::Minus, &t[1..]),
        Some('+') => (Sign::Plus, &t[1..]),
        _ => (Sign::None, t.as_str()),
    };
    let mut body = body;
    for word in CURRENCY_BEFORE {
        if let Some(rest) = body.strip_prefix(word) {
            body = rest;
            currency = true;
        }
    }
    // `¥-2.64` as well as `-¥2.64`.
    let (sign, body) = match (sign, body.strip_prefix('-')) {
        (Sign::None, Some(rest)) => (Sign::Minus, rest),
        _ => (sign, body),
    };
    let cents = number_cents(body)?;
    Some(Amount {
        cents,
        sign,
        currency,
    })
}

/// `1,234.56` → cents; exactly two decimals, commas only between groups of three.
fn number_cents(body: &str) -> Option<i64> {
    let (whole, frac) = body.split_once('.')?;
    if frac.len() != 2 || !frac.chars().all(|c| c.is_ascii_digit()) || whole.is_empty() {
        return None;
    }
    let groups: Vec<&str> = whole.split(',').collect();
    let first_ok = groups
        .first()
        .is_some_and(|g| !g.is_empty() && g.len() <= if groups.len() > 1 { 3 } else { 10 });
    if !first_ok || groups.iter().skip(1).any(|g| g.len() != 3) {
        return None;
    }
    let digits: String = groups.concat();
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let cents = digits.parse::<i64>().ok()?.checked_mul(100)? + frac.parse::<i64>().ok()?;
    (cents <= MAX_CENTS).then_some(cents)
}

/// A value meant to be one amount, leniently (`58`, `58.5`, `¥1,058.50`): for values handed
/// over by the LLM path. Signed cents.
pub fn parse_plain(s: &str) -> Option<i64> {
    let t: String = s
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect();
    let mut t = t.trim_end_matches('元').to_owned();
    for word in CURRENCY_BEFORE {
        t = t.replace(word, "");
    }
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(&t)),
    };
    let cents = domain::parse_cents(body)?;
    (cents.abs() <= MAX_CENTS).then_some(if negative { -cents } else { cents })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_text_amounts() {
        let cases = [
            ("-177.00", Some((17_700, Sign::Minus, false))),
            ("￥4656.00", Some((465_600, Sign::None, true))),
            ("+4707.87", Some((470_787, Sign::Plus, false))),
            ("-¥2.64", Some((264, Sign::Minus, true))),
            ("¥-2.64", Some((264, Sign::Minus, true))),
            ("RMB 3512.53", Some((351_253, Sign::None, true))),
            ("78,913.63", Some((7_891_363, Sign::None, false))),
            ("58.00元", Some((5_800, Sign::None, true))),
            ("2024-07-05", None),
            ("58", None),
            ("1,23.00", None),
            ("2025091422007681653911613509", None),
            ("3.5", None),
        ];
        for (text, want) in cases {
            let got = parse_value(text).map(|a| (a.cents, a.sign, a.currency));
            assert_eq!(got, want, "{text}");
        }
    }

    #[test]
    fn plain_values() {
        assert_eq!(parse_plain("¥1,058.5"), Some(105_850));
        assert_eq!(parse_plain("-58"), Some(-5_800));
        assert_eq!(parse_plain("abc"), None);
    }
}
