//! The caller the guard resolved, for handlers: who, from where.

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest};
use auth::Identity;
use std::future::{Ready, ready};

/// Who is asking and from which address; `mode = none` gives [`Identity::everyone`].
#[derive(Debug, Clone)]
pub(crate) struct Caller {
    pub(crate) identity: Identity,
    pub(crate) address: String,
}

impl Caller {
    /// The owner recorded on what this caller creates ("" for everyone).
    pub(crate) fn username(&self) -> &str {
        &self.identity.username
    }

    /// True for a signed-in user (not the single user of `mode = none`).
    pub(crate) fn is_signed_in(&self) -> bool {
        !self.identity.is_everyone()
    }
}

impl FromRequest for Caller {
    type Error = crate::ApiError;
    type Future = Ready<Result<Caller, crate::ApiError>>;

    fn from_request(request: &HttpRequest, _: &mut Payload) -> Self::Future {
        // The guard inserts the caller for every route that needs one; a route that reaches
        // here without one was let through as public and has no business asking.
        ready(
            request
                .extensions()
                .get::<Caller>()
                .cloned()
                .ok_or(crate::ApiError::NotSignedIn),
        )
    }
}
