//! The HTTP shell of reimburse: routes, error mapping, uploads and the SSE stream on actix-web.

mod access;
mod error;
mod front_door;
mod middleware;
mod phone;
mod routes;
mod server;
mod sse;
mod state;

pub use access::{AuthSettings, ProxyHeaders};
pub use error::ApiError;
pub use front_door::{HEAD_TIMEOUT, MAX_HEAD_BYTES, MAX_TARGET_BYTES};
pub use middleware::{AllowedHosts, BodyLimits};
pub use server::{JSON_LIMIT, SMALL_BODY_LIMIT, run, serve};
pub use sse::SseSettings;
pub use state::AppState;
