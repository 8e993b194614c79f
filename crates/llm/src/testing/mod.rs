//! A scripted OpenAI-compatible chat-completions server on loopback, for tests here and in
//! other crates. Compiled always (it is small and needs nothing the client does not), so a
//! test anywhere in the workspace can `use reimburse_llm::testing::{ScriptedServer, ScriptedReply}`.

mod http;
mod recorded;
mod reply;
mod server;

pub use recorded::{RecordedMessage, RecordedRequest};
pub use reply::ScriptedReply;
pub use server::{ScriptedServer, TEST_API_KEY};
