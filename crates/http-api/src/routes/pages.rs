//! The pages (endpoints 1 and 2) and their assets, embedded in the binary so the service works
//! offline; and the QR code of a session's phone page. HTML gets its own Content-Security-Policy:
//! scripts and styles from this origin only, no inline script.

use crate::middleware::CheckedHost;
use crate::phone::{PhoneAddress, lan_address, phone_address};
use crate::{ApiError, AppState};
use actix_web::http::header;
use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};

const INDEX: &str = include_str!("../../assets/index.html");
const MOBILE: &str = include_str!("../../assets/mobile.html");
const LOGIN: &str = include_str!("../../assets/login.html");

/// The embedded assets: name, content type, bytes.
const ASSETS: [(&str, &str, &str); 6] = [
    (
        "app.css",
        "text/css; charset=utf-8",
        include_str!("../../assets/app.css"),
    ),
    (
        "common.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/common.js"),
    ),
    (
        "desktop.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/desktop.js"),
    ),
    (
        "login.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/login.js"),
    ),
    (
        "mobile.js",
        "text/javascript; charset=utf-8",
        include_str!("../../assets/mobile.js"),
    ),
    ("icon.svg", ICON_TYPE, ICON),
];

const ICON: &str = include_str!("../../assets/icon.svg");
const ICON_TYPE: &str = "image/svg+xml";

/// What a page may load: its own scripts, styles, images and streams, and `data:` images (the
/// portal's captcha arrives as a `data:image/png` URL in a `submit_challenge` event).
pub(crate) const PAGE_CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

fn html(status: actix_web::http::StatusCode, body: String) -> HttpResponse {
    HttpResponse::build(status)
        .insert_header((header::CONTENT_TYPE, "text/html; charset=utf-8"))
        .insert_header((header::CONTENT_SECURITY_POLICY, PAGE_CSP))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

/// GET /: the desktop page.
pub(crate) async fn desktop() -> HttpResponse {
    html(actix_web::http::StatusCode::OK, INDEX.to_owned())
}

/// GET /mobile/<session_id>: the phone page, or a page saying the session is unknown.
pub(crate) async fn mobile(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
) -> HttpResponse {
    match state.store.session(&session_id) {
        Ok(_) => html(actix_web::http::StatusCode::OK, MOBILE.to_owned()),
        Err(_) => phone_page_refused(&ApiError::SessionNotFound),
    }
}

/// The phone page's refusal: an unknown session (or one the link does not open) or an
/// expired link, as a page a phone shows.
pub(crate) fn phone_page_refused(error: &ApiError) -> HttpResponse {
    let (status, title, text) = match error {
        ApiError::UploadLinkExpired => (
            actix_web::http::StatusCode::FORBIDDEN,
            "上传链接已过期",
            "请在电脑上刷新二维码，再用手机重新扫描。",
        ),
        _ => (
            actix_web::http::StatusCode::NOT_FOUND,
            "会话不存在",
            "这个上传链接已失效。请在电脑上打开报销助手，重新扫描页面上的二维码。",
        ),
    };
    html(
        status,
        format!(
            "<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{title}</title><link rel=\"stylesheet\" href=\"/assets/app.css\"></head>\
             <body class=\"mobile\"><h1>{title}</h1><p>{text}</p></body></html>"
        ),
    )
}

/// GET /login: the sign-in page.
pub(crate) async fn login() -> HttpResponse {
    html(actix_web::http::StatusCode::OK, LOGIN.to_owned())
}

/// GET /favicon.ico: browsers ask for it whatever the page links; the page's icon.
pub(crate) async fn favicon() -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, ICON_TYPE))
        .insert_header((header::CACHE_CONTROL, "max-age=86400"))
        .body(ICON)
}

/// GET /assets/<name>.
pub(crate) async fn asset(name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let (_, content_type, body) = ASSETS
        .iter()
        .find(|(asset, _, _)| *asset == name.as_str())
        .ok_or(ApiError::FileNotFound)?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, *content_type))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(*body))
}

/// The phone page's address for this request (see `phone.rs`).
fn phone_address_for(
    state: &AppState,
    session_id: &str,
    request: &HttpRequest,
) -> Result<PhoneAddress, ApiError> {
    let session = state.store.session(session_id)?;
    let host = request
        .extensions()
        .get::<CheckedHost>()
        .map(|host| host.0.clone())
        .ok_or_else(|| ApiError::BadRequest("请求缺少 Host 头，无法生成手机上传地址".into()))?;
    let mut address = phone_address(&state.reach, &host, session.id().as_str(), lan_address);
    // With sign-in on, the link carries a short-lived token that opens this one session's
    // uploads: the phone has no sign-in of its own.
    if let (true, Some(tokens)) = (state.auth.signs_in(), &state.auth.uploads) {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or_default();
        let expires = now + state.auth.upload_ttl.as_secs();
        let token = tokens.issue(session.id().as_str(), expires);
        address.url = format!("{}?t={token}", address.url);
        address.expires_in = Some(state.auth.upload_ttl.as_secs());
    }
    Ok(address)
}

/// GET /api/mobile-url/<session_id>: where the phone is sent, whether a phone can get there,
/// and what to tell the person; the QR code encodes the same address.
pub(crate) async fn mobile_url(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let address = phone_address_for(&state, &session_id, &request)?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .json(address))
}

/// GET /api/qr/<session_id>: an SVG QR code of the phone page's address. Forwarded host
/// headers are ignored: anyone can send them, and no proxy of ours sets them.
pub(crate) async fn qr(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let url = phone_address_for(&state, &session_id, &request)?.url;
    let code = qrcode::QrCode::new(url.as_bytes())
        .map_err(|e| ApiError::Internal(format!("QR code: {e}")))?;
    let svg = code
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(160, 160)
        .quiet_zone(true)
        .build();
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "image/svg+xml"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(svg))
}
