//! Dates and times as payment screens write them (`2025-03-11`,
//! `2025年3月11日`, `2025/03/11`, `2025.03.11`, `12:03:45`), read into
//! `YYYY/MM/DD` and `HH:MM[:SS]`.

use std::fmt;

/// A calendar date that exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

impl Date {
    /// The date if it exists in the calendar (and lies in 2000–2099: screens
    /// of this service are recent, an older "year" is a misread number).
    pub fn new(year: i32, month: u32, day: u32) -> Option<Self> {
        let valid = (2000..=2099).contains(&year)
            && (1..=12).contains(&month)
            && day >= 1
            && day <= days_in_month(year, month);
        valid.then_some(Self { year, month, day })
    }

    /// Parses the canonical `YYYY/MM/DD` (also `-` and `.` separators).
    pub fn parse(s: &str) -> Option<Self> {
        find_date(s.trim())
    }

    /// Days since 1970-01-01 (proleptic Gregorian), for date differences.
    pub fn day_number(self) -> i64 {
        // Howard Hinnant's days_from_civil.
        let y = i64::from(self.year) - i64::from(self.month <= 2);
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(self.month);
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + i64::from(self.day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}/{:02}/{:02}", self.year, self.month, self.day)
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A date with its time when one follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DateTime {
    pub date: Date,
    /// `HH:MM[:SS]`, empty when no time follows the date.
    pub time: String,
}

/// Takes up to `max` ASCII digits at `i`; returns the value, how many, and
/// the index after them.
fn digits(chars: &[char], i: usize, max: usize) -> (u32, usize, usize) {
    let mut value = 0u32;
    let mut count = 0;
    let mut j = i;
    while j < chars.len() && count < max {
        match chars[j].to_digit(10) {
            Some(d) if chars[j].is_ascii_digit() => {
                value = value * 10 + d;
                count += 1;
                j += 1;
            }
            _ => break,
        }
    }
    (value, count, j)
}

fn skip_spaces(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() && chars[i] == ' ' {
        i += 1;
    }
    i
}

/// Tries a date at `i`: `YYYY sep M sep D`, with `sep` one of `-/.年月`
/// (`日` after the day is skipped). Returns the date and the index after it.
fn date_at(chars: &[char], i: usize) -> Option<(Date, usize)> {
    if i > 0 && chars[i - 1].is_ascii_digit() {
        return None;
    }
    let (year, n, j) = digits(chars, i, 4);
    if n != 4 {
        return None;
    }
    let j = skip_spaces(chars, j);
    let sep1 = *chars.get(j)?;
    if !matches!(sep1, '-' | '/' | '.' | '年' | '_') {
        return None;
    }
    let j = skip_spaces(chars, j + 1);
    let (month, n, j) = digits(chars, j, 2);
    if n == 0 {
        return None;
    }
    let j = skip_spaces(chars, j);
    let sep2 = *chars.get(j)?;
    let consistent = match sep1 {
        '年' => sep2 == '月',
        '_' | '-' => matches!(sep2, '-' | '_'),
        other => sep2 == other,
    };
    if !consistent {
        return None;
    }
    let j = skip_spaces(chars, j + 1);
    let (day, n, mut j) = digits(chars, j, 2);
    if n == 0 {
        return None;
    }
    let after = skip_spaces(chars, j);
    if matches!(chars.get(after), Some('日' | '号')) {
        j = after + 1;
    }
    let date = Date::new(i32::try_from(year).ok()?, month, day)?;
    Some((date, j))
}

/// Tries `H:MM[:SS]` at `i`; returns the canonical text and the index after.
/// `glued` allows a digit right before (a time OCR glued to the date).
fn time_at(chars: &[char], i: usize, glued: bool) -> Option<(String, usize)> {
    if !glued && i > 0 && chars[i - 1].is_ascii_digit() {
        return None;
    }
    let (hour, n, j) = digits(chars, i, 2);
    if n == 0 || !matches!(chars.get(j), Some(':' | ';')) {
        return None;
    }
    let (minute, n, j) = digits(chars, j + 1, 2);
    if n != 2 || hour > 23 || minute > 59 {
        return None;
    }
    if matches!(chars.get(j), Some(':' | ';')) {
        let (second, n, k) = digits(chars, j + 1, 2);
        if n == 2 && second <= 59 && !chars.get(k).is_some_and(char::is_ascii_digit) {
            return Some((format!("{hour:02}:{minute:02}:{second:02}"), k));
        }
    }
    if chars.get(j).is_some_and(char::is_ascii_digit) {
        return None;
    }
    Some((format!("{hour:02}:{minute:02}"), j))
}

/// The first date in the text (with the time right after it, if any).
pub fn find_date_time(s: &str) -> Option<DateTime> {
    let chars: Vec<char> = s.chars().collect();
    (0..chars.len()).find_map(|i| {
        let (date, end) = date_at(&chars, i)?;
        let mut j = skip_spaces(&chars, end);
        // OCR may glue the time to the day (`2025-03-1112:03:45`) when the
        // day has two digits; `date_at` already took exactly those.
        if matches!(chars.get(j), Some(',' | 'T')) {
            j = skip_spaces(&chars, j + 1);
        }
        let time = time_at(&chars, j, true).map(|(t, _)| t).unwrap_or_default();
        Some(DateTime { date, time })
    })
}

/// The first date in the text.
pub fn find_date(s: &str) -> Option<Date> {
    find_date_time(s).map(|dt| dt.date)
}

/// The first time of day in the text that is not part of a date.
pub fn find_time(s: &str) -> Option<String> {
    let chars: Vec<char> = s.chars().collect();
    (0..chars.len()).find_map(|i| time_at(&chars, i, false).map(|(t, _)| t))
}

/// `20250311` written alone, or followed by the time (`20250311
/// 12:03:45`, an older bank app's 交易时间 row): see [`parse_compact_date`].
pub fn parse_compact_date_time(s: &str) -> Option<DateTime> {
    let t = s.trim();
    let (day, rest) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
    let date = parse_compact_date(day)?;
    let rest = rest.trim();
    let time = if rest.is_empty() {
        String::new()
    } else {
        // Only a time may follow: `20250311 12` is no date.
        let chars: Vec<char> = rest.chars().collect();
        let (time, end) = time_at(&chars, 0, true)?;
        if end != chars.len() {
            return None;
        }
        time
    };
    Some(DateTime { date, time })
}

/// `20250311` written alone (older POS slips): a date only where a label
/// says so, since order numbers start with such digits too.
pub fn parse_compact_date(s: &str) -> Option<Date> {
    let t = s.trim();
    if t.len() != 8 || !t.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let year = t.get(0..4)?.parse().ok()?;
    let month = t.get(4..6)?.parse().ok()?;
    let day = t.get(6..8)?.parse().ok()?;
    Date::new(year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_date_with_a_time() {
        let dt = |s: &str| parse_compact_date_time(s).map(|d| (d.date.to_string(), d.time));
        assert_eq!(
            dt("20240515 12:08:52"),
            Some(("2024/05/15".into(), "12:08:52".into()))
        );
        assert_eq!(dt("20240515"), Some(("2024/05/15".into(), String::new())));
        assert_eq!(dt("20240515 12"), None);
        assert_eq!(dt("20240515 12:08:52 x"), None);
        assert_eq!(dt("20241315 12:08:52"), None);
    }

    fn dt(s: &str) -> Option<(String, String)> {
        find_date_time(s).map(|d| (d.date.to_string(), d.time))
    }

    #[test]
    fn reads_common_forms() {
        let want = Some(("2025/03/11".to_owned(), "12:03:45".to_owned()));
        assert_eq!(dt("创建时间 2025-03-11 12:03:45"), want);
        assert_eq!(dt("支付时间 2025年3月11日 12:03:45"), want);
        assert_eq!(dt("日期/时间: 2025/03/11 12:03:45"), want);
        assert_eq!(dt("2025.03.11 12:03:45"), want);
        assert_eq!(dt("2025-03-1112:03:45"), want);
        assert_eq!(dt("2025 年 3 月 11 日 12:03:45"), want);
        assert_eq!(
            dt("2025-03-11 09:05"),
            Some(("2025/03/11".into(), "09:05".into()))
        );
        assert_eq!(dt("2025-03-11"), Some(("2025/03/11".into(), String::new())));
    }

    #[test]
    fn rejects_non_dates() {
        assert_eq!(dt("有效期 2028/12"), None);
        assert_eq!(dt("2025-02-30"), None);
        assert_eq!(dt("订单号 2025031122001412345678"), None);
        assert_eq!(dt("1999-01-01"), None);
        assert_eq!(dt("2025-03/11"), None);
    }

    #[test]
    fn times_and_compact() {
        assert_eq!(find_time("12:30"), Some("12:30".into()));
        assert_eq!(find_time("9:05:07"), Some("09:05:07".into()));
        assert_eq!(find_time("25:00"), None);
        assert_eq!(
            parse_compact_date("20250311").map(|d| d.to_string()),
            Some("2025/03/11".into())
        );
        assert_eq!(parse_compact_date("20251311"), None);
    }

    #[test]
    fn day_numbers() {
        let a = Date::new(2025, 3, 1).map(Date::day_number);
        let b = Date::new(2025, 2, 28).map(Date::day_number);
        assert_eq!(a.zip(b).map(|(a, b)| a - b), Some(1));
        assert_eq!(Date::new(1970, 1, 1), None);
        assert_eq!(
            Date::new(2024, 2, 29).map(|d| d.to_string()),
            Some("2024/02/29".into())
        );
    }
}
