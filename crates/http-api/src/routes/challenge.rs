//! The person's answer to a question the finance portal asks during a submission (a captcha):
//! `GET` shows what waits, `POST` answers it. Our addition to the interface, see
//! docs/interface-choices.md.

use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub(crate) struct AnswerBody {
    /// The `id` of the `submit_challenge` event answered; without it, whatever waits.
    #[serde(default)]
    id: Option<String>,
    answer: String,
}

/// `{"challenge": <the submit_challenge event, expires_in counting down> | null}`.
pub(crate) async fn read(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let waiting = state.finance.challenges.waiting(session.id().as_str());
    Ok(HttpResponse::Ok().json(serde_json::json!({"challenge": waiting})))
}

/// `{"ok": true}` once the waiting submission has the answer.
pub(crate) async fn answer(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
    body: web::Json<AnswerBody>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    state
        .finance
        .challenges
        .answer(session.id().as_str(), body.id.as_deref(), &body.answer)?;
    Ok(HttpResponse::Ok().json(serde_json::json!({"ok": true})))
}
