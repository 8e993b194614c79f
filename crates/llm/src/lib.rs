//! Client for any OpenAI-compatible chat-completions endpoint (DashScope/Qwen-VL, vLLM,
//! Ollama, OpenAI…) with a blocking API, streamed `llm_stream` events, JSON answers checked
//! against a schema, bounded retries and timeouts; plus a scripted test server.
//!
//! Model calls go through async-openai (its request types and SSE decoding) on the crate's
//! own endpoint configuration and transport; see docs/llm.md for what stays hand-written
//! and why. Only this crate knows the OpenAI wire format; its public API speaks its own
//! types ([`ChatRequest`], [`ChatResponse`], [`LlmError`]) and `domain::Event::LlmStream`.
//!
//! Start from [`LlmConfig`] (`from_parts`: base URL, key, models, timeout) and [`Client`];
//! [`testing::ScriptedServer`] is an OpenAI-compatible server on loopback that answers from a
//! script, for a program's own tests:
//!
//! ```
//! use reimburse_llm::testing::{ScriptedReply, ScriptedServer};
//! use reimburse_llm::{ChatRequest, Client, CollectSink};
//!
//! let server = ScriptedServer::start(vec![ScriptedReply::Stream {
//!     reasoning: Vec::new(),
//!     chunks: vec!["{\"ok\": ".into(), "true}".into()],
//!     chunk_delay_ms: 0,
//! }])?;
//! let client = Client::new(server.config())?;
//! let schema = serde_json::json!({"type": "object", "required": ["ok"],
//!     "properties": {"ok": {"type": "boolean"}}});
//! let request = ChatRequest::text("一切正常吗？").with_json_schema(schema);
//! let mut sink = CollectSink::default(); // the `llm_stream` events, as a page would show them
//! let answer = client.chat(request, &mut sink)?;
//! assert_eq!(answer.json, Some(serde_json::json!({"ok": true})));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod client;
mod config;
mod endpoint;
mod error;
mod json;
mod request;
mod response;
mod retry;
mod runtime;
mod schema;
mod secret;
mod stream;
pub mod testing;
mod tls;
mod transport;
mod wire;

pub use client::Client;
pub use config::{
    Backoff, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_SECS, JsonMode, LlmConfig, Timeouts,
};
pub use error::LlmError;
pub use request::{ChatRequest, ImageInput, Message, ModelKind, Role};
pub use response::{ChatResponse, Usage};
pub use schema::{SchemaError, check_schema, validate};
pub use secret::Secret;
pub use stream::{CollectSink, NullSink, StreamSink};
