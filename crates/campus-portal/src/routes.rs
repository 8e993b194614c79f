//! Every URL of the portal, one module per family.

mod api;
mod assets;
mod auth;
mod pages;
mod reply;
mod submit;
mod test_hooks;

use actix_web::web;

/// Registers every route; the test hook only when `test_hooks` is on.
pub(crate) fn configure(cfg: &mut web::ServiceConfig, test_hooks: bool) {
    cfg.route("/", web::get().to(auth::index))
        .route("/login", web::post().to(auth::login))
        .route("/logout", web::get().to(auth::logout))
        .route("/captcha.png", web::get().to(auth::captcha))
        .route("/main", web::get().to(pages::frame))
        .route("/home", web::get().to(pages::home))
        .route("/claim/daily", web::get().to(pages::daily))
        .route("/claim/travel", web::get().to(pages::travel))
        .route("/claims/mine", web::get().to(pages::mine))
        .route("/claim/daily/submit", web::post().to(submit::daily))
        .route("/claim/travel/submit", web::post().to(submit::travel))
        .route("/api/departments", web::get().to(api::departments))
        .route("/api/claims", web::get().to(api::claims))
        .route("/static/{name}", web::get().to(assets::asset));
    if test_hooks {
        cfg.route("/test/captcha", web::get().to(test_hooks::captcha));
    }
}
