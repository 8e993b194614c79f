//! Sign-in (`mode = local`): `POST /api/auth/login` sets the sign-in cookie, `POST
//! /api/auth/logout` ends it, `GET /api/auth/me` says who the page belongs to (and, with
//! sign-in off on a network address, warns).

use crate::access::{Action, Caller, LOGIN_COOKIE, record};
use crate::{ApiError, AppState};
use actix_web::cookie::{Cookie, SameSite, time::Duration as CookieDuration};
use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use auth::AuthMode;
use serde::Deserialize;
use serde_json::json;
use std::sync::LazyLock;
use std::time::Instant;

#[derive(Debug, Deserialize)]
pub(crate) struct Credentials {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
}

fn peer(request: &HttpRequest) -> String {
    request
        .peer_addr()
        .map(|peer| peer.ip().to_canonical().to_string())
        .unwrap_or_default()
}

fn cookie(state: &AppState, value: String, max_age: CookieDuration) -> Cookie<'static> {
    Cookie::build(LOGIN_COOKIE, value)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(state.auth.secure_cookie)
        .max_age(max_age)
        .finish()
}

/// `POST /api/auth/login` `{username, password}`: `{ok, username, display_name, finance}`
/// and the cookie; 401 for a wrong pair, 429 while the account or address must wait.
pub(crate) async fn login(
    state: web::Data<AppState>,
    request: HttpRequest,
    body: web::Json<Credentials>,
) -> Result<HttpResponse, ApiError> {
    if state.auth.mode != AuthMode::Local {
        return Err(ApiError::BadRequest("本服务不使用账号密码登录".into()));
    }
    let Credentials { username, password } = body.into_inner();
    let username = username.trim().to_owned();
    let address = peer(&request);
    let throttle = state.auth.throttle.clone();
    if let Err(wait) = throttle.check(&username, &address, Instant::now()) {
        return Err(ApiError::SignInThrottled(wait.as_secs().max(1)));
    }
    let ledger = state.finance.ledger.clone().ok_or(ApiError::NoLedger)?;
    let ttl = i64::try_from(state.auth.login_ttl.as_secs()).unwrap_or(i64::MAX);
    let (name, addr) = (username.clone(), address.clone());
    let signed_in = web::block(move || -> Result<_, ApiError> {
        let user = ledger.user(&name)?.filter(|user| !user.disabled);
        // A missing account costs the same hash as a wrong password: timing tells nothing.
        let hash = user
            .as_ref()
            .map_or(DUMMY_HASH.as_str(), |user| user.password_hash.as_str());
        if !auth::verify_password(&password, hash) || user.is_none() {
            return Ok(None);
        }
        let token = auth::new_token().map_err(|e| ApiError::Internal(e.to_string()))?;
        let login = ledger.create_login(&auth::token_hash(&token), &name, &addr, ttl)?;
        // Sign-ins past their time go as new ones come, so the table stays small.
        if let Err(error) = ledger.purge_expired_logins() {
            tracing::warn!("expired sign-ins not purged: {error}");
        }
        Ok(Some((token, login)))
    })
    .await??;
    let Some((token, login)) = signed_in else {
        throttle.failed(&username, &address, Instant::now());
        record(
            &state,
            &username,
            &address,
            Action::SignInFailed,
            "",
            String::new(),
        )
        .await;
        return Err(ApiError::BadCredentials);
    };
    throttle.succeeded(&username);
    record(
        &state,
        &username,
        &address,
        Action::SignIn,
        "",
        String::new(),
    )
    .await;
    let max_age = CookieDuration::seconds(ttl);
    Ok(HttpResponse::Ok()
        .cookie(cookie(&state, token, max_age))
        .json(json!({
            "ok": true,
            "username": login.username,
            "display_name": login.display_name,
            "finance": login.finance,
        })))
}

/// An argon2id hash of a random password nobody knows, checked when the account does not
/// exist so that the answer takes as long as for a wrong password.
static DUMMY_HASH: LazyLock<String> = LazyLock::new(|| {
    let unknowable = auth::new_token().unwrap_or_else(|_| "no random bytes".into());
    auth::hash_password(&unknowable).unwrap_or_default()
});

/// `POST /api/auth/logout`: the sign-in ends here and in the database.
pub(crate) async fn logout(
    state: web::Data<AppState>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    if let (Some(token), Some(ledger)) =
        (request.cookie(LOGIN_COOKIE), state.finance.ledger.clone())
    {
        let hash = auth::token_hash(token.value());
        web::block(move || ledger.delete_login(&hash)).await??;
    }
    let caller = request.extensions().get::<Caller>().cloned();
    if let Some(caller) = caller {
        caller
            .record(&state, Action::SignOut, "", String::new())
            .await;
    }
    Ok(HttpResponse::Ok()
        .cookie(cookie(&state, String::new(), CookieDuration::ZERO))
        .json(json!({"ok": true})))
}

/// `GET /api/auth/me`: `{mode, signed_in, username, display_name, finance, warning}`.
pub(crate) async fn me(state: web::Data<AppState>, request: HttpRequest) -> HttpResponse {
    let caller = request.extensions().get::<Caller>().cloned();
    let warning = (state.auth.mode == AuthMode::None && state.listens_beyond_loopback()).then_some(
        "本服务未启用登录（[auth] mode = none），同一网络中的任何人都能打开所有会话；\
         在单位网络中使用请启用 proxy 或 local 登录方式",
    );
    let signed_in = caller.as_ref().is_some_and(Caller::is_signed_in);
    HttpResponse::Ok().json(json!({
        "mode": state.auth.mode.as_str(),
        "signed_in": signed_in,
        "username": caller.as_ref().map(|c| c.identity.username.clone()).unwrap_or_default(),
        "display_name": caller.as_ref().map(|c| c.identity.display_name.clone()).unwrap_or_default(),
        "finance": caller.as_ref().is_some_and(|c| c.identity.finance),
        "warning": warning,
    }))
}
