//! POST /api/session: create a session, owned by the signed-in user.

use crate::access::{Action, Caller};
use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};

pub(crate) async fn create(
    state: web::Data<AppState>,
    caller: Caller,
) -> Result<HttpResponse, ApiError> {
    let store = state.store.clone();
    let owner = caller.username().to_owned();
    let session = web::block(move || {
        if owner.is_empty() {
            store.create_session()
        } else {
            store.create_owned_session(&owner)
        }
    })
    .await??;
    tracing::info!(session = %session.id(), "session created");
    let id = session.id().as_str();
    caller
        .record(&state, Action::SessionCreated, id, String::new())
        .await;
    Ok(HttpResponse::Ok().json(serde_json::json!({"session_id": session.id().as_str()})))
}
