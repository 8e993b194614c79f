//! TEST HOOK, not part of the imitated system: `GET /test/captcha?session=<JSESSIONID>` answers
//! the captcha the session is expected to type, so tests log in without reading the image;
//! without `session`, the code of the image drawn last in any session (for a test that plays
//! the person looking at the picture, with no access to the browser's cookies). It
//! is registered only when `CampusConfig::test_hooks` is on, and answers with the header
//! `X-Test-Hook: campus-portal` so nobody mistakes it for a page of the portal.

use actix_web::{HttpResponse, web};
use serde::Deserialize;

use crate::state::AppState;

#[derive(Debug, Deserialize)]
pub(crate) struct Query {
    #[serde(default)]
    session: String,
}

/// The code as plain text, or 404 when that session has no captcha waiting.
pub(crate) async fn captcha(state: web::Data<AppState>, query: web::Query<Query>) -> HttpResponse {
    let code = if query.session.is_empty() {
        state.sessions.peek_latest_captcha()
    } else {
        state.sessions.peek_captcha(&query.session)
    };
    match code {
        Some(code) => HttpResponse::Ok()
            .insert_header(("X-Test-Hook", "campus-portal"))
            .content_type("text/plain; charset=utf-8")
            .body(code),
        None => HttpResponse::NotFound()
            .insert_header(("X-Test-Hook", "campus-portal"))
            .content_type("text/plain; charset=utf-8")
            .body("no captcha for this session"),
    }
}
