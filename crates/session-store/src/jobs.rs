//! Background jobs: one per session at a time, on their own threads, always ending in result.json.

use crate::{Session, StoreError};
use domain::{FailureResult, SessionId};
use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, PoisonError};

/// Why a job did not start.
#[derive(Debug, thiserror::Error)]
pub enum JobStartError {
    /// A job of the session is still running.
    #[error("a job is already running in this session")]
    Busy,
    /// The run could not be begun on disk.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Runs blocking work off the async workers. Each job begins a run (clearing the old
/// result.json) and ends by writing result.json: with the work's result, or `ok=false` with
/// an error when the work panicked, so no client waits forever.
#[derive(Debug, Clone, Default)]
pub struct JobRunner {
    busy: Arc<Mutex<HashSet<SessionId>>>,
}

/// Frees the session's slot however the job ends.
struct BusyGuard {
    busy: Arc<Mutex<HashSet<SessionId>>>,
    id: SessionId,
}

impl BusyGuard {
    /// Writes the result and frees the slot under one lock, so that a client that has seen
    /// `done` (the result on disk) can start the next job or save at once and never meets a
    /// stale "busy"; and a new job cannot begin its run before this result is written.
    fn finish(self, session: &Session, result: &serde_json::Value) {
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        if let Err(error) = session.finish_run(result) {
            tracing::error!(session = %session.id(), "cannot write result.json: {error}");
        }
        busy.remove(&self.id);
        drop(busy);
        std::mem::forget(self);
    }
}

impl Drop for BusyGuard {
    /// Reached only when the job thread ends without `finish` (it could not even start).
    fn drop(&mut self) {
        self.busy
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.id);
    }
}

impl JobRunner {
    /// A runner with no job running; share one (clones share the busy set).
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether a job of this session is running.
    pub fn is_busy(&self, id: &SessionId) -> bool {
        self.busy
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(id)
    }

    /// Starts `work` for the session unless a job of it is already running.
    pub fn start<F>(&self, session: Session, kind: &str, work: F) -> Result<(), JobStartError>
    where
        F: FnOnce(&Session) -> serde_json::Value + Send + 'static,
    {
        let id = session.id().clone();
        if !self
            .busy
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id.clone())
        {
            return Err(JobStartError::Busy);
        }
        let guard = BusyGuard {
            busy: Arc::clone(&self.busy),
            id: id.clone(),
        };
        session.begin_run(kind)?;
        let thread_session = session.clone();
        let kind_name = kind.to_owned();
        let spawned = std::thread::Builder::new()
            .name(format!("job-{kind}"))
            .spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| work(&thread_session)));
                let result = outcome.unwrap_or_else(|panic| {
                    let detail = panic_message(&*panic);
                    tracing::error!(session = %thread_session.id(), job = %kind_name, "job panicked: {detail}");
                    let _ = thread_session.log("ERROR", "pipeline", &format!("内部错误：{detail}"));
                    FailureResult::new(format!("内部错误：任务异常终止（{detail}）")).to_json()
                });
                guard.finish(&thread_session, &result);
            });
        if let Err(error) = spawned {
            // The guard moved into the closure that never ran and was dropped with it.
            let message = format!("无法启动后台任务：{error}");
            session.finish_run(&FailureResult::new(message).to_json())?;
        }
        Ok(())
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = panic.downcast_ref::<&str>() {
        (*text).to_owned()
    } else if let Some(text) = panic.downcast_ref::<String>() {
        text.clone()
    } else {
        "unknown panic".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Store, StoreOptions};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    fn wait_for_result(session: &Session) -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(result) = session.read_result().unwrap() {
                return result;
            }
            assert!(Instant::now() < deadline, "no result.json");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn session() -> (tempfile::TempDir, Session) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let session = store.create_session().unwrap();
        (dir, session)
    }

    #[test]
    fn a_job_writes_its_result() {
        let (_dir, session) = session();
        let runner = JobRunner::new();
        runner
            .start(
                session.clone(),
                "test",
                |_| serde_json::json!({"ok": true, "n": 1}),
            )
            .unwrap();
        assert_eq!(wait_for_result(&session)["n"], 1);
    }

    #[test]
    fn a_panicking_job_still_ends_with_a_failure_result() {
        let (_dir, session) = session();
        let runner = JobRunner::new();
        runner
            .start(session.clone(), "test", |_| panic!("boom"))
            .unwrap();
        let result = wait_for_result(&session);
        assert_eq!(result["ok"], false);
        assert!(result["error"].as_str().unwrap().contains("boom"));
        let deadline = Instant::now() + Duration::from_secs(5);
        while runner.is_busy(session.id()) {
            assert!(Instant::now() < deadline);
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn one_job_per_session() {
        let (_dir, session) = session();
        let runner = JobRunner::new();
        let (release, wait) = mpsc::channel::<()>();
        runner
            .start(session.clone(), "slow", move |_| {
                let _ = wait.recv();
                serde_json::json!({"ok": true})
            })
            .unwrap();
        assert!(matches!(
            runner.start(session.clone(), "second", |_| serde_json::json!({})),
            Err(JobStartError::Busy)
        ));
        release.send(()).unwrap();
        wait_for_result(&session);
    }
}
