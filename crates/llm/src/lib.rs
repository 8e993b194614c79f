//! Client for any OpenAI-compatible chat-completions endpoint (DashScope/Qwen-VL, vLLM,
//! Ollama, OpenAI…) with a blocking API, streamed `llm_stream` events, JSON answers checked
//! against a schema, bounded retries and timeouts; plus a scripted test server.
//!
//! Only this crate knows the OpenAI wire format; its public API speaks its own types
//! ([`ChatRequest`], [`ChatResponse`], [`LlmError`]) and `domain::Event::LlmStream`.

mod client;
mod config;
mod error;
mod json;
mod request;
mod response;
mod retry;
mod runtime;
mod schema;
mod secret;
mod sse;
mod stream;
pub mod testing;
mod tls;
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
