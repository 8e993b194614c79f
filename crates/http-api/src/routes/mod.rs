//! Route table of the interface's endpoints.

mod agent;
mod audit;
mod auth;
mod challenge;
mod claims;
mod config;
mod data;
mod download;
mod files;
mod logs;
mod pages;
mod process;
mod save;
mod session;
mod submit;
mod upload;

use actix_web::web;

pub(crate) use pages::phone_page_refused;

/// Registers every endpoint this crate serves.
pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    // HEAD as GET for the pages (monitoring and `curl -I` ask with HEAD; the body is dropped).
    cfg.route("/", web::get().to(pages::desktop))
        .route("/", web::head().to(pages::desktop))
        .route("/favicon.ico", web::get().to(pages::favicon))
        .route("/login", web::get().to(pages::login))
        .route("/login", web::head().to(pages::login))
        .route("/api/auth/login", web::post().to(auth::login))
        .route("/api/auth/logout", web::post().to(auth::logout))
        .route("/api/auth/me", web::get().to(auth::me))
        .route("/api/audit", web::get().to(audit::list))
        .route("/api/audit/export.csv", web::get().to(audit::export))
        .route("/mobile/{session_id}", web::get().to(pages::mobile))
        .route("/mobile/{session_id}", web::head().to(pages::mobile))
        .route("/assets/{name}", web::get().to(pages::asset))
        .route("/api/qr/{session_id}", web::get().to(pages::qr))
        .route(
            "/api/mobile-url/{session_id}",
            web::get().to(pages::mobile_url),
        )
        .route("/api/session", web::post().to(session::create))
        .route("/api/upload/{session_id}", web::post().to(upload::upload))
        .route(
            "/api/mobile-upload/{session_id}",
            web::post().to(upload::upload),
        )
        .route("/api/files/{session_id}", web::get().to(files::list))
        .route(
            "/api/download/{session_id}/{filename}",
            web::get().to(download::download),
        )
        .route("/api/config/{session_id}", web::get().to(config::read))
        .route("/api/data/{session_id}", web::get().to(data::read))
        .route("/api/save/{session_id}", web::post().to(save::save))
        .route("/api/process/{session_id}", web::post().to(process::start))
        .route(
            "/api/submit-financial/{session_id}",
            web::post().to(submit::start),
        )
        .route("/api/logs/{session_id}", web::get().to(logs::stream))
        .route("/api/claims", web::get().to(claims::list))
        .route("/api/claims/export.{format}", web::get().to(claims::export))
        .route("/api/claims/{id}", web::get().to(claims::detail))
        .route("/api/claims/{id}/void", web::post().to(claims::void))
        .route(
            "/api/submit-challenge/{session_id}",
            web::get().to(challenge::read),
        )
        .route(
            "/api/submit-challenge/{session_id}",
            web::post().to(challenge::answer),
        )
        .route("/api/agent/state/{session_id}", web::get().to(agent::read))
        .route(
            "/api/agent/process/{session_id}",
            web::post().to(agent::process),
        )
        .route(
            "/api/agent/supplement/{session_id}",
            web::post().to(agent::supplement),
        )
        .route(
            "/api/agent/user-supplement/{session_id}",
            web::post().to(agent::user_supplement),
        )
        .route(
            "/api/agent/force-submit/{session_id}",
            web::post().to(agent::force_submit),
        );
}
