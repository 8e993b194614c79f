//! Login, logout and the session cookie: a random token that maps to the logged-in account.

use crate::error::PortalError;
use crate::hooks::Page;
use crate::pages::{layout, login};
use crate::state::PortalState;
use actix_web::dev::Payload;
use actix_web::http::{StatusCode, header};
use actix_web::{FromRequest, HttpRequest, HttpResponse, web};
use serde::Deserialize;
use std::collections::HashMap;
use std::future::{Ready, ready};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Name of the session cookie. Cookies are shared by every port of a host, so the name is one
/// that the main service will not use.
pub const SESSION_COOKIE: &str = "demo_portal_session";

/// The account behind a request, taken from its session cookie. As an extractor it answers a
/// request without a valid session with a redirect to the login page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub employee_no: String,
    pub display_name: String,
}

/// Logged-in sessions by token.
#[derive(Debug, Default)]
pub(crate) struct SessionTable {
    sessions: Mutex<HashMap<String, User>>,
}

impl SessionTable {
    fn open(&self, user: User) -> Result<String, PortalError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| PortalError::Random(e.to_string()))?;
        let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        self.lock().insert(token.clone(), user);
        Ok(token)
    }

    fn get(&self, token: &str) -> Option<User> {
        self.lock().get(token).cloned()
    }

    fn close(&self, token: &str) {
        self.lock().remove(token);
    }

    pub(crate) fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, User>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The value of cookie `name` in the request's `Cookie` headers.
fn cookie_value(req: &HttpRequest, name: &str) -> Option<String> {
    req.headers()
        .get_all(header::COOKIE)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.to_owned())
}

/// The logged-in user of a request, if any.
pub(crate) fn current_user(req: &HttpRequest, state: &PortalState) -> Option<User> {
    cookie_value(req, SESSION_COOKIE).and_then(|token| state.sessions.get(&token))
}

impl FromRequest for User {
    type Error = PortalError;
    type Future = Ready<Result<Self, PortalError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let user = req
            .app_data::<web::Data<PortalState>>()
            .and_then(|state| current_user(req, state));
        ready(user.ok_or(PortalError::LoginRequired))
    }
}

/// The fields of the login form. Missing fields count as empty.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct LoginForm {
    username: String,
    password: String,
}

/// Whether the demo account is configured, so its credentials may be shown on the login page.
fn demo_hint(state: &PortalState) -> bool {
    state
        .config
        .authenticate(
            crate::config::DEMO_EMPLOYEE_NO,
            crate::config::DEMO_PASSWORD,
        )
        .is_some()
}

/// GET /login: the login form (also shown to a logged-in user, who may switch accounts).
pub(crate) async fn login_page(state: web::Data<PortalState>) -> HttpResponse {
    state.pause(Page::Login).await;
    layout::html_response(StatusCode::OK, login::render("", None, demo_hint(&state)))
}

/// POST /login: checks 工号 and 密码; on success sets the session cookie and goes home.
pub(crate) async fn login_submit(
    state: web::Data<PortalState>,
    form: web::Form<LoginForm>,
) -> Result<HttpResponse, PortalError> {
    state.pause(Page::Login).await;
    let username = form.username.trim();
    if username.is_empty() || form.password.is_empty() {
        return Ok(layout::html_response(
            StatusCode::UNAUTHORIZED,
            login::render(username, Some("请输入工号和密码"), demo_hint(&state)),
        ));
    }
    let Some(account) = state.config.authenticate(username, &form.password) else {
        tracing::info!(username, "demo portal: wrong password");
        return Ok(layout::html_response(
            StatusCode::UNAUTHORIZED,
            login::render(username, Some("用户名或密码错误"), demo_hint(&state)),
        ));
    };
    let token = state.sessions.open(User {
        employee_no: account.employee_no.clone(),
        display_name: account.display_name.clone(),
    })?;
    Ok(HttpResponse::SeeOther()
        .insert_header((header::LOCATION, "/portal/home"))
        .insert_header((
            header::SET_COOKIE,
            format!("{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax"),
        ))
        .finish())
}

/// GET /logout: ends the session and shows the login page again.
pub(crate) async fn logout(req: HttpRequest, state: web::Data<PortalState>) -> HttpResponse {
    if let Some(token) = cookie_value(&req, SESSION_COOKIE) {
        state.sessions.close(&token);
    }
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, "/login"))
        .insert_header((
            header::SET_COOKIE,
            format!("{SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"),
        ))
        .finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn finds_the_session_cookie_among_others() {
        let req = TestRequest::default()
            .insert_header((header::COOKIE, "a=1; demo_portal_session=abc; b=2"))
            .to_http_request();
        assert_eq!(cookie_value(&req, SESSION_COOKIE).as_deref(), Some("abc"));
        assert_eq!(cookie_value(&req, "c"), None);
    }

    #[test]
    fn tokens_are_random_and_closable() {
        let table = SessionTable::default();
        let user = User {
            employee_no: "1".into(),
            display_name: "甲".into(),
        };
        let a = table.open(user.clone()).unwrap();
        let b = table.open(user.clone()).unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(table.get(&a), Some(user));
        table.close(&a);
        assert_eq!(table.get(&a), None);
    }
}
