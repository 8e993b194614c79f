//! The day a claim is judged on ("not later than today"), in China time. Domain reads no
//! clock: the caller turns its clock's reading into a `Today`.

use crate::{china_day, format_civil_date, parse_civil_date};
use serde::{Deserialize, Serialize};
use std::time::{SystemTime, UNIX_EPOCH};

/// A calendar day in China time, as days since 1970-01-01.
///
/// ```
/// use reimburse_domain::Today;
/// let today = Today::from_date("2026/11/29").unwrap();
/// assert_eq!(today.to_string(), "2026/11/29");
/// // 23:00 in Beijing is still the 29th; half past midnight is the 30th.
/// assert_eq!(Today::from_unix_secs(1_795_964_400), today);
/// assert!(Today::from_unix_secs(1_795_969_800) > today);
/// let _now = Today::from(std::time::SystemTime::now());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Today(i64);

impl Today {
    /// The China-time day of a Unix timestamp in seconds.
    pub fn from_unix_secs(secs: u64) -> Self {
        Self(china_day(secs))
    }

    /// The day a written date names (`2026/11/29`, `2026-11-29`, `2026年11月29日`…); None when
    /// it is no real date.
    pub fn from_date(text: &str) -> Option<Self> {
        parse_civil_date(text).map(Self)
    }

    /// Days since 1970-01-01.
    pub fn days(self) -> i64 {
        self.0
    }
}

impl From<SystemTime> for Today {
    /// The day of a clock reading (a time before 1970 counts as 1970-01-01).
    fn from(time: SystemTime) -> Self {
        Self::from_unix_secs(time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs()))
    }
}

impl std::fmt::Display for Today {
    /// `YYYY/MM/DD`, as the invoice table writes dates.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&format_civil_date(self.0))
    }
}
