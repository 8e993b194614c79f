//! GET /api/config: the session configuration, or the project-wide one; password always "".

use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};

pub(crate) async fn read(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let stored = web::block(move || session.read_public_config()).await??;
    let view = match stored {
        Some(config) => config.public_view(),
        None => state.defaults.public_view(),
    };
    Ok(HttpResponse::Ok().json(view))
}
