//! POST /api/upload and /api/mobile-upload: stream one `file` part to the session directory.

use crate::middleware::{BODY_IDLE_TIMEOUT, BodyEnd};
use crate::{ApiError, AppState};
use actix_multipart::Multipart;
use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use futures_util::{Stream, StreamExt};
use session_store::UploadSink;
use std::task::Poll;

/// After a refusal the rest of the body is read and discarded up to this many times the limit,
/// so the client gets our `{error}` instead of a reset connection; past it we hang up.
const DRAIN_FACTOR: u64 = 2;

/// Longest the rest of a refused body is read for.
const DRAIN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

pub(crate) async fn upload(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
    request: HttpRequest,
    mut payload: Multipart,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let limit = state.store.options().max_upload_bytes;
    let drain_budget = limit.saturating_mul(DRAIN_FACTOR);
    // Installed by the body middleware on every request; a default one never ends, leaving
    // only the idle timeout, should it be missing.
    let end = request
        .extensions()
        .get::<BodyEnd>()
        .cloned()
        .unwrap_or_default();
    let outcome = receive_first_file(&session, &mut payload, &end).await;
    // Polling a multipart stream again after it failed or ended panics inside actix-multipart,
    // so only a refusal of ours, with the body still unread, is drained, within a deadline.
    if let Err(Refusal::Ours(_)) = &outcome {
        let _ = tokio::time::timeout(DRAIN_TIMEOUT, drain(&mut payload, drain_budget, &end)).await;
    }
    let sink = outcome
        .map_err(Refusal::into_error)?
        .ok_or(ApiError::NoFileChosen)?;
    let stored_name = web::block(move || sink.finish()).await??;
    let _ = session.log("INFO", "upload", &format!("已上传 {stored_name}"));
    tracing::info!(session = %session.id(), file = %stored_name, "upload stored");
    Ok(HttpResponse::Ok().json(serde_json::json!({"ok": true, "filename": stored_name})))
}

/// Why an upload was refused: the body itself was broken (the multipart stream is finished),
/// or we refused what it carried (the rest of the body is still unread).
enum Refusal {
    Malformed(ApiError),
    Ours(ApiError),
}

impl Refusal {
    fn into_error(self) -> ApiError {
        match self {
            Self::Malformed(error) | Self::Ours(error) => error,
        }
    }
}

impl From<session_store::StoreError> for Refusal {
    fn from(error: session_store::StoreError) -> Self {
        Self::Ours(error.into())
    }
}

fn malformed(error: actix_multipart::MultipartError) -> Refusal {
    Refusal::Malformed(ApiError::BadRequest(format!("上传格式错误：{error}")))
}

/// The next item of a multipart stream. actix-multipart waits forever (no wake-up) when the
/// body ends where it expects more: a missing closing boundary, a Content-Length shorter than
/// the multipart body. Waiting once the whole body has arrived can only be that, so it is a
/// malformed body at once; the idle timeout stays as a last resort.
async fn next_item<S: Stream + Unpin>(
    stream: &mut S,
    end: &BodyEnd,
) -> Result<Option<S::Item>, Refusal> {
    let next = std::future::poll_fn(|cx| match stream.poll_next_unpin(cx) {
        Poll::Pending if end.reached() => Poll::Ready(Err(Refusal::Malformed(
            ApiError::BadRequest(INCOMPLETE_BODY.to_owned()),
        ))),
        other => other.map(Ok),
    });
    tokio::time::timeout(BODY_IDLE_TIMEOUT, next)
        .await
        .unwrap_or(Err(Refusal::Malformed(ApiError::BodyTimeout(
            BODY_IDLE_TIMEOUT.as_secs(),
        ))))
}

/// The answer to a body that ended inside the multipart structure.
const INCOMPLETE_BODY: &str =
    "上传格式错误：请求体已结束，但 multipart 内容不完整（缺少结束分隔符）";

/// Streams the first `file` part that names a file into a sink; `None` when there is none
/// (a browser sends an empty file name when nothing was chosen).
async fn receive_first_file(
    session: &session_store::Session,
    payload: &mut Multipart,
    end: &BodyEnd,
) -> Result<Option<UploadSink>, Refusal> {
    while let Some(field) = next_item(payload, end).await? {
        let mut field = field.map_err(malformed)?;
        let file_name = field
            .content_disposition()
            .filter(|_| field.name() == Some("file"))
            .and_then(|cd| cd.get_filename())
            .map(str::to_owned)
            .unwrap_or_default();
        if file_name.is_empty() {
            while let Some(chunk) = next_item(&mut field, end).await? {
                chunk.map_err(malformed)?;
            }
            continue;
        }
        let mut sink = session.begin_upload(&file_name)?;
        while let Some(chunk) = next_item(&mut field, end).await? {
            let chunk = chunk.map_err(malformed)?;
            sink.write(&chunk)?;
        }
        return Ok(Some(sink));
    }
    Ok(None)
}

/// Reads and discards the rest of the body, stopping at the first error or end (never
/// polling past either) or once `budget` bytes were skipped.
async fn drain(payload: &mut Multipart, budget: u64, end: &BodyEnd) {
    let mut seen = 0u64;
    while let Ok(Some(Ok(mut field))) = next_item(payload, end).await {
        loop {
            match next_item(&mut field, end).await {
                Ok(Some(Ok(chunk))) => {
                    seen += chunk.len() as u64;
                    if seen > budget {
                        return;
                    }
                }
                Ok(None) => break,
                Ok(Some(Err(_))) | Err(_) => return,
            }
        }
    }
}
