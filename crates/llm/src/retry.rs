//! When to try again and how long to wait: exponential backoff with jitter, `Retry-After`.

use crate::config::Backoff;
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

/// The wait before retry number `retry` (0 for the first retry). A server's `Retry-After`
/// wins when given (capped); otherwise `base · 2^retry` capped at `max`, of which the upper
/// half is random.
pub(crate) fn delay(backoff: &Backoff, retry: u32, retry_after: Option<Duration>) -> Duration {
    if let Some(wait) = retry_after {
        return wait.min(backoff.max_retry_after);
    }
    let exp = backoff
        .base
        .saturating_mul(2u32.saturating_pow(retry.min(16)))
        .min(backoff.max);
    let half = exp / 2;
    half + half.mul_f64(random_unit())
}

/// Parses a `Retry-After` header in its seconds form; the HTTP-date form is rare from these
/// APIs and falls back to the backoff.
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    let secs: f64 = value.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0)))
}

/// A number in [0, 1) good enough for jitter, without a random-number crate: std's
/// `RandomState` is seeded randomly per instance.
fn random_unit() -> f64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(0x9e37_79b9_7f4a_7c15);
    (hasher.finish() >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backoff() -> Backoff {
        Backoff {
            base: Duration::from_millis(100),
            max: Duration::from_millis(1000),
            max_retry_after: Duration::from_secs(5),
        }
    }

    #[test]
    fn exponential_with_jitter_and_cap() {
        for retry in 0..8 {
            let full =
                Duration::from_millis(100 * 2u64.pow(retry)).min(Duration::from_millis(1000));
            let d = delay(&backoff(), retry, None);
            assert!(d >= full / 2 && d <= full, "retry {retry}: {d:?}");
        }
        let samples: Vec<Duration> = (0..20).map(|_| delay(&backoff(), 3, None)).collect();
        assert!(
            samples.iter().any(|d| *d != samples[0]),
            "no jitter: {samples:?}"
        );
    }

    #[test]
    fn retry_after_is_honoured_and_capped() {
        assert_eq!(
            delay(&backoff(), 0, Some(Duration::from_secs(2))),
            Duration::from_secs(2)
        );
        assert_eq!(
            delay(&backoff(), 0, Some(Duration::from_secs(60))),
            Duration::from_secs(5)
        );
        assert_eq!(parse_retry_after(" 3 "), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("-1"), None);
    }
}
