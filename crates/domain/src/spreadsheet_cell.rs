//! CSV cells as a spreadsheet reads them: a cell Excel or LibreOffice would take for a formula
//! (`=cmd|' /C calc'!A0`) is written with a leading apostrophe, so it shows as text, and read
//! back without it. Clerks open `invoice_summary.csv` in Excel, so a value that came from an
//! invoice or a request must never run there.

/// What makes a spreadsheet read a cell as a formula (OWASP's list: `=`, `+`, `-`, `@`, tab,
/// carriage return).
const TRIGGERS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// The prefix that makes a cell text. Also put before a value that itself starts with one,
/// so that reading back is exact.
const QUOTE: char = '\'';

/// A plain decimal number (`-12.50`, `+3`): a spreadsheet reads it as a number, never as a
/// formula, and a red-letter invoice's negative amount must stay a number.
fn is_plain_number(cell: &str) -> bool {
    let digits = cell.strip_prefix(['-', '+']).unwrap_or(cell);
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.bytes().all(|b| b.is_ascii_digit())
        && !(digits.contains('.') && fraction.is_empty())
}

/// The text to write for `value`: unchanged unless a spreadsheet would run it as a formula
/// (or it starts with the quote itself), then with a leading `'`.
pub fn to_spreadsheet_cell(value: &str) -> std::borrow::Cow<'_, str> {
    let risky = value.starts_with(TRIGGERS) && !is_plain_number(value);
    if risky || value.starts_with(QUOTE) {
        std::borrow::Cow::Owned(format!("{QUOTE}{value}"))
    } else {
        std::borrow::Cow::Borrowed(value)
    }
}

/// The value a cell written by [`to_spreadsheet_cell`] stands for.
pub fn from_spreadsheet_cell(cell: &str) -> &str {
    match cell.strip_prefix(QUOTE) {
        Some(rest) if rest.starts_with(TRIGGERS) || rest.starts_with(QUOTE) => rest,
        _ => cell,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_are_quoted_and_read_back() {
        for value in [
            "=cmd|' /C calc'!A0",
            "+1+1",
            "-2+3",
            "@SUM(A1)",
            "\tx",
            "\rx",
            "'quoted",
            "''twice",
            "'=x",
        ] {
            let cell = to_spreadsheet_cell(value);
            assert!(cell.starts_with('\''), "{value:?} written as {cell:?}");
            assert_eq!(from_spreadsheet_cell(&cell), value);
        }
    }

    #[test]
    fn ordinary_values_and_numbers_stay_as_they_are() {
        for value in [
            "",
            "-12.50",
            "+3",
            "-0.5",
            "12.50",
            "办公用品",
            "a=b",
            "6217000011112222",
            "-",
            "-.5",
        ] {
            let expected_quote = value == "-" || value == "-.5";
            let cell = to_spreadsheet_cell(value);
            assert_eq!(cell.starts_with('\''), expected_quote, "{value:?}");
            assert_eq!(from_spreadsheet_cell(&cell), value);
        }
    }

    #[test]
    fn a_hand_typed_apostrophe_before_text_is_kept() {
        assert_eq!(from_spreadsheet_cell("'abc"), "'abc");
    }
}
