//! The middleware every request passes, outermost first: `{error}` bodies for every error,
//! security headers, panics caught, the Host and cross-site checks, the body's idle timeout,
//! deadline and slots per client address.

mod body_slots;
mod body_timeout;
mod json_errors;
mod origin;
mod panic_guard;

pub(crate) use body_slots::BodySlots;
pub use body_timeout::BodyLimits;
pub(crate) use body_timeout::{BODY_IDLE_TIMEOUT, BodyEnd, body_timeout};
pub(crate) use json_errors::json_errors;
pub use origin::AllowedHosts;
pub(crate) use origin::{CheckedHost, origin_guard};
pub(crate) use panic_guard::catch_panic;
