//! A request body that stops arriving ends the request with a 408 `{error}` after a short
//! silence, instead of holding a worker for minutes (a client once announced a body and sent
//! nothing, and was held over 85 s). The handler learns when the body has arrived whole
//! ([`BodyEnd`]), so a parser left waiting after that is answered at once.

use crate::ApiError;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{Error, HttpMessage};
use futures_util::Stream;
use std::cell::Cell;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

/// Longest silence in the middle of a request body.
pub(crate) const BODY_IDLE_TIMEOUT: Duration = Duration::from_secs(20);

/// Whether a request's body has arrived whole, shared with the handler (through the request's
/// extensions): a parser that still waits for input after that would wait forever.
#[derive(Debug, Clone, Default)]
pub(crate) struct BodyEnd(Rc<Cell<bool>>);

impl BodyEnd {
    pub(crate) fn reached(&self) -> bool {
        self.0.get()
    }
}

/// A body stream that fails once no byte arrived for [`BODY_IDLE_TIMEOUT`].
struct IdleTimeout {
    inner: Payload,
    timer: Pin<Box<Sleep>>,
    timed_out: Rc<Cell<bool>>,
    end: BodyEnd,
    done: bool,
}

impl Stream for IdleTimeout {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                let next = Instant::now() + BODY_IDLE_TIMEOUT;
                self.timer.as_mut().reset(next);
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(other) => {
                self.done = true;
                if other.is_none() {
                    self.end.0.set(true);
                }
                Poll::Ready(other)
            }
            Poll::Pending => {
                if self.timer.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                self.done = true;
                self.timed_out.set(true);
                Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "request body idle",
                )))))
            }
        }
    }
}

pub(crate) async fn body_timeout(
    mut request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let timed_out = Rc::new(Cell::new(false));
    let end = BodyEnd::default();
    request.extensions_mut().insert(end.clone());
    let stream = IdleTimeout {
        inner: request.take_payload(),
        timer: Box::pin(tokio::time::sleep(BODY_IDLE_TIMEOUT)),
        timed_out: Rc::clone(&timed_out),
        end,
        done: false,
    };
    request.set_payload(Payload::from(
        Box::pin(stream) as actix_http::BoxedPayloadStream
    ));
    let response = next.call(request).await?.map_into_boxed_body();
    if !timed_out.get() {
        return Ok(response);
    }
    let (request, _) = response.into_parts();
    let error = ApiError::BodyTimeout(BODY_IDLE_TIMEOUT.as_secs());
    Ok(ServiceResponse::new(
        request,
        actix_web::ResponseError::error_response(&error),
    ))
}
