//! A run: the span of one background operation in a session, from start to result.json.

use crate::event_log::LogFile;
use crate::session::read_json_at;
use crate::{RESULT_FILE, Session, StoreError, utc_timestamp, write_atomic};
use domain::FailureResult;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::ErrorKind;

/// Hidden bookkeeping file of the current run (never listed or downloadable).
const RUN_FILE: &str = ".run.json";

/// Message of the result written for a run that a crash or restart cut off.
pub const INTERRUPTED_MESSAGE: &str = "服务已重启，上次任务被中断，请重新开始";

/// Byte offsets of the four logs, in [`LogFile::ALL`] order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOffsets(pub [u64; 4]);

impl RunOffsets {
    /// The SSE event id form: four decimal offsets joined by `-`.
    pub fn to_event_id(self) -> String {
        let [a, b, c, d] = self.0;
        format!("{a}-{b}-{c}-{d}")
    }

    /// Parses the SSE event id form ([`RunOffsets::to_event_id`]).
    pub fn parse_event_id(id: &str) -> Option<Self> {
        let mut parts = id.trim().split('-').map(|p| p.parse::<u64>().ok());
        let offsets = [
            parts.next()??,
            parts.next()??,
            parts.next()??,
            parts.next()??,
        ];
        parts.next().is_none().then_some(Self(offsets))
    }

    /// The offset of `log`.
    pub fn get(self, log: LogFile) -> u64 {
        self.0[log_index(log)]
    }

    /// Sets the offset of `log`.
    pub fn set(&mut self, log: LogFile, offset: u64) {
        self.0[log_index(log)] = offset;
    }
}

fn log_index(log: LogFile) -> usize {
    match log {
        LogFile::Session => 0,
        LogFile::FileEvents => 1,
        LogFile::LlmStream => 2,
        LogFile::AgentEvents => 3,
    }
}

/// What .run.json records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInfo {
    /// What the run does (`process`, `submit`, …), as the job was started.
    pub kind: String,
    /// When it began (UTC, `YYYY-MM-DDTHH:MM:SS.mmmZ`).
    pub started_at: String,
    /// Where each log stood when the run began: a client that connects late reads from here.
    pub offsets: RunOffsets,
    /// Whether result.json has been written.
    pub finished: bool,
}

impl Session {
    /// Begins a run: removes the previous result.json first, so no stream ends on a stale
    /// result, then records where the logs stand.
    pub fn begin_run(&self, kind: &str) -> Result<RunInfo, StoreError> {
        let result_path = self.path().join(RESULT_FILE);
        match fs::remove_file(&result_path) {
            Ok(()) => {}
            Err(error) if error.kind() == ErrorKind::NotFound => {}
            Err(error) => return Err(StoreError::io(result_path)(error)),
        }
        let mut offsets = RunOffsets::default();
        for log in LogFile::ALL {
            let len = fs::metadata(self.log_path(log))
                .map(|m| m.len())
                .unwrap_or(0);
            offsets.set(log, len);
        }
        let info = RunInfo {
            kind: kind.to_owned(),
            started_at: utc_timestamp(),
            offsets,
            finished: false,
        };
        // Space freed since the last full disk is taken back first.
        self.reserve().replenish();
        self.write_run(&info)?;
        Ok(info)
    }

    /// Ends the current run with its result.
    pub fn finish_run(&self, result: &serde_json::Value) -> Result<(), StoreError> {
        let text = self.relative_paths(&result.to_string());
        let result: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|_| result.clone());
        self.write_json_reserved(RESULT_FILE, &result)?;
        if let Some(mut info) = self.current_run()? {
            info.finished = true;
            self.write_run(&info)?;
        }
        Ok(())
    }

    /// The current (or last) run, if any was started.
    pub fn current_run(&self) -> Result<Option<RunInfo>, StoreError> {
        let Some(value) = read_json_at(&self.path().join(RUN_FILE), RUN_FILE)? else {
            return Ok(None);
        };
        serde_json::from_value(value)
            .map(Some)
            .map_err(|e| StoreError::Json {
                file: RUN_FILE.into(),
                message: e.to_string(),
            })
    }

    /// result.json, when the last operation has finished.
    pub fn read_result(&self) -> Result<Option<serde_json::Value>, StoreError> {
        self.read_json(RESULT_FILE)
    }

    fn write_run(&self, info: &RunInfo) -> Result<(), StoreError> {
        let bytes = serde_json::to_vec(info).map_err(|e| StoreError::Json {
            file: RUN_FILE.into(),
            message: e.to_string(),
        })?;
        let path = self.path().join(RUN_FILE);
        self.reserve().write_with(|| write_atomic(&path, &bytes))
    }
}

/// Closes a run left open by a crash; true when a failure result had to be written.
pub(crate) fn close_if_interrupted(session: &Session) -> Result<bool, StoreError> {
    let Ok(Some(info)) = session.current_run() else {
        return Ok(false);
    };
    if info.finished {
        return Ok(false);
    }
    let had_result = session.read_result().ok().flatten().is_some();
    if had_result {
        let mut info = info;
        info.finished = true;
        session.write_run(&info)?;
        return Ok(false);
    }
    let _ = session.log("ERROR", "pipeline", INTERRUPTED_MESSAGE);
    session.finish_run(&FailureResult::new(INTERRUPTED_MESSAGE).to_json())?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Store, StoreOptions};

    #[test]
    fn event_ids_round_trip() {
        let offsets = RunOffsets([1, 0, 22, 333]);
        assert_eq!(
            RunOffsets::parse_event_id(&offsets.to_event_id()),
            Some(offsets)
        );
        for bad in ["", "1-2-3", "1-2-3-4-5", "a-b-c-d", "-1-2-3"] {
            assert_eq!(RunOffsets::parse_event_id(bad), None, "{bad}");
        }
    }

    #[test]
    fn begin_clears_the_old_result_and_records_offsets() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let session = store.create_session().unwrap();
        session.log("INFO", "test", "before").unwrap();
        session
            .finish_run(&serde_json::json!({"ok": true}))
            .unwrap();
        assert!(session.read_result().unwrap().is_some());
        let info = session.begin_run("process").unwrap();
        assert!(session.read_result().unwrap().is_none());
        assert!(info.offsets.get(LogFile::Session) > 0);
        assert!(!session.current_run().unwrap().unwrap().finished);
        session
            .finish_run(&serde_json::json!({"ok": true}))
            .unwrap();
        assert!(session.current_run().unwrap().unwrap().finished);
    }

    #[test]
    fn recovery_closes_interrupted_runs_only() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let cut_off = store.create_session().unwrap();
        cut_off.begin_run("process").unwrap();
        let finished = store.create_session().unwrap();
        finished.begin_run("process").unwrap();
        finished
            .finish_run(&serde_json::json!({"ok": true}))
            .unwrap();
        let closed = store.recover_interrupted_runs().unwrap();
        assert_eq!(closed, vec![cut_off.id().clone()]);
        let result = cut_off.read_result().unwrap().unwrap();
        assert_eq!(result["ok"], false);
        assert_eq!(result["error"], INTERRUPTED_MESSAGE);
        assert_eq!(finished.read_result().unwrap().unwrap()["ok"], true);
        assert!(store.recover_interrupted_runs().unwrap().is_empty());
    }
}
