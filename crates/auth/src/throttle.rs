//! Sign-in throttling: after a few failures an account (and, with a higher allowance, an
//! address) must wait before the next attempt, doubling with each further failure. Another
//! account is not slowed by one under attack, and the memory held is bounded.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The allowances and the longest wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottlePolicy {
    /// Failures an account may have before it waits.
    pub account_free: u32,
    /// Failures an address may have before it waits (higher: an office shares one address).
    pub address_free: u32,
    /// The wait after the first failure past the allowance; doubled with each one after.
    pub first_wait: Duration,
    /// The longest wait.
    pub max_wait: Duration,
    /// Failures older than this are forgotten.
    pub forget_after: Duration,
}

impl Default for ThrottlePolicy {
    fn default() -> Self {
        ThrottlePolicy {
            account_free: 5,
            address_free: 50,
            first_wait: Duration::from_secs(1),
            max_wait: Duration::from_secs(300),
            forget_after: Duration::from_secs(3600),
        }
    }
}

/// Failures kept per key at most (the oldest keys go first when full).
const MAX_KEYS: usize = 10_000;

#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    last: Instant,
}

/// The failures of accounts and addresses, in memory.
#[derive(Debug, Default)]
pub struct Throttle {
    policy: ThrottlePolicy,
    accounts: Mutex<HashMap<String, Failures>>,
    addresses: Mutex<HashMap<String, Failures>>,
}

impl Throttle {
    /// A throttle under `policy`.
    pub fn new(policy: ThrottlePolicy) -> Throttle {
        Throttle {
            policy,
            ..Throttle::default()
        }
    }

    /// `Err(wait)` when the account or the address must wait that long before trying again.
    pub fn check(&self, account: &str, address: &str, now: Instant) -> Result<(), Duration> {
        let account_wait = wait(
            &self.accounts,
            account,
            self.policy.account_free,
            &self.policy,
            now,
        );
        let address_wait = wait(
            &self.addresses,
            address,
            self.policy.address_free,
            &self.policy,
            now,
        );
        match account_wait.max(address_wait) {
            Some(wait) if !wait.is_zero() => Err(wait),
            _ => Ok(()),
        }
    }

    /// Records a failed attempt.
    pub fn failed(&self, account: &str, address: &str, now: Instant) {
        bump(&self.accounts, account, &self.policy, now);
        bump(&self.addresses, address, &self.policy, now);
    }

    /// A successful sign-in clears the account's failures (the address keeps its own).
    pub fn succeeded(&self, account: &str) {
        if let Ok(mut map) = self.accounts.lock() {
            map.remove(account);
        }
    }
}

fn delay(count: u32, free: u32, policy: &ThrottlePolicy) -> Duration {
    if count < free.max(1) {
        return Duration::ZERO;
    }
    let doublings = (count - free.max(1)).min(20);
    policy
        .first_wait
        .saturating_mul(1u32 << doublings)
        .min(policy.max_wait)
}

fn wait(
    map: &Mutex<HashMap<String, Failures>>,
    key: &str,
    free: u32,
    policy: &ThrottlePolicy,
    now: Instant,
) -> Option<Duration> {
    let map = map.lock().ok()?;
    let failures = map.get(key)?;
    let since = now.saturating_duration_since(failures.last);
    if since >= policy.forget_after {
        return None;
    }
    Some(delay(failures.count, free, policy).saturating_sub(since))
}

fn bump(map: &Mutex<HashMap<String, Failures>>, key: &str, policy: &ThrottlePolicy, now: Instant) {
    let Ok(mut map) = map.lock() else { return };
    if map.len() >= MAX_KEYS && !map.contains_key(key) {
        map.retain(|_, f| now.saturating_duration_since(f.last) < policy.forget_after);
        if map.len() >= MAX_KEYS {
            let oldest = map
                .iter()
                .min_by_key(|(_, f)| f.last)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                map.remove(&oldest);
            }
        }
    }
    let entry = map.entry(key.to_owned()).or_insert(Failures {
        count: 0,
        last: now,
    });
    if now.saturating_duration_since(entry.last) >= policy.forget_after {
        entry.count = 0;
    }
    entry.count = entry.count.saturating_add(1);
    entry.last = now;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_waits_after_its_allowance_and_the_wait_doubles() {
        let throttle = Throttle::default();
        let t0 = Instant::now();
        for _ in 0..5 {
            assert_eq!(throttle.check("alice", "10.0.0.1", t0), Ok(()));
            throttle.failed("alice", "10.0.0.1", t0);
        }
        assert_eq!(
            throttle.check("alice", "10.0.0.1", t0),
            Err(Duration::from_secs(1))
        );
        throttle.failed("alice", "10.0.0.1", t0);
        assert_eq!(
            throttle.check("alice", "10.0.0.1", t0),
            Err(Duration::from_secs(2))
        );
        let later = t0 + Duration::from_secs(2);
        assert_eq!(throttle.check("alice", "10.0.0.1", later), Ok(()));
        assert_eq!(
            throttle.check("bob", "10.0.0.1", t0),
            Ok(()),
            "another account is not slowed"
        );
    }

    #[test]
    fn twenty_failures_cap_at_the_longest_wait_and_success_clears_them() {
        let throttle = Throttle::default();
        let t0 = Instant::now();
        for _ in 0..20 {
            throttle.failed("alice", "10.0.0.1", t0);
        }
        assert_eq!(
            throttle.check("alice", "10.0.0.9", t0),
            Err(Duration::from_secs(300))
        );
        throttle.succeeded("alice");
        assert_eq!(throttle.check("alice", "10.0.0.9", t0), Ok(()));
        let forgotten = t0 + Duration::from_secs(3600);
        throttle.failed("carol", "10.0.0.1", t0);
        assert_eq!(throttle.check("carol", "10.0.0.1", forgotten), Ok(()));
    }

    #[test]
    fn an_address_has_its_own_higher_allowance() {
        let throttle = Throttle::default();
        let t0 = Instant::now();
        for i in 0..50 {
            throttle.failed(&format!("user{i}"), "10.0.0.7", t0);
        }
        assert!(throttle.check("newcomer", "10.0.0.7", t0).is_err());
        assert_eq!(throttle.check("newcomer", "10.0.0.8", t0), Ok(()));
    }

    #[test]
    fn memory_stays_bounded() {
        let throttle = Throttle::default();
        let t0 = Instant::now();
        for i in 0..(MAX_KEYS + 50) {
            throttle.failed(&format!("u{i}"), "a", t0);
        }
        assert!(throttle.accounts.lock().map(|m| m.len()).unwrap_or(0) <= MAX_KEYS);
    }
}
