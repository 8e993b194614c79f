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

use async_openai::error::OpenAIError;
use async_openai::middleware::HttpRequestFactory;
use reqwest::header::CONTENT_TYPE;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

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
                return Ok(response);
            };
            Err(OpenAIError::Boxed(Box::new(diverted)))
        })
    }
}

fn is_json(response: &reqwest::Response) -> bool {
    response
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}
