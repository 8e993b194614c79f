//! Gregorian dates of day counts since 1970-01-01, for the crates that format timestamps
//! without a date-time dependency.

/// `(year, month, day)` of `days` days after 1970-01-01 (negative: before), by Howard
/// Hinnant's days-to-civil algorithm.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    // In range by construction: 1..=31 and 1..=12.
    let day = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let month = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// Days since 1970-01-01 of a Gregorian date (Hinnant's days-from-civil); None for a date
/// that does not exist (2025/02/30).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> Option<i64> {
    let days_in_month = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => return None,
    };
    if day == 0 || day > days_in_month {
        return None;
    }
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

/// A date as people write it on Chinese forms, as days since 1970-01-01: `2025/03/11`,
/// `2025-3-11`, `2025.03.11`, `2025年3月11日`, `20250311`. None when it is none of these or
/// does not exist.
pub fn parse_civil_date(text: &str) -> Option<i64> {
    let text = text.trim();
    let parts: Vec<&str> = if text.len() == 8 && text.bytes().all(|b| b.is_ascii_digit()) {
        vec![text.get(..4)?, text.get(4..6)?, text.get(6..)?]
    } else {
        text.trim_end_matches('日')
            .split(['/', '-', '.', '年', '月'])
            .map(str::trim)
            .collect()
    };
    let [year, month, day] = parts.as_slice() else {
        return None;
    };
    if year.len() != 4 {
        return None;
    }
    days_from_civil(year.parse().ok()?, month.parse().ok()?, day.parse().ok()?)
}

/// The day (count since 1970-01-01) it is in China (UTC+8) at `unix_secs`: what "today" means
/// for a claim, whatever the server's time zone. The caller reads the clock.
pub fn china_day(unix_secs: u64) -> i64 {
    i64::try_from((unix_secs + 8 * 3600) / 86_400).unwrap_or(i64::MAX)
}

/// `YYYY/MM/DD` of a day count, the interface's date form.
pub fn format_civil_date(days: i64) -> String {
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}/{month:02}/{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_china_day_turns_at_16_00_utc() {
        // 2026-11-28T15:59:59Z and 16:00:00Z: 23:59:59 and 00:00:00 in Beijing.
        let before = 1_795_881_599;
        assert_eq!(format_civil_date(china_day(before)), "2026/11/28");
        assert_eq!(format_civil_date(china_day(before + 1)), "2026/11/29");
    }

    #[test]
    fn dates_round_trip_in_every_written_form() {
        for text in [
            "2025/03/11",
            "2025-3-11",
            "2025.03.11",
            "2025年3月11日",
            "20250311",
        ] {
            let days = parse_civil_date(text).unwrap();
            assert_eq!(format_civil_date(days), "2025/03/11", "{text}");
        }
        assert_eq!(
            parse_civil_date("2024/02/29")
                .map(format_civil_date)
                .as_deref(),
            Some("2024/02/29")
        );
        for bad in [
            "2025/02/30",
            "2025/13/01",
            "25/03/11",
            "",
            "明天",
            "2025/03",
        ] {
            assert_eq!(parse_civil_date(bad), None, "{bad}");
        }
        for days in [-1, 0, 11_016, 20_779] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), Some(days));
        }
    }

    #[test]
    fn known_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_779), (2026, 11, 22));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
