//! Amounts in yuan as typed into the form (`123`, `123.4`, `123.45`), kept as whole fen so
//! totals add up exactly.

/// Reads a non-negative amount with at most two decimals and at most nine integer digits;
/// `None` for anything else (signs, separators, exponents, a third decimal).
pub(crate) fn parse_fen(text: &str) -> Option<u64> {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, fraction),
        None => (text, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let shaped = !whole.is_empty()
        && whole.len() <= 9
        && digits(whole)
        && fraction.len() <= 2
        && digits(fraction)
        && !(text.contains('.') && fraction.is_empty());
    if !shaped {
        return None;
    }
    let yuan = whole.parse::<u64>().ok()?;
    let fen = match fraction.len() {
        0 => 0,
        1 => fraction.parse::<u64>().ok()? * 10,
        _ => fraction.parse::<u64>().ok()?,
    };
    Some(yuan * 100 + fen)
}

/// Fen as `yuan.ff`.
pub(crate) fn format_fen(fen: u64) -> String {
    format!("{}.{:02}", fen / 100, fen % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_amounts() {
        assert_eq!(parse_fen("123"), Some(12_300));
        assert_eq!(parse_fen("123.4"), Some(12_340));
        assert_eq!(parse_fen("0.05"), Some(5));
        assert_eq!(format_fen(12_345), "123.45");
    }

    #[test]
    fn refuses_other_shapes() {
        for bad in [
            "",
            "-1",
            "1,000",
            "1.234",
            "1.",
            ".5",
            "1e3",
            "abc",
            "1234567890",
            " 1",
        ] {
            assert_eq!(parse_fen(bad), None, "{bad}");
        }
    }
}
