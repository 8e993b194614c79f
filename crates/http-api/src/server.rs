//! Building and running the server: the front door on every connection, then actix-web with
//! the middleware and the routes.

use crate::access::auth_guard;
use crate::front_door;
use crate::middleware::{body_timeout, catch_panic, json_errors, origin_guard};
use crate::routes;
use crate::{ApiError, AppState};
use actix_http::{HttpService, KeepAlive};
use actix_service::{IntoServiceFactory, ServiceFactoryExt, fn_service, map_config};
use actix_web::dev::{AppConfig, Server};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{App, HttpRequest, HttpResponse, error, middleware, web};
use std::net::TcpListener;
use std::time::Duration;
use tracing_actix_web::TracingLogger;

/// Largest JSON body: an edited table at its row limit (see routes::save) fits well inside.
pub const JSON_LIMIT: usize = 4 * 1024 * 1024;

/// Largest other body read whole (the processing endpoints' optional configuration).
pub const SMALL_BODY_LIMIT: usize = 64 * 1024;

/// How long requests in flight may finish when the service stops.
const SHUTDOWN_TIMEOUT_SECS: u64 = 10;

/// Headers on every response: routed ones (through [`security_headers`]), the front door's
/// refusals and errors that escape the middleware (a caught panic). HTML pages set their own
/// Content-Security-Policy, which this one (for JSON, files and streams) does not override.
pub(crate) const SECURITY_HEADERS: [(&str, &str); 5] = [
    ("x-content-type-options", "nosniff"),
    ("x-frame-options", "DENY"),
    ("referrer-policy", "no-referrer"),
    ("cross-origin-resource-policy", "same-origin"),
    (
        "content-security-policy",
        "default-src 'none'; frame-ancestors 'none'",
    ),
];

fn security_headers() -> middleware::DefaultHeaders {
    SECURITY_HEADERS
        .into_iter()
        .fold(middleware::DefaultHeaders::new(), |headers, pair| {
            headers.add(pair)
        })
}

/// An error that came out of the app as `Err` (a panic caught by `catch_panic`) skips the
/// header middleware, which only sees `Ok` responses; it gets the same headers here.
fn with_security_headers(mut response: HttpResponse) -> HttpResponse {
    for (name, value) in SECURITY_HEADERS {
        let name = HeaderName::from_static(name);
        if !response.headers().contains_key(&name) {
            response
                .headers_mut()
                .insert(name, HeaderValue::from_static(value));
        }
    }
    response
}

/// The application: middleware (outermost first: `{error}` bodies, security headers, panics,
/// tracing, Host and cross-site checks, who may ask (sign-in and ownership), body idle
/// timeout), extractor settings and routes.
fn app(
    data: web::Data<AppState>,
) -> App<
    impl actix_service::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .wrap(middleware::from_fn(body_timeout))
        .wrap(middleware::from_fn(auth_guard))
        .wrap(middleware::from_fn(origin_guard))
        .wrap(TracingLogger::default())
        .wrap(middleware::from_fn(catch_panic))
        .wrap(security_headers())
        .wrap(middleware::from_fn(json_errors))
        .app_data(data)
        .app_data(
            web::JsonConfig::default()
                .limit(JSON_LIMIT)
                .error_handler(json_error),
        )
        .app_data(web::PayloadConfig::default().limit(SMALL_BODY_LIMIT))
        .app_data(web::PathConfig::default().error_handler(|_, _| ApiError::SessionNotFound.into()))
        .app_data(
            web::QueryConfig::default()
                .error_handler(|e, _| ApiError::BadRequest(e.to_string()).into()),
        )
        .configure(routes::configure)
        .default_service(web::to(|| async {
            Err::<actix_web::HttpResponse, _>(ApiError::NoSuchEndpoint)
        }))
}

/// Starts serving on an already bound listener (port 0 in tests). The returned server runs until
/// it is stopped or receives SIGINT/SIGTERM, then finishes in-flight requests gracefully.
pub fn serve(
    listener: TcpListener,
    state: AppState,
    workers: Option<usize>,
) -> std::io::Result<Server> {
    let addr = listener.local_addr()?;
    let mut state = state;
    state.reach.listen = Some(addr);
    let data = web::Data::new(state);
    listener.set_nonblocking(true)?;
    let mut builder = Server::build().shutdown_timeout(SHUTDOWN_TIMEOUT_SECS);
    if let Some(count) = workers {
        builder = builder.workers(count.max(1));
    }
    let server = builder
        .listen("reimburse", listener, move || {
            let data = data.clone();
            let http = HttpService::build()
                // One request per connection: every head passes the front door.
                .keep_alive(KeepAlive::Disabled)
                .client_request_timeout(front_door::HEAD_TIMEOUT)
                .client_disconnect_timeout(Duration::from_secs(1))
                .local_addr(addr)
                .h1(map_config(
                    app(data).into_factory().map_err(|err: actix_web::Error| {
                        with_security_headers(err.error_response())
                    }),
                    |()| AppConfig::default(),
                ));
            fn_service(|stream: actix_rt::net::TcpStream| front_door::admit(stream))
                .map_err(actix_http::error::DispatchError::Io)
                .and_then(http)
        })?
        .run();
    Ok(server)
}

/// Runs the service on the calling thread until SIGINT/SIGTERM, then shuts down gracefully.
/// For the binary, which thereby needs no knowledge of actix.
pub fn run(listener: TcpListener, state: AppState, workers: Option<usize>) -> std::io::Result<()> {
    actix_web::rt::System::new().block_on(async move { serve(listener, state, workers)?.await })
}

fn json_error(error: error::JsonPayloadError, _: &HttpRequest) -> error::Error {
    let message = match &error {
        error::JsonPayloadError::ContentType => {
            "请求体必须是 JSON（Content-Type: application/json）".to_owned()
        }
        error::JsonPayloadError::Overflow { .. }
        | error::JsonPayloadError::OverflowKnownLength { .. } => {
            return ApiError::BodyTooLarge(JSON_LIMIT / (1024 * 1024)).into();
        }
        other => format!("请求体不是有效的 JSON：{other}"),
    };
    ApiError::BadRequest(message).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_escaped_error_gets_every_security_header() {
        let error: actix_web::Error = ApiError::Internal("panic".into()).into();
        let response = with_security_headers(error.error_response());
        for (name, value) in SECURITY_HEADERS {
            assert_eq!(response.headers().get(name).unwrap(), value, "{name}");
        }
        // A page's own policy is kept.
        let page = HttpResponse::Ok()
            .insert_header(("content-security-policy", "default-src 'self'"))
            .finish();
        let page = with_security_headers(page);
        assert_eq!(
            page.headers().get("content-security-policy").unwrap(),
            "default-src 'self'"
        );
    }
}
