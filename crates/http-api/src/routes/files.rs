//! GET /api/files: the uploaded PDFs and images of a session.

use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};
use domain::FileKind;

pub(crate) async fn list(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let files = web::block(move || session.list_files()).await??;
    let names_of = |kind: FileKind| -> Vec<&str> {
        files
            .iter()
            .filter(|f| f.kind == kind)
            .map(|f| f.name.as_str())
            .collect()
    };
    Ok(HttpResponse::Ok().json(serde_json::json!({
        "files": files,
        "pdfs": names_of(FileKind::Pdf),
        "images": names_of(FileKind::Image),
    })))
}
