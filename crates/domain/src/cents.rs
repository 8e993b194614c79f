//! Money amounts in integer cents: parsing invoice strings, formatting, and the Chinese capital
//! form (大写) written on finance documents.

use std::fmt;

/// An amount of money in cents (分). Integer arithmetic keeps sums exact; floats would not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Hash)]
pub struct Cents(pub i64);

/// Why an amount string could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AmountError {
    /// Not a decimal number (empty, letters, several points …).
    NotANumber,
    /// Non-zero digits beyond the cent: invoices print two decimals, so this is a typo.
    SubCent,
    /// Too large to add up or to write in capitals.
    TooLarge,
}

/// The largest amount handled: below 10^16 yuan, the range of 万亿 in capitals.
const MAX_CENTS: i64 = 10_000_000_000_000_000 * 100 - 1;

impl Cents {
    /// Reads an amount as printed on invoices: `655`, `655.5`, `655.00`, `¥1,234.50`, `-12.30`,
    /// `１２.５０` (full-width digits). Surrounding spaces, a currency sign and the 元 suffix
    /// are tolerated because clerks paste such values into the table.
    pub fn parse(text: &str) -> Result<Self, AmountError> {
        let normalized: String = text
            .trim()
            .chars()
            .filter(|c| !matches!(c, ',' | '，' | ' ' | '\u{3000}'))
            .map(full_width_to_ascii)
            .collect();
        let mut rest = normalized.as_str();
        let negative = match rest.strip_prefix('-') {
            Some(r) => {
                rest = r;
                true
            }
            None => false,
        };
        rest = rest.trim_start_matches(['¥', '￥']);
        rest = rest.strip_suffix('元').unwrap_or(rest);
        let (whole, fraction) = match rest.split_once('.') {
            Some((w, f)) => (w, f),
            None => (rest, ""),
        };
        if whole.is_empty() && fraction.is_empty() {
            return Err(AmountError::NotANumber);
        }
        if !whole.bytes().all(|b| b.is_ascii_digit())
            || !fraction.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(AmountError::NotANumber);
        }
        let mut cents: i64 = 0;
        for b in whole.bytes() {
            cents = cents
                .checked_mul(10)
                .and_then(|c| c.checked_add(i64::from(b - b'0')))
                .ok_or(AmountError::TooLarge)?;
        }
        let mut fraction_digits = fraction.bytes();
        for _ in 0..2 {
            let digit = fraction_digits.next().map_or(0, |b| i64::from(b - b'0'));
            cents = cents
                .checked_mul(10)
                .and_then(|c| c.checked_add(digit))
                .ok_or(AmountError::TooLarge)?;
        }
        if fraction_digits.any(|b| b != b'0') {
            return Err(AmountError::SubCent);
        }
        if cents > MAX_CENTS {
            return Err(AmountError::TooLarge);
        }
        Ok(Cents(if negative { -cents } else { cents }))
    }

    /// Adds two amounts, failing instead of wrapping.
    pub fn checked_add(self, other: Cents) -> Option<Cents> {
        let sum = self.0.checked_add(other.0)?;
        (sum.abs() <= MAX_CENTS).then_some(Cents(sum))
    }

    /// The Chinese capital form: 陆佰伍拾伍元整, 壹仟零伍元叁角, 伍角, 壹万元零贰分, 零元整;
    /// negative amounts get a leading 负. Follows the rules of 《支付结算办法》: 整 after 元,
    /// none after 角 or 分, 零 after 元 when the 角 is zero but the 分 is not.
    pub fn to_capital(self) -> String {
        let negative = self.0 < 0;
        let total = self.0.unsigned_abs();
        let yuan = total / 100;
        let jiao = (total / 10 % 10) as usize;
        let fen = (total % 10) as usize;
        let mut out = String::new();
        if negative {
            out.push('负');
        }
        if yuan > 0 {
            out.push_str(&integer_capital(yuan));
            out.push('元');
        }
        match (jiao, fen) {
            (0, 0) => {
                if yuan == 0 {
                    out.push_str("零元");
                }
                out.push('整');
            }
            (0, f) => {
                if yuan > 0 {
                    out.push('零');
                }
                out.push(DIGITS[f]);
                out.push('分');
            }
            (j, 0) => {
                out.push(DIGITS[j]);
                out.push('角');
            }
            (j, f) => {
                out.push(DIGITS[j]);
                out.push('角');
                out.push(DIGITS[f]);
                out.push('分');
            }
        }
        out
    }
}

impl fmt::Display for Cents {
    /// Two decimals, no grouping: `655.00`, `-12.30`, the way invoices print amounts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
    }
}

const DIGITS: [char; 10] = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const PLACES: [&str; 4] = ["", "拾", "佰", "仟"];
const SECTIONS: [&str; 4] = ["", "万", "亿", "万亿"];

/// Capitals of a whole number of yuan, read in sections of four digits (个, 万, 亿, 万亿).
/// A run of zeros inside the number is read as one 零; leading 壹拾 keeps its 壹 as finance
/// documents require.
fn integer_capital(mut value: u64) -> String {
    let mut sections = Vec::new();
    while value > 0 {
        sections.push((value % 10_000) as usize);
        value /= 10_000;
    }
    let mut out = String::new();
    // Whether a zero was skipped since the last digit written, so the next digit needs 零.
    let mut pending_zero = false;
    for (index, &section) in sections.iter().enumerate().rev() {
        if section == 0 {
            pending_zero = !out.is_empty();
            continue;
        }
        let digits = [
            section / 1000,
            section / 100 % 10,
            section / 10 % 10,
            section % 10,
        ];
        for (position, &digit) in digits.iter().enumerate() {
            if digit == 0 {
                pending_zero = !out.is_empty();
                continue;
            }
            if pending_zero {
                out.push('零');
                pending_zero = false;
            }
            out.push(DIGITS[digit]);
            out.push_str(PLACES[3 - position]);
        }
        out.push_str(SECTIONS.get(index).copied().unwrap_or_default());
        // Trailing zeros of a section are absorbed by its unit (十万 not 十万零), so only
        // leading zeros of the next section call for 零.
        pending_zero = false;
    }
    out
}

fn full_width_to_ascii(c: char) -> char {
    match c {
        '０'..='９' => {
            char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')).unwrap_or(c)
        }
        '．' => '.',
        '－' => '-',
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cap(text: &str) -> String {
        Cents::parse(text).unwrap().to_capital()
    }

    #[test]
    fn parses_invoice_forms() {
        assert_eq!(Cents::parse("655"), Ok(Cents(65_500)));
        assert_eq!(Cents::parse("655.5"), Ok(Cents(65_550)));
        assert_eq!(Cents::parse(" 655.00 "), Ok(Cents(65_500)));
        assert_eq!(Cents::parse("¥1,234.50"), Ok(Cents(123_450)));
        assert_eq!(Cents::parse("￥12.30元"), Ok(Cents(1_230)));
        assert_eq!(Cents::parse("-12.30"), Ok(Cents(-1_230)));
        assert_eq!(Cents::parse("-¥0.05"), Ok(Cents(-5)));
        assert_eq!(Cents::parse("１２．５０"), Ok(Cents(1_250)));
        assert_eq!(Cents::parse(".5"), Ok(Cents(50)));
        assert_eq!(Cents::parse("3.1400"), Ok(Cents(314)));
    }

    #[test]
    fn rejects_non_amounts() {
        assert_eq!(Cents::parse(""), Err(AmountError::NotANumber));
        assert_eq!(Cents::parse("abc"), Err(AmountError::NotANumber));
        assert_eq!(Cents::parse("1.2.3"), Err(AmountError::NotANumber));
        assert_eq!(Cents::parse("."), Err(AmountError::NotANumber));
        assert_eq!(Cents::parse("1e3"), Err(AmountError::NotANumber));
        assert_eq!(Cents::parse("12.345"), Err(AmountError::SubCent));
        assert_eq!(
            Cents::parse("99999999999999999999999"),
            Err(AmountError::TooLarge)
        );
        assert_eq!(
            Cents::parse("10000000000000000"),
            Err(AmountError::TooLarge)
        );
    }

    #[test]
    fn formats_two_decimals() {
        assert_eq!(Cents(65_500).to_string(), "655.00");
        assert_eq!(Cents(5).to_string(), "0.05");
        assert_eq!(Cents(-1_230).to_string(), "-12.30");
        assert_eq!(Cents(0).to_string(), "0.00");
    }

    #[test]
    fn sums_exactly() {
        // 0.1 + 0.2 is the classic float failure; in cents it is exact.
        let sum = Cents::parse("0.1")
            .unwrap()
            .checked_add(Cents::parse("0.2").unwrap())
            .unwrap();
        assert_eq!(sum, Cents(30));
        assert_eq!(Cents(MAX_CENTS).checked_add(Cents(1)), None);
    }

    #[test]
    fn capitals_of_whole_yuan() {
        assert_eq!(cap("655"), "陆佰伍拾伍元整");
        assert_eq!(cap("0"), "零元整");
        assert_eq!(cap("1"), "壹元整");
        assert_eq!(cap("10"), "壹拾元整");
        assert_eq!(cap("15"), "壹拾伍元整");
        assert_eq!(cap("100"), "壹佰元整");
        assert_eq!(cap("101"), "壹佰零壹元整");
        assert_eq!(cap("110"), "壹佰壹拾元整");
        assert_eq!(cap("1001"), "壹仟零壹元整");
        assert_eq!(cap("1010"), "壹仟零壹拾元整");
        assert_eq!(cap("10000"), "壹万元整");
        assert_eq!(cap("10010"), "壹万零壹拾元整");
        assert_eq!(cap("100000"), "壹拾万元整");
        assert_eq!(cap("105000"), "壹拾万伍仟元整");
        assert_eq!(cap("1000001"), "壹佰万零壹元整");
        assert_eq!(cap("100500"), "壹拾万零伍佰元整");
        assert_eq!(cap("100000005"), "壹亿零伍元整");
        assert_eq!(cap("200000010"), "贰亿零壹拾元整");
        assert_eq!(cap("100000000"), "壹亿元整");
        assert_eq!(cap("100010000"), "壹亿零壹万元整");
        assert_eq!(cap("120034005"), "壹亿贰仟零叁万肆仟零伍元整");
        assert_eq!(cap("1000000000000"), "壹万亿元整");
        assert_eq!(
            cap("9999999999999999"),
            "玖仟玖佰玖拾玖万亿玖仟玖佰玖拾玖亿玖仟玖佰玖拾玖万玖仟玖佰玖拾玖元整"
        );
    }

    #[test]
    fn capitals_with_jiao_and_fen() {
        // The examples of 《支付结算办法》 (one of the allowed forms each).
        assert_eq!(cap("1409.50"), "壹仟肆佰零玖元伍角");
        assert_eq!(cap("6007.14"), "陆仟零柒元壹角肆分");
        assert_eq!(cap("16409.02"), "壹万陆仟肆佰零玖元零贰分");
        assert_eq!(cap("325.04"), "叁佰贰拾伍元零肆分");
        assert_eq!(cap("1680.32"), "壹仟陆佰捌拾元叁角贰分");
        assert_eq!(cap("107000.53"), "壹拾万柒仟元伍角叁分");
        assert_eq!(cap("0.50"), "伍角");
        assert_eq!(cap("0.05"), "伍分");
        assert_eq!(cap("0.55"), "伍角伍分");
        assert_eq!(cap("-12.30"), "负壹拾贰元叁角");
    }
}
