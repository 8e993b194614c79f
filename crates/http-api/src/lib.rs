//! The HTTP shell of reimburse: routes, error mapping, uploads and the SSE stream on actix-web.

mod error;
mod panic_guard;
mod routes;
mod server;
mod sse;
mod state;

pub use error::ApiError;
pub use server::{run, serve};
pub use sse::SseSettings;
pub use state::AppState;
