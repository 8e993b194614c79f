//! One notify watcher shared by all streams, fanning file events out per session directory.

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::watch;

type Senders = Arc<Mutex<HashMap<PathBuf, (usize, watch::Sender<u64>)>>>;

/// Watches the session directories that have a stream open. Streams get a `watch` receiver that
/// ticks on any change in their directory. If notify cannot start (no inotify instances left,
/// say), streams still work on the 0.5 s poll.
#[derive(Clone)]
pub(crate) struct WatchHub {
    senders: Senders,
    /// Held across watch/unwatch so refcount changes and watcher calls stay in one order. The
    /// notify callback never takes this lock, only `senders`, and `senders` is never held while
    /// calling the watcher, so the two cannot deadlock.
    watcher: Arc<Mutex<Option<RecommendedWatcher>>>,
}

impl std::fmt::Debug for WatchHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WatchHub")
    }
}

/// A stream's interest in one directory; dropping it unwatches the directory when it was the
/// last one.
pub(crate) struct Subscription {
    hub: WatchHub,
    dir: PathBuf,
    pub(crate) changes: watch::Receiver<u64>,
}

impl WatchHub {
    pub(crate) fn new() -> Self {
        let senders: Senders = Arc::default();
        let callback_senders = Arc::clone(&senders);
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else { return };
            // notify watches opens too: a stream reading its logs would wake itself (and every
            // reader of the directory would wake the streams), a busy loop that cost a process
            // run ~4 s of CPU. Only changes wake a stream.
            if matches!(
                event.kind,
                notify::EventKind::Access(notify::event::AccessKind::Open(_))
            ) {
                return;
            }
            let map = callback_senders
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            for path in &event.paths {
                let Some(dir) = path.parent() else { continue };
                if let Some((_, sender)) = map.get(dir) {
                    sender.send_modify(|tick| *tick = tick.wrapping_add(1));
                }
            }
        });
        let watcher = match watcher {
            Ok(watcher) => Some(watcher),
            Err(error) => {
                tracing::warn!("file watching unavailable, SSE falls back to polling: {error}");
                None
            }
        };
        Self {
            senders,
            watcher: Arc::new(Mutex::new(watcher)),
        }
    }

    /// Subscribes to a directory's changes; None when it already has `max` subscribers.
    pub(crate) fn subscribe(&self, dir: &Path, max: usize) -> Option<Subscription> {
        let mut watcher = self.watcher.lock().unwrap_or_else(PoisonError::into_inner);
        let (receiver, first) = {
            let mut map = self.senders.lock().unwrap_or_else(PoisonError::into_inner);
            let entry = map
                .entry(dir.to_path_buf())
                .or_insert_with(|| (0, watch::channel(0).0));
            if entry.0 >= max {
                return None;
            }
            entry.0 += 1;
            (entry.1.subscribe(), entry.0 == 1)
        };
        if first
            && let Some(watcher) = watcher.as_mut()
            && let Err(error) = watcher.watch(dir, RecursiveMode::NonRecursive)
        {
            tracing::warn!(dir = %dir.display(), "cannot watch, polling instead: {error}");
        }
        Some(Subscription {
            hub: self.clone(),
            dir: dir.to_path_buf(),
            changes: receiver,
        })
    }

    fn release(&self, dir: &Path) {
        let mut watcher = self.watcher.lock().unwrap_or_else(PoisonError::into_inner);
        let last = {
            let mut map = self.senders.lock().unwrap_or_else(PoisonError::into_inner);
            match map.get_mut(dir) {
                Some(entry) if entry.0 > 1 => {
                    entry.0 -= 1;
                    false
                }
                Some(_) => {
                    map.remove(dir);
                    true
                }
                None => false,
            }
        };
        if last && let Some(watcher) = watcher.as_mut() {
            let _ = watcher.unwatch(dir);
        }
    }

    #[cfg(test)]
    fn watched_dirs(&self) -> usize {
        self.senders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.hub.release(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn ticks_on_a_write_and_unwatches_after_the_last_subscriber() {
        let dir = tempfile::tempdir().unwrap();
        let hub = WatchHub::new();
        let mut first = hub.subscribe(dir.path(), 8).unwrap();
        let second = hub.subscribe(dir.path(), 8).unwrap();
        assert!(
            hub.subscribe(dir.path(), 2).is_none(),
            "a third stream over the limit"
        );
        std::fs::write(dir.path().join("session.log"), "x\n").unwrap();
        tokio::time::timeout(Duration::from_secs(5), first.changes.changed())
            .await
            .expect("a file event within 5 s")
            .unwrap();
        // Reading a file is no change: the stream reading its logs must not wake itself.
        let mut reader = hub.subscribe(dir.path(), 8).unwrap();
        reader.changes.mark_unchanged();
        let _ = tokio::time::sleep(Duration::from_millis(300)).await;
        reader.changes.mark_unchanged();
        for _ in 0..20 {
            std::fs::read(dir.path().join("session.log")).unwrap();
        }
        assert!(
            tokio::time::timeout(Duration::from_millis(500), reader.changes.changed())
                .await
                .is_err(),
            "opening a file woke the stream"
        );
        drop(reader);
        drop(first);
        assert_eq!(hub.watched_dirs(), 1);
        drop(second);
        assert_eq!(hub.watched_dirs(), 0);
    }
}
