//! Every error response has an `{error}` JSON body, whoever made it: a handler's `ApiError`
//! already has one; actix's own refusals (a body over its limit, a method the route does not
//! take, an extractor's failure) come as plain text or empty, and get one here, by status.

use crate::error::status_message;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{Error, HttpResponse};

/// A body of ours already: JSON, or a page (the phone page's "session unknown" is HTML on
/// purpose, for a person, not a client).
fn is_ours(response: &HttpResponse<BoxBody>) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") || v.starts_with("text/html"))
}

pub(crate) async fn json_errors(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let response = next.call(request).await?.map_into_boxed_body();
    if !(response.status().is_client_error() || response.status().is_server_error())
        || is_ours(response.response())
    {
        return Ok(response);
    }
    let (request, old) = response.into_parts();
    let mut new = HttpResponse::build(old.status())
        .json(serde_json::json!({"error": status_message(old.status())}));
    for (name, value) in old.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            new.headers_mut().append(name.clone(), value.clone());
        }
    }
    new.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Ok(ServiceResponse::new(request, new))
}
