//! What handlers share: the session cookie read and set by hand (the workspace builds actix-web
//! without its cookie feature), the logged-in account, and page responses never cached.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, HttpResponseBuilder};

use crate::config::Account;
use crate::sessions::SESSION_COOKIE;
use crate::state::AppState;

/// The session id the request's `Cookie` header carries.
pub(crate) fn session_cookie(req: &HttpRequest) -> Option<String> {
    req.headers()
        .get_all(header::COOKIE)
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, value)| value.to_owned())
}

/// The account logged in with the request's session.
pub(crate) fn current_user<'s>(req: &HttpRequest, state: &'s AppState) -> Option<&'s Account> {
    let id = session_cookie(req)?;
    let staff_no = state.sessions.user(&id)?;
    state.account(&staff_no)
}

/// Adds `Set-Cookie` for a session id that is new to the client.
pub(crate) fn with_cookie(builder: &mut HttpResponseBuilder, new_session: Option<&str>) {
    if let Some(id) = new_session {
        builder.insert_header((
            header::SET_COOKIE,
            format!("{SESSION_COOKIE}={id}; Path=/; HttpOnly; SameSite=Lax"),
        ));
    }
}

/// A page, not to be cached (every load shows the current state).
pub(crate) fn html(body: String, new_session: Option<&str>) -> HttpResponse {
    let mut builder = HttpResponse::Ok();
    builder
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"));
    with_cookie(&mut builder, new_session);
    builder.body(body)
}

/// A `302 Found` to `location`.
pub(crate) fn redirect(location: &str) -> HttpResponse {
    HttpResponse::Found()
        .insert_header((header::LOCATION, location))
        .finish()
}
