//! The HTTP transport under async-openai: sends the request it builds, and hands every
//! response that is not a stream back to the client untouched.
//!
//! async-openai's own executor retries 429, 5xx and connection errors by itself (three
//! times, its own waits), which would hide attempts from the sink and from `max_retries`;
//! and its error handling reads an error body into `ApiErrorResponse`, which loses
//! `Retry-After`, loses the status when the body is not OpenAI's error shape, and logs a
//! 5xx body unscrubbed (measured, see docs/llm.md). So the client installs this service
//! instead (async-openai's `middleware` feature): one request, no retries, and an error
//! status or a whole JSON answer comes back as [`Diverted`] inside `OpenAIError::Boxed`,
//! response and all, for the client to read under its own timeouts.
//!
//! A streamed body is passed on with two additions. The idle limit counts silence on the
//! wire, but async-openai's SSE decoder swallows the `: keep-alive` comments some providers
//! send while a model thinks, so the client cannot see them as events: the transport notes
//! when body bytes arrive ([`Activity`]) for the attempt that installed one with
//! [`with_activity`]. And the decoder drops an event the server did not close with a blank
//! line before closing the connection, so a blank line is added at the end of the body.

use async_openai::error::OpenAIError;
use async_openai::middleware::HttpRequestFactory;
use bytes::Bytes;
use futures_util::StreamExt as _;
use reqwest::header::CONTENT_TYPE;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

tokio::task_local! {
    /// The running attempt's [`Activity`]: async-openai's API has no per-request context, and
    /// several attempts share one transport.
    static ACTIVITY: Arc<Activity>;
}

/// When the response body of one attempt last delivered bytes.
#[derive(Debug)]
pub(crate) struct Activity {
    last: Mutex<Instant>,
}

impl Activity {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self {
            last: Mutex::new(Instant::now()),
        })
    }

    fn touch(&self) {
        *self.last.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
    }

    /// How long the body has been silent: since its last bytes, its head, or the start of
    /// the attempt, whichever came last.
    pub(crate) fn quiet_for(&self) -> Duration {
        self.last
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .elapsed()
    }
}

/// Runs `future` (an async-openai call) with `activity` noting its body's bytes.
pub(crate) async fn with_activity<F: Future>(activity: Arc<Activity>, future: F) -> F::Output {
    ACTIVITY.scope(activity, future).await
}

#[derive(Clone)]
pub(crate) struct Transport {
    http: reqwest::Client,
}

impl Transport {
    pub(crate) fn new(http: reqwest::Client) -> Self {
        Self { http }
    }
}

/// A response async-openai must not handle: the client reads it itself.
pub(crate) enum Diverted {
    /// A non-success status.
    Refused(reqwest::Response),
    /// `200` with `application/json`: a server that ignored `stream: true`.
    WholeAnswer(reqwest::Response),
}

impl Diverted {
    /// Takes the diverted response back out of async-openai's error, or returns the error.
    pub(crate) fn take(error: OpenAIError) -> Result<Self, OpenAIError> {
        match error {
            OpenAIError::Boxed(boxed) => boxed
                .downcast::<Self>()
                .map(|diverted| *diverted)
                .map_err(OpenAIError::Boxed),
            other => Err(other),
        }
    }
}

// By hand: the derived Debug would print the response's URL, which may carry a query.
impl std::fmt::Debug for Diverted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Refused(response) => write!(f, "Refused({})", response.status()),
            Self::WholeAnswer(_) => f.write_str("WholeAnswer"),
        }
    }
}

impl std::fmt::Display for Diverted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Refused(response) => write!(f, "endpoint answered {}", response.status()),
            Self::WholeAnswer(_) => f.write_str("endpoint answered one JSON body, not a stream"),
        }
    }
}

impl std::error::Error for Diverted {}

type ResponseFuture = Pin<Box<dyn Future<Output = Result<reqwest::Response, OpenAIError>> + Send>>;

impl tower_service::Service<HttpRequestFactory> for Transport {
    type Response = reqwest::Response;
    type Error = OpenAIError;
    type Future = ResponseFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), OpenAIError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: HttpRequestFactory) -> ResponseFuture {
        let http = self.http.clone();
        Box::pin(async move {
            let request = request.build().await?;
            let response = http.execute(request).await.map_err(OpenAIError::Reqwest)?;
            let diverted = if !response.status().is_success() {
                Diverted::Refused(response)
            } else if is_json(&response) {
                Diverted::WholeAnswer(response)
            } else {
                return Ok(match ACTIVITY.try_with(Arc::clone) {
                    Ok(activity) => watched(response, activity),
                    Err(_) => response,
                });
            };
            Err(OpenAIError::Boxed(Box::new(diverted)))
        })
    }
}

/// The same response, its body noting each arrival of bytes in `activity` and ending in a
/// blank line.
fn watched(response: reqwest::Response, activity: Arc<Activity>) -> reqwest::Response {
    // The head just arrived: the silence starts now, not when the request went out.
    activity.touch();
    let mut head = http::Response::builder()
        .status(response.status())
        .version(response.version());
    if let Some(headers) = head.headers_mut() {
        *headers = response.headers().clone();
    }
    let end = futures_util::stream::once(async { Ok(Bytes::from_static(b"\n\n")) });
    let body = response
        .bytes_stream()
        .inspect(move |_| activity.touch())
        .chain(end);
    match head.body(reqwest::Body::wrap_stream(body)) {
        Ok(rebuilt) => reqwest::Response::from(rebuilt),
        // Unreachable: the parts come from a valid response. Nothing to return but an
        // empty body, which the client reports as a cut stream.
        Err(_) => reqwest::Response::from(http::Response::new(reqwest::Body::from(Vec::new()))),
    }
}

fn is_json(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}
