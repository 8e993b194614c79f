//! Building and running the actix-web server.

use crate::panic_guard::catch_panic;
use crate::routes;
use crate::{ApiError, AppState};
use actix_web::dev::Server;
use actix_web::{App, HttpRequest, HttpServer, error, middleware, web};
use std::net::TcpListener;
use tracing_actix_web::TracingLogger;

/// Largest JSON body (an edited table of a few thousand rows fits well inside).
const JSON_LIMIT: usize = 16 * 1024 * 1024;

/// Starts serving on an already bound listener (port 0 in tests). The returned server runs until
/// it is stopped or receives SIGINT/SIGTERM, then finishes in-flight requests gracefully.
pub fn serve(
    listener: TcpListener,
    state: AppState,
    workers: Option<usize>,
) -> std::io::Result<Server> {
    let data = web::Data::new(state);
    let server = HttpServer::new(move || {
        App::new()
            .wrap(middleware::from_fn(catch_panic))
            .wrap(TracingLogger::default())
            .app_data(data.clone())
            .app_data(
                web::JsonConfig::default()
                    .limit(JSON_LIMIT)
                    .error_handler(json_error),
            )
            .app_data(
                web::PathConfig::default().error_handler(|_, _| ApiError::SessionNotFound.into()),
            )
            .app_data(
                web::QueryConfig::default()
                    .error_handler(|e, _| ApiError::BadRequest(e.to_string()).into()),
            )
            .configure(routes::configure)
            .default_service(web::to(|| async {
                Err::<actix_web::HttpResponse, _>(ApiError::NoSuchEndpoint)
            }))
    });
    let server = match workers {
        Some(count) => server.workers(count.max(1)),
        None => server,
    };
    let server = server.listen(listener)?.shutdown_timeout(10).run();
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
        | error::JsonPayloadError::OverflowKnownLength { .. } => "请求体过大".to_owned(),
        other => format!("请求体不是有效的 JSON：{other}"),
    };
    ApiError::BadRequest(message).into()
}
