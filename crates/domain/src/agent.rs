//! Agent states and the agent session state object returned by the state endpoint.

use serde::{Deserialize, Serialize};

/// Round limit of the agent flow, as the interface reports it.
pub const MAX_ROUNDS: u32 = 5;

/// The states of the agent flow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentState {
    #[default]
    Idle,
    Extracting,
    AwaitingSupplement,
    Ready,
    Submitting,
    Done,
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
    pub session_id: String,
    pub state: AgentState,
    pub rounds: u32,
    pub max_rounds: u32,
    pub invoice_type: String,
    pub extracted_info: serde_json::Value,
    pub validation_reports: Vec<serde_json::Value>,
    pub user_supplements: Vec<serde_json::Value>,
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
