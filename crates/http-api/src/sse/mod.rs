//! The SSE stream: a file-watch hub and the per-client event stream over a session's logs.

mod frame;
mod hub;
mod stream;

pub(crate) use hub::WatchHub;
pub(crate) use stream::event_stream;

use std::time::Duration;

/// Timing of the SSE stream.
#[derive(Debug, Clone, Copy)]
pub struct SseSettings {
    /// Fallback poll of the logs when no file event arrives (the interface's 0.5 s).
    pub poll_interval: Duration,
    /// A stream is closed after this long (the interface's 900 s).
    pub timeout: Duration,
    /// A comment line is sent after this much silence, so proxies keep the connection and a
    /// closed client is noticed.
    pub keepalive: Duration,
    /// Most streams open at once on one session (a page, a reload, a second tab, a phone);
    /// past it a client gets 429 `{error}`.
    pub max_streams_per_session: usize,
}

impl Default for SseSettings {
    fn default() -> Self {
        Self {
            poll_interval: Duration::from_millis(500),
            timeout: Duration::from_secs(900),
            keepalive: Duration::from_secs(15),
            max_streams_per_session: 16,
        }
    }
}
