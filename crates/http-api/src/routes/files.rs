//! GET /api/files: the uploaded PDFs and images of a session.

use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};

pub(crate) async fn list(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let files = web::block(move || session.list_files()).await??;
    let names_of = |listing_type: &str| -> Vec<&str> {
        files
            .iter()
            .filter(|f| f.kind.listing_type() == listing_type)
            .map(|f| f.name.as_str())
            .collect()
    };
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "files": files,
        "pdfs": names_of("pdf"),
        "images": names_of("image"),
    })))
}
