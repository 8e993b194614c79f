//! Turns a panicking handler into a 500 `{error}` instead of a dropped connection.

use crate::ApiError;
use actix_web::Error;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use futures_util::FutureExt;
use std::panic::AssertUnwindSafe;

/// The request cannot be cloned here (actix needs it uniquely owned further down), so the panic
/// becomes an `Err`, which actix renders through `ApiError::error_response`.
pub(crate) async fn catch_panic(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let path = request.path().to_owned();
    match AssertUnwindSafe(next.call(request)).catch_unwind().await {
        Ok(response) => response.map(ServiceResponse::map_into_boxed_body),
        Err(_) => Err(ApiError::Internal(format!("handler panicked on {path}")).into()),
    }
}
