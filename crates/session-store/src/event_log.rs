//! The four append-only logs of a session, one record per line.

use crate::StoreError;
use domain::Event;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

/// The log files the SSE stream follows, in the order it reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LogFile {
    /// `session.log`: plain log lines.
    Session,
    /// `file_events.log`: per-file progress events.
    FileEvents,
    /// `llm_stream.log`: a language model's streamed output.
    LlmStream,
    /// `agent_events.log`: the agent's state changes and questions.
    AgentEvents,
}

impl LogFile {
    /// The four logs, in the order the stream reads them.
    pub const ALL: [LogFile; 4] = [
        Self::Session,
        Self::FileEvents,
        Self::LlmStream,
        Self::AgentEvents,
    ];

    /// The log's file name in the session directory.
    pub fn file_name(self) -> &'static str {
        match self {
            Self::Session => "session.log",
            Self::FileEvents => "file_events.log",
            Self::LlmStream => "llm_stream.log",
            Self::AgentEvents => "agent_events.log",
        }
    }

    /// The log an event belongs in; `None` for `done`, which lives in result.json.
    pub fn for_event(event: &Event) -> Option<Self> {
        match event {
            Event::FileProgress { .. } => Some(Self::FileEvents),
            Event::LlmStream { .. } => Some(Self::LlmStream),
            Event::Log(_) => Some(Self::Session),
            Event::Done { .. } => None,
            Event::AgentStateChange { .. }
            | Event::AgentReady { .. }
            | Event::AgentRequestSupplement { .. }
            | Event::AgentSupplementReceived { .. }
            | Event::AgentForceSubmit { .. }
            | Event::AgentExtractStatus { .. }
            | Event::AgentError { .. }
            | Event::AgentMaxRounds { .. }
            // The submission's own events ride with the agent's: the stream follows four logs.
            | Event::SubmitChallenge { .. }
            | Event::SubmitChallengeClosed { .. } => Some(Self::AgentEvents),
        }
    }
}

/// Appends one line with a single `write` on an O_APPEND descriptor, so concurrent writers
/// never interleave inside a line and a reader never sees half a record followed by another.
/// A write the full disk cut short is taken back, so the log never holds half a record.
pub(crate) fn append_line(path: &Path, line: &str) -> Result<(), StoreError> {
    let mut record = String::with_capacity(line.len() + 1);
    record.push_str(line);
    record.push('\n');
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(StoreError::io(path))?;
    let before = file.metadata().map_err(StoreError::io(path))?.len();
    file.write_all(record.as_bytes()).map_err(|error| {
        take_back(&file, before);
        StoreError::io(path)(error)
    })
}

/// Cuts off what a failed append left after `before`, unless another writer appended since
/// (then the log is theirs to grow, and a reader skips an incomplete line anyway).
fn take_back(file: &std::fs::File, before: u64) {
    let Ok(now) = file.metadata().map(|m| m.len()) else {
        return;
    };
    if now > before {
        let _ = file.set_len(before);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::{FileStatus, LlmPhase};

    #[test]
    fn events_go_to_their_logs() {
        let progress = Event::FileProgress {
            file: "a".into(),
            status: FileStatus::Done,
            summary: None,
            error: None,
        };
        assert_eq!(LogFile::for_event(&progress), Some(LogFile::FileEvents));
        let llm = Event::LlmStream {
            phase: LlmPhase::Chunk,
            text: None,
        };
        assert_eq!(LogFile::for_event(&llm), Some(LogFile::LlmStream));
        let agent = Event::AgentError {
            message: "x".into(),
        };
        assert_eq!(LogFile::for_event(&agent), Some(LogFile::AgentEvents));
        let done = Event::Done {
            result: serde_json::json!({}),
        };
        assert_eq!(LogFile::for_event(&done), None);
    }

    #[test]
    fn appends_whole_lines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.log");
        append_line(&path, "one").unwrap();
        append_line(&path, "two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
    }
}
