//! POST /api/submit-financial: submit the saved table to the finance system in a background job.

use crate::access::{Action, Caller};
use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};
use session_store::CONFIG_FILE;

pub(crate) async fn start(
    state: web::Data<AppState>,
    caller: Caller,
    session_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    if !session.path().join(CONFIG_FILE).is_file() {
        return Err(ApiError::BadRequest(
            "未找到会话配置（config.json），请先处理发票".into(),
        ));
    }
    let has_table = {
        let session = session.clone();
        web::block(move || session.table_file_name())
            .await??
            .is_some()
    };
    if !has_table {
        return Err(ApiError::BadRequest(
            "没有可提交的发票表格，请先处理发票".into(),
        ));
    }
    let finance = state.finance.clone();
    let documents = state.documents.clone();
    let id = session.id().as_str().to_owned();
    state.jobs.start(session, "submit", move |session| {
        let mut result = pipeline::submit(session, &finance);
        // The printed claim gets the claim number the portal gave.
        pipeline::print_after_submission(session, &documents, &mut result);
        result
    })?;
    caller
        .record(&state, Action::SubmitRequested, &id, String::new())
        .await;
    Ok(HttpResponse::Ok().json(serde_json::json!({"status": "started"})))
}
