//! GET /api/config: the session configuration, else the project-wide one (sign-in off) or the
//! signed-in user's own saved defaults; password always "".

use crate::access::{Caller, defaults_for};
use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};

pub(crate) async fn read(
    state: web::Data<AppState>,
    caller: Caller,
    session_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let stored = web::block(move || session.read_public_config()).await??;
    let view = match stored {
        Some(config) => config.public_view(),
        None => defaults_for(&state, &caller).await.public_view(),
    };
    Ok(HttpResponse::Ok().json(view))
}
