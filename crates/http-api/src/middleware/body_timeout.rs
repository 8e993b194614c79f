//! A request body must keep arriving and must arrive in time: 20 s of silence, or a total
//! deadline that grows with the declared Content-Length ([`BodyLimits`]), ends the request with
//! a 408 `{error}`. Without the deadline a client sending one byte every few seconds held its
//! socket and its upload's temp file for as long as it liked. One client address may send only
//! a few bodies at once (see `body_slots.rs`); more are refused with 429 before any is read.
//! The handler learns when the body has arrived whole ([`BodyEnd`]), so a parser left waiting
//! after that is answered at once.

use super::body_slots::BodySlot;
use crate::{ApiError, AppState, JSON_LIMIT};
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::middleware::Next;
use actix_web::web::{self, Bytes};
use actix_web::{Error, HttpMessage};
use futures_util::Stream;
use std::cell::Cell;
use std::net::{IpAddr, Ipv4Addr};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

/// Longest silence in the middle of a request body.
pub(crate) const BODY_IDLE_TIMEOUT: Duration = Duration::from_secs(20);

/// Room for the multipart framing around the largest upload, when the declared length of a
/// body is capped for its deadline.
const FRAMING_SLACK: u64 = 1024 * 1024;

/// How long a request body may take and how many one address may send at once (`[upload]` in
/// the service configuration). The deadline is a base plus the declared length at a minimum
/// average rate: the defaults let a 50 MiB upload take 54 minutes (a phone on a poor link),
/// while a trickle of a few bytes ends within about a minute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyLimits {
    /// Time every body may take, whatever its length.
    pub deadline_base: Duration,
    /// Slowest average rate a body may arrive at, in KiB per second.
    pub min_rate_kib: u64,
    /// Most bodies (uploads, saves) one client address may be sending at once.
    pub per_address: usize,
}

impl Default for BodyLimits {
    fn default() -> Self {
        Self {
            deadline_base: Duration::from_secs(60),
            min_rate_kib: 16,
            per_address: 8,
        }
    }
}

impl BodyLimits {
    /// How long a body of `length` bytes may take to arrive whole.
    pub fn deadline(&self, length: u64) -> Duration {
        let rate = self.min_rate_kib.max(1).saturating_mul(1024);
        self.deadline_base
            .saturating_add(Duration::from_secs(length.div_ceil(rate)))
    }
}

/// Whether a request's body has arrived whole, shared with the handler (through the request's
/// extensions): a parser that still waits for input after that would wait forever.
#[derive(Debug, Clone, Default)]
pub(crate) struct BodyEnd(Rc<Cell<bool>>);

impl BodyEnd {
    pub(crate) fn reached(&self) -> bool {
        self.0.get()
    }
}

/// Why a body was cut off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expiry {
    Idle,
    Deadline,
}

/// A body stream that fails after [`BODY_IDLE_TIMEOUT`] without a byte, or at its deadline.
struct TimedBody {
    inner: Payload,
    /// Fires at the earlier of the idle limit and the deadline.
    timer: Pin<Box<Sleep>>,
    deadline: Instant,
    expired: Rc<Cell<Option<Expiry>>>,
    end: BodyEnd,
    /// Given back as soon as the body is over, whatever the handler still does.
    slot: Option<BodySlot>,
    done: bool,
}

impl TimedBody {
    fn next_wake(&self) -> Instant {
        (Instant::now() + BODY_IDLE_TIMEOUT).min(self.deadline)
    }
}

impl Stream for TimedBody {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        match Pin::new(&mut self.inner).poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                let next = self.next_wake();
                self.timer.as_mut().reset(next);
                Poll::Ready(Some(Ok(chunk)))
            }
            Poll::Ready(other) => {
                self.done = true;
                self.slot = None;
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
                self.slot = None;
                let expiry = if Instant::now() >= self.deadline {
                    Expiry::Deadline
                } else {
                    Expiry::Idle
                };
                self.expired.set(Some(expiry));
                Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "request body too slow",
                )))))
            }
        }
    }
}

/// The declared body length, capped at the largest body the service accepts (a larger one is
/// refused anyway), so that no Content-Length buys a longer deadline than a real upload gets.
fn declared_length(request: &ServiceRequest, state: Option<&AppState>) -> u64 {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(0);
    let largest = state
        .map_or(0, |s| s.store.options().max_upload_bytes)
        .max(JSON_LIMIT as u64)
        .saturating_add(FRAMING_SLACK);
    declared.min(largest)
}

/// The client's address as counted for its slots: an IPv4 client on an IPv6 socket counts as
/// its IPv4 address.
fn client_address(request: &ServiceRequest) -> IpAddr {
    request
        .peer_addr()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |peer| {
            peer.ip().to_canonical()
        })
}

pub(crate) async fn body_timeout(
    mut request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let state = request.app_data::<web::Data<AppState>>().cloned();
    let limits = state.as_ref().map(|s| s.bodies).unwrap_or_default();
    let length = declared_length(&request, state.as_ref().map(|s| s.get_ref()));
    let slot = match &state {
        Some(state) if length > 0 => {
            let slot = state
                .body_slots
                .acquire(client_address(&request), limits.per_address);
            if slot.is_none() {
                let error = ApiError::TooManyUploads(limits.per_address.max(1));
                return Ok(request.error_response(error));
            }
            slot
        }
        _ => None,
    };
    let allowed = limits.deadline(length);
    let expired = Rc::new(Cell::new(None));
    let end = BodyEnd::default();
    request.extensions_mut().insert(end.clone());
    let deadline = Instant::now() + allowed;
    let stream = TimedBody {
        inner: request.take_payload(),
        timer: Box::pin(tokio::time::sleep_until(
            (Instant::now() + BODY_IDLE_TIMEOUT).min(deadline),
        )),
        deadline,
        expired: Rc::clone(&expired),
        end,
        slot,
        done: false,
    };
    request.set_payload(Payload::from(
        Box::pin(stream) as actix_http::BoxedPayloadStream
    ));
    let response = next.call(request).await?.map_into_boxed_body();
    let error = match expired.get() {
        None => return Ok(response),
        Some(Expiry::Idle) => ApiError::BodyTimeout(BODY_IDLE_TIMEOUT.as_secs()),
        Some(Expiry::Deadline) => {
            ApiError::BodyDeadline(allowed.as_secs(), limits.min_rate_kib.max(1))
        }
    };
    let (request, _) = response.into_parts();
    Ok(ServiceResponse::new(
        request,
        actix_web::ResponseError::error_response(&error),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_grows_with_the_declared_length() {
        let limits = BodyLimits::default();
        assert_eq!(limits.deadline(0), Duration::from_secs(60));
        assert_eq!(limits.deadline(1), Duration::from_secs(61));
        // 50 MiB at 16 KiB/s: a phone on a poor link (128 kbit/s) still gets through.
        assert_eq!(
            limits.deadline(50 * 1024 * 1024),
            Duration::from_secs(60 + 3200)
        );
        // A zero rate in the configuration is taken as the slowest rate, not a division by 0.
        let zero = BodyLimits {
            min_rate_kib: 0,
            ..limits
        };
        assert_eq!(zero.deadline(2048), Duration::from_secs(62));
    }
}
