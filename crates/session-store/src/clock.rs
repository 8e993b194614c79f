//! UTC timestamps in RFC 3339 form without a date-time dependency.

use std::time::{SystemTime, UNIX_EPOCH};

use domain::civil_from_days;

/// The current time as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn utc_timestamp() -> String {
    let since_epoch = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    format_utc(since_epoch.as_secs(), since_epoch.subsec_millis())
}

/// Today's date in China (UTC+8) as `YYYY/MM/DD`, the interface's date form, for documents
/// dated "today" whatever the server's time zone.
pub fn china_date() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    domain::format_civil_date(domain::china_day(secs))
}

fn format_utc(secs: u64, millis: u32) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(format_utc(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_utc(1_709_251_199, 5), "2024-02-29T23:59:59.005Z");
        assert_eq!(format_utc(1_795_305_600, 999), "2026-11-22T00:00:00.999Z");
    }
}
