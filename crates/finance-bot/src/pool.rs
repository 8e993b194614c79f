//! A bound on the browsers running at once. Each Chromium takes about 250 MB and most of a
//! core while it renders; ten parallel submissions once started ten of them (2.4 GiB). Every
//! submission of a service takes a slot of one [`BrowserPool`] first and waits its turn when
//! all are taken.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Memory one browser is planned with, for the default size.
const BYTES_PER_BROWSER: u64 = 512 * 1024 * 1024;
/// No default larger than this: past it the portal, not the machine, is the bottleneck.
const MAX_DEFAULT: usize = 4;

/// Slots for browsers, shared by every clone.
#[derive(Debug, Clone)]
pub struct BrowserPool {
    inner: Arc<Slots>,
}

#[derive(Debug)]
struct Slots {
    size: usize,
    taken: Mutex<usize>,
    freed: Condvar,
}

/// A taken slot; dropping it frees the slot.
#[derive(Debug)]
pub struct BrowserSlot {
    inner: Arc<Slots>,
}

impl BrowserPool {
    /// A pool of `size` slots (at least one).
    pub fn new(size: usize) -> Self {
        Self {
            inner: Arc::new(Slots {
                size: size.max(1),
                taken: Mutex::new(0),
                freed: Condvar::new(),
            }),
        }
    }

    /// The size fitted to this machine: one browser per core, as many as half a GiB of the
    /// available memory each allows, between 1 and 4.
    pub fn default_size() -> usize {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let by_memory = available_memory().map_or(cores, |bytes| {
            usize::try_from(bytes / BYTES_PER_BROWSER).unwrap_or(cores)
        });
        cores.min(by_memory).clamp(1, MAX_DEFAULT)
    }

    /// How many browsers may run at once.
    pub fn size(&self) -> usize {
        self.inner.size
    }

    /// Takes a slot, blocking the calling thread until one is free. `on_wait` is called once,
    /// with the number of browsers running, when the caller has to wait.
    pub fn acquire(&self, on_wait: impl FnOnce(usize)) -> BrowserSlot {
        let slots = &self.inner;
        let mut taken = slots.taken.lock().unwrap_or_else(PoisonError::into_inner);
        if *taken >= slots.size {
            on_wait(*taken);
            while *taken >= slots.size {
                taken = slots
                    .freed
                    .wait(taken)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
        *taken += 1;
        BrowserSlot {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl Default for BrowserPool {
    fn default() -> Self {
        Self::new(Self::default_size())
    }
}

impl Drop for BrowserSlot {
    fn drop(&mut self) {
        let mut taken = self
            .inner
            .taken
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *taken = taken.saturating_sub(1);
        self.inner.freed.notify_one();
    }
}

/// MemAvailable from /proc/meminfo, in bytes.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn never_more_than_the_size_run_at_once_and_waiters_are_told() {
        let pool = BrowserPool::new(2);
        let running = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let waited = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (pool, running, peak, waited) =
                    (pool.clone(), running.clone(), peak.clone(), waited.clone());
                std::thread::spawn(move || {
                    let _slot = pool.acquire(|busy| {
                        assert_eq!(busy, 2);
                        waited.fetch_add(1, Ordering::SeqCst);
                    });
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    running.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        assert_eq!(peak.load(Ordering::SeqCst), 2);
        assert!(waited.load(Ordering::SeqCst) >= 1);
    }

    #[test]
    fn the_default_fits_the_machine() {
        let size = BrowserPool::default_size();
        assert!((1..=MAX_DEFAULT).contains(&size));
        assert_eq!(BrowserPool::new(0).size(), 1);
    }
}
