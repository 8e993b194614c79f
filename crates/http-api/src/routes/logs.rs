//! GET /api/logs: the SSE stream of a session's current run.

use crate::sse::event_stream;
use crate::{ApiError, AppState};
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;
use session_store::RunOffsets;

#[derive(Debug, Deserialize)]
pub(crate) struct LogsQuery {
    /// For clients that cannot set headers (an EventSource polyfill): same as Last-Event-ID.
    last_event_id: Option<String>,
}

pub(crate) async fn stream(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
    query: web::Query<LogsQuery>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let resume = request
        .headers()
        .get("Last-Event-ID")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
        .or_else(|| query.into_inner().last_event_id)
        .and_then(|id| RunOffsets::parse_event_id(&id));
    // Without a resume point a client gets the whole current run, however late it connects.
    let start = match resume {
        Some(offsets) => offsets,
        None => session
            .current_run()
            .ok()
            .flatten()
            .map(|run| run.offsets)
            .unwrap_or_default(),
    };
    let max = state.sse.max_streams_per_session;
    let subscription = state
        .hub
        .subscribe(session.path(), max)
        .ok_or(ApiError::TooManyStreams(max))?;
    let body = event_stream(session, subscription, state.sse, start);
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}
