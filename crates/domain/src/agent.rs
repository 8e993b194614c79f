//! Agent states and the agent session state object returned by the state endpoint.

use serde::{Deserialize, Serialize};

/// Round limit of the agent flow, as the interface reports it.
pub const MAX_ROUNDS: u32 = 5;

/// The states of the agent flow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentState {
    /// No run has started (the state a session's agent begins in).
    #[default]
    Idle,
    /// A round extracts the invoices and validates them.
    Extracting,
    /// The round's judgement did not pass: waiting for files, text or a forced submission.
    AwaitingSupplement,
    /// The judgement passed (or the user forced submission); submission follows.
    Ready,
    /// The claim is being submitted to the finance system.
    Submitting,
    /// Submission ended, successfully or not.
    Done,
    /// The run failed (no invoice data, extraction failed, the round limit passed).
    Error,
}

impl AgentState {
    /// The wire name of the state.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Idle => "idle",
            Self::Extracting => "extracting",
            Self::AwaitingSupplement => "awaiting_supplement",
            Self::Ready => "ready",
            Self::Submitting => "submitting",
            Self::Done => "done",
            Self::Error => "error",
        }
    }
}

/// The agent session state (agent_state.json and GET /api/agent/state).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentSessionState {
    /// The session this state belongs to.
    pub session_id: String,
    /// Where the flow stands.
    pub state: AgentState,
    /// Rounds of the current run.
    pub rounds: u32,
    /// The round limit, [`MAX_ROUNDS`].
    pub max_rounds: u32,
    /// `travel` or `general` once a round has judged; empty before.
    pub invoice_type: String,
    /// What the rounds extracted: `{rows, trip, materials, user}` (see docs/api.md).
    pub extracted_info: serde_json::Value,
    /// One report per round: `{round, attempts, issues, corrections, judgement}`.
    pub validation_reports: Vec<serde_json::Value>,
    /// What the user supplied, by files or by text, in order.
    pub user_supplements: Vec<serde_json::Value>,
    /// Why the run failed; empty when it did not.
    pub error_message: String,
}

impl AgentSessionState {
    /// The state a session's agent starts in.
    pub fn new(session_id: impl Into<String>) -> Self {
        Self {
            session_id: session_id.into(),
            state: AgentState::Idle,
            rounds: 0,
            max_rounds: MAX_ROUNDS,
            invoice_type: String::new(),
            extracted_info: serde_json::Value::Object(serde_json::Map::new()),
            validation_reports: Vec::new(),
            user_supplements: Vec::new(),
            error_message: String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_use_the_interface_names() {
        for state in [
            AgentState::Idle,
            AgentState::Extracting,
            AgentState::AwaitingSupplement,
            AgentState::Ready,
            AgentState::Submitting,
            AgentState::Done,
            AgentState::Error,
        ] {
            let json = serde_json::to_value(state).unwrap();
            assert_eq!(json, state.as_str());
        }
    }

    #[test]
    fn new_state_is_idle_with_five_rounds() {
        let state = AgentSessionState::new("abc");
        let json = serde_json::to_value(&state).unwrap();
        assert_eq!(json["state"], "idle");
        assert_eq!(json["max_rounds"], 5);
        assert_eq!(json["error_message"], "");
        assert!(json["extracted_info"].is_object());
    }
}
