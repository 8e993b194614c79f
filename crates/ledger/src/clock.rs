//! The time the ledger stamps: UTC RFC 3339 text, and the China date of a claim.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The clock of one ledger: the system's, or a fixed instant set by tests.
#[derive(Debug)]
pub(crate) struct Clock {
    /// Unix seconds, or `i64::MIN` for the system clock.
    fixed: AtomicI64,
}

/// One reading of the clock, in the two forms the ledger stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// `2026-11-02T08:15:30Z`.
    pub(crate) utc: String,
    /// `2026-11-02`, the day in China (UTC+8).
    pub(crate) china_date: String,
}

impl Clock {
    pub(crate) fn system() -> Self {
        Self {
            fixed: AtomicI64::new(i64::MIN),
        }
    }

    pub(crate) fn fix(&self, unix_secs: Option<i64>) {
        self.fixed
            .store(unix_secs.unwrap_or(i64::MIN), Ordering::Relaxed);
    }

    pub(crate) fn now(&self) -> Stamp {
        stamp(self.unix_secs())
    }

    /// Now, in Unix seconds.
    pub(crate) fn unix_secs(&self) -> i64 {
        let fixed = self.fixed.load(Ordering::Relaxed);
        if fixed == i64::MIN {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
        } else {
            fixed
        }
    }
}

/// The UTC RFC 3339 text of `unix_secs`, as the ledger stores times.
pub(crate) fn utc(unix_secs: i64) -> String {
    stamp(unix_secs).utc
}

fn stamp(unix_secs: i64) -> Stamp {
    let days = unix_secs.div_euclid(86_400);
    let of_day = unix_secs.rem_euclid(86_400);
    let (year, month, day) = domain::civil_from_days(days);
    let utc = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    );
    let (year, month, day) = domain::civil_from_days((unix_secs + 8 * 3600).div_euclid(86_400));
    Stamp {
        utc,
        china_date: format!("{year:04}-{month:02}-{day:02}"),
    }
}

/// Unix seconds of `YYYY-MM-DDTHH:MM:SSZ`; None for anything else.
pub(crate) fn parse_utc(text: &str) -> Option<i64> {
    let (date, time) = text.strip_suffix('Z')?.split_once('T')?;
    let mut d = date.split('-');
    let days = domain::days_from_civil(
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
        d.next()?.parse().ok()?,
    )?;
    let mut t = time.split(':').map(str::parse::<i64>);
    let (h, m, s) = (t.next()?.ok()?, t.next()?.ok()?, t.next()?.ok()?);
    if d.next().is_some() || t.next().is_some() || h > 23 || m > 59 || s > 60 {
        return None;
    }
    Some(days * 86_400 + h * 3600 + m * 60 + s)
}

/// `YYYY-MM-DD HH:MM:SS` in China (UTC+8) of a stored UTC time, as people read it.
pub(crate) fn china_time(utc: &str) -> Option<String> {
    let secs = parse_utc(utc)? + 8 * 3600;
    let (year, month, day) = domain::civil_from_days(secs.div_euclid(86_400));
    let of_day = secs.rem_euclid(86_400);
    Some(format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60
    ))
}

/// The UTC instants (RFC 3339 text) at which the China (UTC+8) day `date` (`YYYY-MM-DD`)
/// begins and the next one begins; None when `date` is not such a date.
pub(crate) fn china_day(date: &str) -> Option<(String, String)> {
    if !is_date(date) {
        return None;
    }
    let start = domain::parse_civil_date(date)? * 86_400 - 8 * 3600;
    Some((utc(start), utc(start + 86_400)))
}

/// Whether `text` is a `YYYY-MM-DD` date that exists.
pub(crate) fn is_date(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 10 && b[4] == b'-' && b[7] == b'-' && domain::parse_civil_date(text).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_text_and_the_china_date() {
        // 2026-11-28T15:59:59Z is 23:59:59 in Beijing; a second later it is the 29th there.
        let s = stamp(1_795_881_599);
        assert_eq!(s.utc, "2026-11-28T15:59:59Z");
        assert_eq!(s.china_date, "2026-11-28");
        assert_eq!(stamp(1_795_881_600).china_date, "2026-11-29");
        assert_eq!(parse_utc("2026-11-28T15:59:59Z"), Some(1_795_881_599));
        assert_eq!(parse_utc("2026-11-28 15:59:59"), None);
        assert_eq!(
            china_time("2026-11-28T16:00:00Z").as_deref(),
            Some("2026-11-29 00:00:00")
        );
        assert_eq!(
            china_day("2026-11-29"),
            Some((
                "2026-11-28T16:00:00Z".to_owned(),
                "2026-11-29T16:00:00Z".to_owned()
            ))
        );
        assert_eq!(china_day("2026/11/29"), None);
        assert!(is_date("2026-02-28"));
        assert!(!is_date("2026-02-30"));
        assert!(!is_date("2026/02/28"));
    }
}
