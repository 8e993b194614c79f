//! POST /api/session: create a session.

use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};

pub(crate) async fn create(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    let session = web::block(move || store.create_session()).await??;
    tracing::info!(session = %session.id(), "session created");
    Ok(HttpResponse::Ok().json(serde_json::json!({"session_id": session.id().as_str()})))
}
