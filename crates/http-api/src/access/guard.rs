//! The guard: resolves the caller (the proxy's header from a trusted peer, or the sign-in
//! cookie) and lets a request reach its handler only when the route table allows it. A
//! session that is not the caller's answers exactly as an unknown one, so ids cannot be probed.

use super::routes_table::{Need, need};
use super::{Caller, LOGIN_COOKIE};
use crate::{ApiError, AppState};
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::{Error, HttpMessage, HttpResponse, ResponseError, web};
use auth::{AuthMode, Identity, UploadTokenError};
use std::time::{SystemTime, UNIX_EPOCH};

pub(crate) async fn auth_guard(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let Some(state) = request.app_data::<web::Data<AppState>>().cloned() else {
        return pass(request, next).await;
    };
    let address = request
        .peer_addr()
        .map(|peer| peer.ip().to_canonical().to_string())
        .unwrap_or_default();
    if !state.auth.signs_in() {
        let identity = Identity::everyone();
        request
            .extensions_mut()
            .insert(Caller { identity, address });
        return pass(request, next).await;
    }
    let identity = match identify(&state, &request).await {
        Ok(identity) => identity,
        Err(error) => return refuse(request, &error),
    };
    if let Some(identity) = &identity {
        let caller = Caller {
            identity: identity.clone(),
            address,
        };
        request.extensions_mut().insert(caller);
    }
    let path = request.path().to_owned();
    let verdict = match need(&path) {
        Need::Public => Ok(()),
        Need::SignedIn => identity.as_ref().map(|_| ()).ok_or(ApiError::NotSignedIn),
        Need::Session { id, phone } => {
            session_access(&state, &request, id, phone, identity.as_ref())
        }
        Need::PhonePage { id } => {
            let verdict = session_access(&state, &request, id, true, identity.as_ref());
            // A person's phone asks with GET (or HEAD): it gets a page; any other method is
            // not a person and gets the `{error}` JSON every other refusal has.
            if let Err(error) = &verdict
                && reads(&request)
            {
                let page = crate::routes::phone_page_refused(error);
                return Ok(request.into_response(page));
            }
            verdict
        }
    };
    match verdict {
        Ok(()) => pass(request, next).await,
        Err(ApiError::NotSignedIn) if wants_page(&request) => {
            let to_login = HttpResponse::SeeOther()
                .insert_header((header::LOCATION, "/login"))
                .finish();
            Ok(request.into_response(to_login))
        }
        Err(error) => refuse(request, &error),
    }
}

async fn pass(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    next.call(request)
        .await
        .map(ServiceResponse::map_into_boxed_body)
}

fn refuse(request: ServiceRequest, error: &ApiError) -> Result<ServiceResponse<BoxBody>, Error> {
    Ok(request.into_response(error.error_response()))
}

/// A person opening the desktop page is sent to sign in; an API call gets 401.
fn wants_page(request: &ServiceRequest) -> bool {
    request.path() == "/" && reads(request)
}

/// GET or HEAD: what a browser opening a page sends.
fn reads(request: &ServiceRequest) -> bool {
    matches!(*request.method(), Method::GET | Method::HEAD)
}

/// Who is asking, or None when nobody signed in.
async fn identify(
    state: &AppState,
    request: &ServiceRequest,
) -> Result<Option<Identity>, ApiError> {
    match state.auth.mode {
        AuthMode::None => Ok(Some(Identity::everyone())),
        AuthMode::Proxy => proxy_identity(state, request),
        AuthMode::Local => cookie_identity(state, request).await,
    }
}

fn header_text(request: &ServiceRequest, name: &str) -> Option<String> {
    let value = request.headers().get(name)?;
    let text = String::from_utf8_lossy(value.as_bytes());
    let text = percent_decoded(text.trim());
    Some(text).filter(|t| !t.is_empty())
}

/// `%E5%BC%A0` → 张 (proxies often send non-ASCII names percent-encoded); anything else as is.
fn percent_decoded(text: &str) -> String {
    if !text.contains('%') {
        return text.to_owned();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_owned())
}

fn proxy_identity(
    state: &AppState,
    request: &ServiceRequest,
) -> Result<Option<Identity>, ApiError> {
    let headers = &state.auth.proxy;
    let Some(username) = header_text(request, &headers.user) else {
        return Ok(None);
    };
    let trusted = request
        .peer_addr()
        .is_some_and(|peer| headers.trusted.contains(peer.ip()));
    if !trusted {
        tracing::warn!(peer = ?request.peer_addr(), "identity header from an untrusted peer refused");
        return Err(ApiError::Forbidden("身份头只接受来自反向代理的请求".into()));
    }
    let display_name = headers
        .name
        .as_deref()
        .and_then(|name| header_text(request, name))
        .unwrap_or_else(|| username.clone());
    let finance = headers
        .groups
        .as_deref()
        .and_then(|name| header_text(request, name))
        .is_some_and(|groups| {
            groups
                .split([',', ';', ' '])
                .any(|group| group.trim() == headers.finance_group)
        });
    Ok(Some(Identity {
        username,
        display_name,
        finance,
    }))
}

async fn cookie_identity(
    state: &AppState,
    request: &ServiceRequest,
) -> Result<Option<Identity>, ApiError> {
    let Some(token) = request.cookie(LOGIN_COOKIE).map(|c| c.value().to_owned()) else {
        return Ok(None);
    };
    let ledger = state.finance.ledger.clone().ok_or(ApiError::NoLedger)?;
    let hash = auth::token_hash(&token);
    let login = web::block(move || ledger.login(&hash)).await??;
    Ok(login.map(|login| Identity {
        username: login.username,
        display_name: login.display_name,
        finance: login.finance,
    }))
}

/// The phone's upload token, from `?t=` or the `X-Upload-Token` header.
fn upload_token(request: &ServiceRequest) -> Option<String> {
    if let Some(value) = request.headers().get("x-upload-token") {
        return value.to_str().ok().map(str::to_owned);
    }
    request
        .query_string()
        .split('&')
        .find_map(|pair| pair.strip_prefix("t="))
        .map(str::to_owned)
}

fn now_unix() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

fn session_access(
    state: &AppState,
    request: &ServiceRequest,
    id: &str,
    phone: bool,
    identity: Option<&Identity>,
) -> Result<(), ApiError> {
    if phone && let Some(token) = upload_token(request) {
        let tokens = state
            .auth
            .uploads
            .as_ref()
            .ok_or(ApiError::SessionNotFound)?;
        return match tokens.check(&token, id, now_unix()) {
            Ok(_) if state.store.session(id).is_ok() => Ok(()),
            Ok(_) | Err(UploadTokenError::Invalid) => Err(ApiError::SessionNotFound),
            Err(UploadTokenError::Expired) => Err(ApiError::UploadLinkExpired),
        };
    }
    let identity = identity.ok_or(ApiError::NotSignedIn)?;
    let owner = state.store.session(id).ok().and_then(|s| s.owner());
    match owner {
        Some(owner) if owner == identity.username => Ok(()),
        _ => Err(ApiError::SessionNotFound),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_encoded_names_are_decoded_and_others_kept() {
        assert_eq!(percent_decoded("%E5%BC%A0%E4%B8%89"), "张三");
        assert_eq!(percent_decoded("张三"), "张三");
        assert_eq!(percent_decoded("100%"), "100%");
        assert_eq!(percent_decoded("%FF"), "%FF");
    }
}
