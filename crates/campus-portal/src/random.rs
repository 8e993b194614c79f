//! Random numbers for session ids, captcha codes and the captcha's noise.
//!
//! The OS generator seeds everything; if it ever fails, the clock and a counter do, since a
//! mock portal must keep answering rather than refuse a login page.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// A small splitmix64 generator: good enough spread for noise lines and digits.
#[derive(Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    /// A generator seeded from the OS.
    pub(crate) fn from_os() -> Self {
        let mut seed = [0_u8; 8];
        if getrandom::fill(&mut seed).is_ok() {
            Self(u64::from_le_bytes(seed))
        } else {
            Self(fallback_seed())
        }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..bound` (`bound` > 0; 0 gives 0).
    pub(crate) fn below(&mut self, bound: u32) -> u32 {
        if bound == 0 {
            return 0;
        }
        let wide = u64::from(bound);
        u32::try_from(self.next_u64() % wide).unwrap_or(0)
    }
}

/// 32 lowercase hex digits from the OS generator, for session cookies.
pub(crate) fn token() -> String {
    let mut bytes = [0_u8; 16];
    if getrandom::fill(&mut bytes).is_err() {
        let mut rng = Rng(fallback_seed());
        for chunk in bytes.chunks_mut(8) {
            let word = rng.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn fallback_seed() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    // Truncation is wanted: only the low bits need to differ between calls.
    let low = nanos as u64;
    low ^ COUNTER
        .fetch_add(1, Ordering::Relaxed)
        .wrapping_mul(0x9E37_79B9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_hex_and_differ() {
        let (a, b) = (token(), token());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = Rng::from_os();
        assert!((0..1000).all(|_| rng.below(7) < 7));
        assert_eq!(rng.below(0), 0);
    }
}
