//! A headline amount the page read as no amount (`f22.006` for a heavy
//! `¥22.66`, `-034.20` for `-634.20`), and whether a re-read of its crop
//! reads it right.

use crate::amount;

/// A line that is nothing but a number with a point, after at most two
/// signs or letters (a currency sign misread), which the page read as no
/// amount: a headline amount it mangled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GarbledHeadline {
    pub whole: String,
    decimals: String,
    /// Letters before the number: a misread currency sign.
    after_letters: bool,
}

impl GarbledHeadline {
    /// Other than two decimals (`f22.006`, `Y22.600`), a leading zero
    /// before more digits (`-034.20` for `-634.20`, which no screen
    /// writes), a sign or currency and two groups of digits, the last
    /// of two (`-192 00`, `-277 @ 00`: the point lost or misread), or a
    /// bracket or bar among the digits (`-2)347,.95`).
    pub fn of(line: &str) -> Option<Self> {
        let compact: String = line.chars().filter(|c| !c.is_whitespace()).collect();
        let start = compact.find(|c: char| c.is_ascii_digit())?;
        let (lead, number) = compact.split_at(start);
        if lead.chars().count() > 2 || lead.chars().any(|c| c.is_alphanumeric() && !c.is_ascii()) {
            return None;
        }
        // A point lost or misread between the groups (`-192 00`, `-277 @
        // 00`, `-277 e@ 00` for `-277.00`): two decimals after a short
        // run of blanks and marks.
        let lost_point = if lead.is_empty() || number.contains('.') {
            None
        } else {
            point_lost(line.trim())
        };
        let (whole, decimals) = match &lost_point {
            Some((whole, decimals)) => (whole.as_str(), decimals.as_str()),
            None => number.split_once('.')?,
        };
        let lost_point = lost_point.is_some();
        // A bracket or bar read among grouped digits (`-2)347,.95` for a
        // 720 px `-2,347.95`): the digits are all there, the marks stray.
        let stray = |c: char| matches!(c, '(' | ')' | '[' | ']' | '|');
        let stray_marks = whole.chars().any(stray) && decimals.len() == 2;
        let whole: String = whole.chars().filter(|c| *c != ',' && !stray(*c)).collect();
        let digits_only = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
        let leading_zero = whole.len() > 1 && whole.starts_with('0');
        let odd_decimals = decimals.len() != 2 && decimals.len() <= 4;
        let garbled = digits_only(&whole)
            && digits_only(decimals)
            && whole.len() <= 8
            && (lost_point || stray_marks || odd_decimals != leading_zero);
        garbled.then(|| Self {
            whole,
            decimals: decimals.to_owned(),
            after_letters: lead.chars().any(|c| c.is_ascii_alphabetic()),
        })
    }

    /// Whether a re-read amount is this headline read right: the same
    /// whole part (the page mangled the decimals), or, after a leading
    /// zero, the same digits but the first (the page's `0` was a misread).
    pub fn read_as(&self, cents: i64) -> bool {
        let formatted = amount::format_cents(cents);
        let Some((whole, decimals)) = formatted.split_once('.') else {
            return false;
        };
        if self.whole.starts_with('0') {
            // After letters the zero may be the currency sign's last
            // stroke (`Y0635.05` for `¥635.05`): the digits after it.
            let sign_stroke = self.after_letters && Some(whole) == self.whole.get(1..);
            let first_misread = whole.len() == self.whole.len()
                && !whole.starts_with('0')
                && whole.get(1..) == self.whole.get(1..);
            (first_misread || sign_stroke) && decimals == self.decimals
        } else {
            whole == self.whole
        }
    }
}

/// The whole part and the two decimals of `line` when they are two digit
/// groups apart with blanks and at most two marks (no digit, no
/// ideograph) between them and nothing after: a headline whose point was
/// lost or misread.
fn point_lost(line: &str) -> Option<(String, String)> {
    let start = line.find(|c: char| c.is_ascii_digit())?;
    let rest = &line[start..];
    let whole_end = rest.find(|c: char| !c.is_ascii_digit() && c != ',')?;
    let (whole, rest) = rest.split_at(whole_end);
    let decimals_at = rest.find(|c: char| c.is_ascii_digit())?;
    let (gap, decimals) = rest.split_at(decimals_at);
    let marks = gap.chars().filter(|c| !c.is_whitespace()).count();
    let gap_ok = !gap.is_empty() && marks <= 2 && gap.chars().all(|c| c.is_ascii() && c != '.');
    let two = decimals.len() == 2 && decimals.chars().all(|c| c.is_ascii_digit());
    (gap_ok && two).then(|| (whole.to_owned(), decimals.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mangled_headlines() {
        let whole = |s: &str| GarbledHeadline::of(s).map(|g| g.whole);
        assert_eq!(whole("f22.006").as_deref(), Some("22"));
        assert_eq!(whole("Y 1,022.600").as_deref(), Some("1022"));
        assert_eq!(whole("-034.20").as_deref(), Some("034"));
        assert_eq!(whole("¥22.66"), None, "read well");
        assert_eq!(whole("订单 22.006"), None, "labelled");
        assert_eq!(whole("v1.2.3"), None);
        assert_eq!(whole("07.123"), None);
        assert_eq!(whole("-192 00").as_deref(), Some("192"), "point lost");
        assert_eq!(whole("-192 0"), None);
        assert_eq!(whole("-277 @ 00").as_deref(), Some("277"), "point misread");
        assert_eq!(whole("-277 e@ 00").as_deref(), Some("277"));
        assert_eq!(whole("-277 元 00"), None);
        assert_eq!(whole("2025 06"), None, "a sign or currency leads");
        assert_eq!(whole("-2)347,.95").as_deref(), Some("2347"), "a stray mark");
        let stray = GarbledHeadline::of("-2)347,.95").unwrap();
        assert!(stray.read_as(234_795));
        assert!(!stray.read_as(34_795));
        let odd = GarbledHeadline::of("f22.006").unwrap();
        assert!(odd.read_as(2266));
        assert!(!odd.read_as(12266));
        let zero = GarbledHeadline::of("-034.20").unwrap();
        assert!(zero.read_as(63420));
        assert!(!zero.read_as(63421), "decimals differ");
        assert!(!zero.read_as(3420), "a digit short");
        // `¥` read as `Y0`: the zero was the sign's.
        let sign = GarbledHeadline::of("Y0635.05").unwrap();
        assert!(sign.read_as(63505));
        assert!(sign.read_as(163_505), "or its first digit misread");
    }
}
