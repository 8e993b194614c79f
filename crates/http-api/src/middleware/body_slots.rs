//! How many request bodies each client address is sending at once. A body in flight holds a
//! socket and, for an upload, a temp file: 700 slow uploads from one address once took the
//! process's file descriptors and gave other users 500s. With a few slots per address, one
//! client cannot hold more than a few; the rest are refused at once (429).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

/// Bodies in flight per client address, shared by every worker.
#[derive(Debug, Clone, Default)]
pub(crate) struct BodySlots(Arc<Mutex<HashMap<IpAddr, usize>>>);

impl BodySlots {
    /// A slot for one more body from `address`, or `None` when it already sends `max` (taken as
    /// at least 1).
    pub(crate) fn acquire(&self, address: IpAddr, max: usize) -> Option<BodySlot> {
        // The map holds plain counts: a panic elsewhere cannot leave it inconsistent.
        let mut counts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let count = counts.entry(address).or_insert(0);
        if *count >= max.max(1) {
            return None;
        }
        *count += 1;
        Some(BodySlot {
            slots: self.clone(),
            address,
        })
    }
}

/// One body's slot, given back when dropped.
#[derive(Debug)]
pub(crate) struct BodySlot {
    slots: BodySlots,
    address: IpAddr,
}

impl Drop for BodySlot {
    fn drop(&mut self) {
        let mut counts = self.slots.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = counts.get_mut(&self.address) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_has_its_own_few_slots() {
        let slots = BodySlots::default();
        let (one, two): (IpAddr, IpAddr) =
            ("192.0.2.1".parse().unwrap(), "192.0.2.2".parse().unwrap());
        let first = slots.acquire(one, 2).unwrap();
        let second = slots.acquire(one, 2).unwrap();
        assert!(slots.acquire(one, 2).is_none());
        let other = slots.acquire(two, 2).unwrap();
        drop(first);
        let again = slots.acquire(one, 2).unwrap();
        drop((second, other, again));
        assert!(slots.0.lock().unwrap().is_empty(), "nothing left behind");
        // A limit of 0 in a configuration still lets one body through.
        assert!(slots.acquire(one, 0).is_some());
    }
}
