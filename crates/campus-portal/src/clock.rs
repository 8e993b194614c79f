//! Calendar dates as the portal writes and checks them (`YYYY-MM-DD`), and the time in Beijing,
//! where the imitated systems run.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

/// Beijing is UTC+8 all year.
const BEIJING_OFFSET_SECS: i64 = 8 * 3600;

/// A valid calendar date; ordering is chronological.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Date {
    pub(crate) year: u16,
    pub(crate) month: u8,
    pub(crate) day: u8,
}

impl Date {
    /// Reads exactly `YYYY-MM-DD` (what the date picker writes); `None` for anything else,
    /// including days a month does not have.
    pub(crate) fn parse(text: &str) -> Option<Self> {
        let bytes = text.as_bytes();
        let shaped = bytes.len() == 10
            && bytes[4] == b'-'
            && bytes[7] == b'-'
            && bytes
                .iter()
                .enumerate()
                .all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit());
        if !shaped {
            return None;
        }
        let year = text.get(0..4)?.parse::<u16>().ok()?;
        let month = text.get(5..7)?.parse::<u8>().ok()?;
        let day = text.get(8..10)?.parse::<u8>().ok()?;
        let valid = (1900..=2999).contains(&year)
            && (1..=12).contains(&month)
            && day >= 1
            && day <= days_in_month(year, month);
        valid.then_some(Self { year, month, day })
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The current date and `YYYY-MM-DD HH:MM:SS` time in Beijing.
pub(crate) fn now_beijing() -> (Date, String) {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_secs()).unwrap_or(0))
        .unwrap_or(0)
        + BEIJING_OFFSET_SECS;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let date = civil_from_days(days);
    let stamp = format!(
        "{date} {:02}:{:02}:{:02}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    );
    (date, stamp)
}

/// Days since 1970-01-01 to a date (Howard Hinnant's algorithm), clamped to the years `Date`
/// accepts so a broken clock cannot produce an invalid date.
fn civil_from_days(days: i64) -> Date {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    Date {
        year: u16::try_from(year.clamp(1970, 2999)).unwrap_or(1970),
        month: u8::try_from(month).unwrap_or(1),
        day: u8::try_from(day).unwrap_or(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_only_real_dates() {
        let date = Date::parse("2024-02-29").unwrap();
        assert_eq!(date.to_string(), "2024-02-29");
        for bad in [
            "2023-02-29",
            "2024-13-01",
            "2024-1-01",
            "2024/01/01",
            "",
            "２０２４-01-01",
        ] {
            assert_eq!(Date::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn days_become_dates() {
        assert_eq!(civil_from_days(0).to_string(), "1970-01-01");
        assert_eq!(civil_from_days(20_513).to_string(), "2026-03-01");
        assert!(Date::parse("2026-03-01") < Date::parse("2026-03-02"));
    }
}
