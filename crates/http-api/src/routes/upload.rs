//! POST /api/upload and /api/mobile-upload: stream one `file` part to the session directory.

use crate::middleware::BODY_IDLE_TIMEOUT;
use crate::{ApiError, AppState};
use actix_multipart::Multipart;
use actix_web::{HttpResponse, web};
use futures_util::StreamExt;
use session_store::UploadSink;

/// After a refusal the rest of the body is read and discarded up to this many times the limit,
/// so the client gets our `{error}` instead of a reset connection; past it we hang up.
const DRAIN_FACTOR: u64 = 2;

/// Longest the rest of a refused body is read for.
const DRAIN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

pub(crate) async fn upload(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
    mut payload: Multipart,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let limit = state.store.options().max_upload_bytes;
    let drain_budget = limit.saturating_mul(DRAIN_FACTOR);
    let outcome = receive_first_file(&session, &mut payload).await;
    // Polling a multipart stream again after it failed or ended panics inside actix-multipart,
    // so only a refusal of ours, with the body still unread, is drained.
    // actix-multipart can wait forever for the rest of a field whose body ended early (a
    // Content-Length shorter than the multipart body), so the drain gets a deadline.
    if let Err(Refusal::Ours(_)) = &outcome {
        let _ = tokio::time::timeout(DRAIN_TIMEOUT, drain(&mut payload, drain_budget)).await;
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

/// The next item of a multipart stream, within the body's idle timeout. actix-multipart can
/// wait forever (no wake-up) on a field cut short by a Content-Length shorter than the body,
/// where the middleware's timer no longer runs because the body itself has ended.
async fn next_within<S: futures_util::Stream + Unpin>(
    stream: &mut S,
) -> Result<Option<S::Item>, Refusal> {
    tokio::time::timeout(BODY_IDLE_TIMEOUT, stream.next())
        .await
        .map_err(|_| Refusal::Malformed(ApiError::BodyTimeout(BODY_IDLE_TIMEOUT.as_secs())))
}

/// Streams the first `file` part that names a file into a sink; `None` when there is none
/// (a browser sends an empty file name when nothing was chosen).
async fn receive_first_file(
    session: &session_store::Session,
    payload: &mut Multipart,
) -> Result<Option<UploadSink>, Refusal> {
    while let Some(field) = next_within(payload).await? {
        let mut field = field.map_err(malformed)?;
        let file_name = field
            .content_disposition()
            .filter(|_| field.name() == Some("file"))
            .and_then(|cd| cd.get_filename())
            .map(str::to_owned)
            .unwrap_or_default();
        if file_name.is_empty() {
            while let Some(chunk) = next_within(&mut field).await? {
                chunk.map_err(malformed)?;
            }
            continue;
        }
        let mut sink = session.begin_upload(&file_name)?;
        while let Some(chunk) = next_within(&mut field).await? {
            let chunk = chunk.map_err(malformed)?;
            sink.write(&chunk)?;
        }
        return Ok(Some(sink));
    }
    Ok(None)
}

/// Reads and discards the rest of the body, stopping at the first error or end (never
/// polling past either) or once `budget` bytes were skipped.
async fn drain(payload: &mut Multipart, budget: u64) {
    let mut seen = 0u64;
    while let Some(Ok(mut field)) = payload.next().await {
        loop {
            match field.next().await {
                Some(Ok(chunk)) => {
                    seen += chunk.len() as u64;
                    if seen > budget {
                        return;
                    }
                }
                Some(Err(_)) => return,
                None => break,
            }
        }
    }
}
