//! The JSON API for tests: accepted claims, clearing them, and the live test hooks.
//!
//! It needs no login on purpose: it is how a test checks what the bot submitted.

use crate::error::PortalError;
use crate::hooks::Hooks;
use crate::state::PortalState;
use actix_web::error::JsonPayloadError;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::json;

/// Largest hooks document.
const JSON_LIMIT: usize = 64 * 1024;

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::scope("/api")
            .app_data(
                web::JsonConfig::default()
                    .limit(JSON_LIMIT)
                    .error_handler(bad_json),
            )
            .route("/health", web::get().to(health))
            .route("/claims", web::get().to(list_claims))
            .route("/claims", web::delete().to(clear_claims))
            .route("/reset", web::post().to(reset))
            .route("/hooks", web::get().to(get_hooks))
            .route("/hooks", web::put().to(put_hooks)),
    );
}

fn bad_json(error: JsonPayloadError, _: &HttpRequest) -> actix_web::Error {
    let response = HttpResponse::BadRequest()
        .json(json!({"error": format!("请求体不是有效的 JSON：{error}")}));
    actix_web::error::InternalError::from_response(error, response).into()
}

fn failed(error: &PortalError) -> HttpResponse {
    tracing::error!(%error, "demo portal api error");
    HttpResponse::InternalServerError().json(json!({"error": error.to_string()}))
}

async fn health() -> HttpResponse {
    HttpResponse::Ok().json(json!({"ok": true}))
}

/// GET /api/claims: `{"claims": [...]}`, oldest first.
async fn list_claims(state: web::Data<PortalState>) -> HttpResponse {
    HttpResponse::Ok().json(json!({"claims": state.claims()}))
}

/// DELETE /api/claims: forgets every claim.
async fn clear_claims(state: web::Data<PortalState>) -> HttpResponse {
    match state.clear_claims() {
        Ok(removed) => HttpResponse::Ok().json(json!({"ok": true, "removed": removed})),
        Err(error) => failed(&error),
    }
}

/// POST /api/reset: no claims, no sessions, the configured hooks.
async fn reset(state: web::Data<PortalState>) -> HttpResponse {
    match state.reset() {
        Ok(removed) => HttpResponse::Ok().json(json!({"ok": true, "removed": removed})),
        Err(error) => failed(&error),
    }
}

async fn get_hooks(state: web::Data<PortalState>) -> HttpResponse {
    HttpResponse::Ok().json(state.hooks())
}

/// PUT /api/hooks: replaces the hooks in force; answers with them.
async fn put_hooks(state: web::Data<PortalState>, hooks: web::Json<Hooks>) -> HttpResponse {
    let hooks = hooks.into_inner();
    tracing::info!(?hooks, "demo portal: hooks replaced");
    state.set_hooks(hooks.clone());
    HttpResponse::Ok().json(hooks)
}
