//! Logging in and out: the login page, the captcha image and the check of a login post.

use std::time::{SystemTime, UNIX_EPOCH};

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

use crate::captcha;
use crate::config::Account;
use crate::pages;
use crate::random::Rng;
use crate::routes::reply::{html, redirect, session_cookie, with_cookie};
use crate::state::AppState;

/// The login form's fields, as the page names them.
#[derive(Debug, Deserialize)]
pub(crate) struct LoginForm {
    #[serde(rename = "userId", default)]
    user_id: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    captcha: String,
}

/// `GET /`: the login page, or the frame for a session already logged in.
pub(crate) async fn index(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let (id, created) = state.sessions.ensure(session_cookie(&req).as_deref());
    if state.sessions.user(&id).is_some() {
        return redirect("/main");
    }
    html(
        pages::login(None, "", nonce()),
        created.then_some(id.as_str()),
    )
}

/// `GET /captcha.png`: a new code for the session, drawn. Every load replaces the code, as a
/// click on the image does on real pages.
pub(crate) async fn captcha(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let (id, created) = state.sessions.ensure(session_cookie(&req).as_deref());
    let mut rng = Rng::from_os();
    let code = captcha::new_code(&mut rng);
    let png = match captcha::render_png(&code, &mut rng) {
        Ok(png) => png,
        Err(error) => {
            tracing::error!(%error, "captcha image could not be encoded");
            return HttpResponse::InternalServerError().finish();
        }
    };
    state.sessions.set_captcha(&id, code);
    let mut builder = HttpResponse::Ok();
    builder
        .content_type("image/png")
        .insert_header((header::CACHE_CONTROL, "no-store"));
    with_cookie(&mut builder, created.then_some(id.as_str()));
    builder.body(png)
}

/// `POST /login`: to the frame when everything matches, else the login page with the reason.
pub(crate) async fn login(
    req: HttpRequest,
    state: web::Data<AppState>,
    form: web::Form<LoginForm>,
) -> HttpResponse {
    let (id, created) = state.sessions.ensure(session_cookie(&req).as_deref());
    match check(&state, &id, &form) {
        // A new session has no captcha, so only a session the client already had gets here.
        Ok(account) => {
            state.sessions.log_in(&id, &account.staff_no);
            redirect("/main")
        }
        Err(message) => html(
            pages::login(Some(message), form.user_id.trim(), nonce()),
            created.then_some(id.as_str()),
        ),
    }
}

/// The login checks in the order such systems make them. The session's captcha is consumed
/// first, so one code answers one attempt whatever its outcome.
fn check<'s>(state: &'s AppState, id: &str, form: &LoginForm) -> Result<&'s Account, &'static str> {
    let expected = state.sessions.take_captcha(id);
    if form.user_id.trim().is_empty() {
        return Err("请输入工号");
    }
    if form.password.is_empty() {
        return Err("请输入密码");
    }
    let typed = form.captcha.trim();
    if typed.is_empty() {
        return Err("请输入验证码");
    }
    let Some(expected) = expected else {
        return Err("验证码已失效，请点击图片刷新");
    };
    if typed != expected {
        return Err("验证码错误");
    }
    state
        .account(form.user_id.trim())
        .filter(|account| account.password == form.password)
        .ok_or("工号或密码错误")
}

/// `GET /logout`: the session forgets its user; back to the login page.
pub(crate) async fn logout(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if let Some(id) = session_cookie(&req) {
        state.sessions.log_out(&id);
    }
    redirect("/")
}

/// A number that differs on every page load, for the captcha URL.
fn nonce() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0)
}
