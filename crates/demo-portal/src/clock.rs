//! Wall-clock time in China Standard Time (UTC+8), as the claims' numbers and times use it.

use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds east of UTC: China has one time zone and no daylight saving.
const OFFSET_SECS: i64 = 8 * 3600;

/// One instant, rendered the two ways a claim needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// `YYYYMMDD`, for the claim number.
    pub compact_date: String,
    /// `YYYY-MM-DDTHH:MM:SS+08:00`.
    pub rfc3339: String,
}

/// The current time.
pub fn now() -> Stamp {
    // A clock before 1970 is a broken machine; treating it as the epoch keeps the demo running.
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX / 2));
    stamp_at(secs)
}

/// The stamp of `unix_secs` seconds after the epoch.
pub fn stamp_at(unix_secs: i64) -> Stamp {
    let local = unix_secs + OFFSET_SECS;
    let days = local.div_euclid(86_400);
    let secs_of_day = local.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    let (h, m, s) = (
        secs_of_day / 3600,
        secs_of_day % 3600 / 60,
        secs_of_day % 60,
    );
    Stamp {
        compact_date: format!("{year:04}{month:02}{day:02}"),
        rfc3339: format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}+08:00"),
    }
}

/// Proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_is_eight_in_the_morning_in_beijing() {
        let stamp = stamp_at(0);
        assert_eq!(stamp.compact_date, "19700101");
        assert_eq!(stamp.rfc3339, "1970-01-01T08:00:00+08:00");
    }

    #[test]
    fn late_utc_evening_is_the_next_day_in_china() {
        // 2026-11-20T20:30:15Z
        let stamp = stamp_at(1_795_206_615);
        assert_eq!(stamp.rfc3339, "2026-11-21T04:30:15+08:00");
        assert_eq!(stamp.compact_date, "20261121");
    }

    #[test]
    fn leap_day() {
        // 2024-02-29T00:00:00+08:00
        assert_eq!(stamp_at(1_709_136_000).compact_date, "20240229");
    }
}
