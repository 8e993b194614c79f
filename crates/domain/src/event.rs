//! Every event of the interface, serde-tagged by `type`, plus the plain session.log line.

use crate::AgentState;
use serde::{Deserialize, Serialize};

/// Status of a file in `file_progress`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileStatus {
    /// The file is being read.
    Processing,
    /// The file was read; `summary` says what it holds.
    Done,
    /// Read before (same bytes, same reader): the earlier reading is reused.
    Cached,
    /// The file could not be read; `error` says why.
    Error,
}

/// Phase of an `llm_stream` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmPhase {
    /// The model was asked.
    Start,
    /// Part of the model's reasoning, when it shows one.
    Reasoning,
    /// Part of the model's answer.
    Chunk,
    /// The answer is complete.
    End,
    /// The model failed (timeout, invalid JSON); the reason is the `text`.
    Error,
}

/// An event as written to the event logs and sent on the SSE stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The agent entered a new state.
    AgentStateChange {
        /// The state entered.
        state: AgentState,
        /// The round it belongs to.
        round: u32,
        /// Always 0 (attempts are reported by [`Event::AgentExtractStatus`]).
        attempt: u32,
        /// What happens now, in the user's words.
        message: String,
    },
    /// The round's judgement passed; submission follows.
    AgentReady {
        /// The round that passed.
        round: u32,
        /// The announcement shown to the user.
        message: String,
    },
    /// The judgement did not pass: the agent waits for the user.
    AgentRequestSupplement {
        /// The round that asks.
        round: u32,
        /// Fields the claim lacks.
        missing_fields: Vec<String>,
        /// Materials the claim lacks (住宿水单, 销货清单, …).
        missing_materials: Vec<String>,
        /// Contradictions found in what was given.
        semantic_issues: Vec<String>,
        /// What the user should do, in one sentence.
        suggestion: String,
    },
    /// A supplement by files was accepted.
    AgentSupplementReceived {
        /// The names of the files supplied.
        files: Vec<String>,
    },
    /// The user forced submission, skipping validation.
    AgentForceSubmit {
        /// The announcement shown to the user.
        message: String,
    },
    /// The outcome of one validate-and-correct attempt of a round.
    AgentExtractStatus {
        /// The attempt's outcome (not an agent state): `passed`, `corrected` or `issues`.
        state: String,
        /// The round the attempt belongs to.
        round: u32,
        /// The attempt, 1 to 3.
        attempt: u32,
        /// What the attempt found and corrected.
        message: String,
    },
    /// The round failed (no invoice data, extraction failed).
    AgentError {
        /// Why, in the user's words.
        message: String,
    },
    /// A supplement would pass the round limit.
    AgentMaxRounds {
        /// What the user can do now.
        message: String,
    },
    /// The finance portal asks something only the person can answer (a captcha, an SMS code):
    /// answer it with `POST /api/submit-challenge/<session_id>` within `expires_in` seconds.
    /// Our addition to the interface (docs/interface-choices.md).
    SubmitChallenge {
        /// Names the challenge in the answer.
        id: String,
        /// The portal's question.
        prompt: String,
        /// The challenge's picture as a `data:image/png;base64,…` URL.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        image: Option<String>,
        /// This ask's number, from 1.
        attempt: u32,
        /// How many asks there may be.
        attempts: u32,
        /// Seconds left to answer.
        expires_in: u64,
        /// The portal's words about the previous answer, when this asks again.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// A challenge is no longer waiting: `answered` or `expired`.
    SubmitChallengeClosed {
        /// The `id` of its [`Event::SubmitChallenge`].
        id: String,
        /// `answered` or `expired`.
        outcome: String,
    },
    /// Progress of one uploaded file (file_events.log).
    FileProgress {
        /// The file's stored name.
        file: String,
        /// Where its reading stands.
        status: FileStatus,
        /// What was read (with `done` and `cached`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        summary: Option<String>,
        /// Why the file could not be read (with `error`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// Output of a language model as it arrives (llm_stream.log).
    LlmStream {
        /// Which part of the answer this is.
        phase: LlmPhase,
        /// The text of this part, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// A session.log line on the stream (our choice of fields, see docs/ARCHITECTURE.md).
    Log(LogLine),
    /// A job ended; the last event of its run.
    Done {
        /// The content of result.json (see [`ProcessResult`](crate::ProcessResult) and the
        /// other result types).
        result: serde_json::Value,
    },
}

/// One line of session.log: `TIME LEVEL MODULE: MESSAGE`, e.g.
/// `2026-11-21T10:00:00.123Z INFO extractor: 3 invoices`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogLine {
    /// UTC RFC 3339 time.
    pub time: String,
    /// `INFO`, `WARN` or `ERROR`.
    pub level: String,
    /// The part of the service that wrote it (`upload`, `pipeline`, `extractor`, …).
    pub module: String,
    /// The message, in the user's words.
    pub message: String,
}

impl LogLine {
    /// Formats the line as written to session.log (newlines in the message are flattened so
    /// one record stays one line).
    pub fn to_line(&self) -> String {
        let message = self.message.replace(['\r', '\n'], " ");
        format!("{} {} {}: {}", self.time, self.level, self.module, message)
    }

    /// Parses a session.log line; a line of another shape becomes the message as it is.
    pub fn parse(line: &str) -> Self {
        let parsed = (|| {
            let (time, rest) = line.split_once(' ')?;
            let (level, rest) = rest.split_once(' ')?;
            let (module, message) = rest.split_once(": ")?;
            let plausible = time.len() >= 10
                && time.as_bytes().first()?.is_ascii_digit()
                && matches!(level, "TRACE" | "DEBUG" | "INFO" | "WARN" | "ERROR")
                && !module.is_empty()
                && !module.contains(' ');
            plausible.then(|| Self {
                time: time.to_owned(),
                level: level.to_owned(),
                module: module.to_owned(),
                message: message.to_owned(),
            })
        })();
        parsed.unwrap_or_else(|| Self {
            time: String::new(),
            level: String::new(),
            module: String::new(),
            message: line.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn events_are_tagged_by_type_with_interface_fields() {
        let event = Event::AgentStateChange {
            state: AgentState::Extracting,
            round: 1,
            attempt: 0,
            message: "开始".into(),
        };
        assert_eq!(
            serde_json::to_value(&event).unwrap(),
            json!({"type":"agent_state_change","state":"extracting","round":1,"attempt":0,"message":"开始"})
        );
        let progress = Event::FileProgress {
            file: "a.pdf".into(),
            status: FileStatus::Cached,
            summary: None,
            error: None,
        };
        assert_eq!(
            serde_json::to_value(&progress).unwrap(),
            json!({"type":"file_progress","file":"a.pdf","status":"cached"})
        );
        let llm = Event::LlmStream {
            phase: LlmPhase::Reasoning,
            text: Some("…".into()),
        };
        assert_eq!(serde_json::to_value(&llm).unwrap()["phase"], "reasoning");
    }

    #[test]
    fn every_event_round_trips() {
        let events = vec![
            Event::AgentReady {
                round: 2,
                message: "ok".into(),
            },
            Event::AgentRequestSupplement {
                round: 1,
                missing_fields: vec!["公务卡号".into()],
                missing_materials: vec![],
                semantic_issues: vec![],
                suggestion: "请上传".into(),
            },
            Event::AgentSupplementReceived {
                files: vec!["a.png".into()],
            },
            Event::AgentForceSubmit {
                message: "m".into(),
            },
            Event::AgentExtractStatus {
                state: "passed".into(),
                round: 1,
                attempt: 2,
                message: "m".into(),
            },
            Event::AgentError {
                message: "e".into(),
            },
            Event::AgentMaxRounds {
                message: "e".into(),
            },
            Event::Log(LogLine::parse("2026-01-01T00:00:00Z INFO pipeline: hi")),
            Event::Done {
                result: json!({"ok": true}),
            },
        ];
        for event in events {
            let text = serde_json::to_string(&event).unwrap();
            let back: Event = serde_json::from_str(&text).unwrap();
            assert_eq!(back, event, "{text}");
        }
    }

    #[test]
    fn log_line_round_trips_and_tolerates_other_shapes() {
        let line = LogLine {
            time: "2026-11-21T10:00:00.123Z".into(),
            level: "INFO".into(),
            module: "extractor".into(),
            message: "共 3 张: 完成".into(),
        };
        assert_eq!(LogLine::parse(&line.to_line()), line);
        let odd = LogLine::parse("just text: here");
        assert_eq!(odd.message, "just text: here");
        assert_eq!(odd.module, "");
        let log = serde_json::to_value(Event::Log(line)).unwrap();
        assert_eq!(log["type"], "log");
        assert_eq!(log["module"], "extractor");
    }

    #[test]
    fn log_line_flattens_newlines() {
        let line = LogLine {
            time: "t0000000000".into(),
            level: "WARN".into(),
            module: "m".into(),
            message: "a\nb".into(),
        };
        assert!(!line.to_line().contains('\n'));
    }
}
