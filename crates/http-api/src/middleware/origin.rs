//! Who may talk to the service. The Host header must be an IP address, `localhost` or a
//! configured name: a page on `evil.example` whose DNS is rebound to 127.0.0.1 sends
//! `Host: evil.example` and is refused (421). A request that changes state (any method but
//! GET, HEAD, OPTIONS) from another site is refused (403), judged by `Sec-Fetch-Site` and
//! `Origin`; curl and scripts send neither and pass.

use crate::{ApiError, AppState};
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, header};
use actix_web::middleware::Next;
use actix_web::{Error, HttpMessage, HttpRequest, web};
use std::net::IpAddr;
use std::sync::Arc;

/// Host names accepted besides IP addresses and `localhost` (`[server] allowed_hosts`).
#[derive(Debug, Clone, Default)]
pub struct AllowedHosts(Arc<[String]>);

impl AllowedHosts {
    /// These names (case and a trailing dot ignored; blanks dropped).
    pub fn new(names: impl IntoIterator<Item = String>) -> Self {
        Self(
            names
                .into_iter()
                .map(|n| n.trim().trim_end_matches('.').to_ascii_lowercase())
                .filter(|n| !n.is_empty())
                .collect(),
        )
    }

    /// Whether a Host header value (name or address, with or without port) is acceptable.
    fn accepts(&self, host: &str) -> bool {
        let name = host_name(host).trim_end_matches('.').to_ascii_lowercase();
        name.parse::<IpAddr>().is_ok() || name == "localhost" || self.0.contains(&name)
    }
}

/// The name part of a Host value: `[::1]:8080` → `::1`, `a.b:80` → `a.b`. Anything after a
/// bracketed address but a port keeps the whole value, which then matches nothing.
fn host_name(host: &str) -> &str {
    if let Some(rest) = host.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((name, "")) => name,
            Some((name, port)) if port.strip_prefix(':').is_some_and(is_port) => name,
            _ => host,
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) if is_port(port) => name,
        _ => host,
    }
}

fn is_port(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_digit())
}

/// The authority (`host[:port]`) of an Origin value, lower-cased; None for `null` or junk.
fn origin_authority(origin: &str) -> Option<String> {
    let rest = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))?;
    let authority = rest.split('/').next()?;
    (!authority.is_empty()).then(|| authority.to_ascii_lowercase())
}

fn header_text(request: &HttpRequest, name: header::HeaderName) -> Option<&str> {
    request.headers().get(name).and_then(|v| v.to_str().ok())
}

/// The checks themselves, on the request's headers.
pub(crate) fn check_origin(request: &HttpRequest, allowed: &AllowedHosts) -> Result<(), ApiError> {
    let host = header_text(request, header::HOST);
    if let Some(host) = host
        && !allowed.accepts(host)
    {
        return Err(ApiError::HostNotAllowed(host_name(host).to_owned()));
    }
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return Ok(());
    }
    if let Some(site) = header_text(request, header::HeaderName::from_static("sec-fetch-site"))
        && matches!(site, "cross-site" | "same-site")
    {
        return Err(ApiError::CrossSite);
    }
    if let Some(origin) = header_text(request, header::ORIGIN) {
        let same = match (origin_authority(origin), host) {
            (Some(origin), Some(host)) => origin == host.to_ascii_lowercase(),
            _ => false,
        };
        if !same {
            return Err(ApiError::CrossSite);
        }
    }
    Ok(())
}

/// The Host a request came with, once [`origin_guard`] accepted it. Addresses the service hands
/// out (the phone page's QR code) are built from this alone, never from `X-Forwarded-Host` or
/// `Forwarded: host=`, which any client can set.
#[derive(Debug, Clone)]
pub(crate) struct CheckedHost(pub(crate) String);

pub(crate) async fn origin_guard(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, Error> {
    let allowed = request
        .app_data::<web::Data<AppState>>()
        .map(|state| state.allowed_hosts.clone())
        .unwrap_or_default();
    if let Err(error) = check_origin(request.request(), &allowed) {
        return Ok(request.error_response(error));
    }
    if let Some(host) = header_text(request.request(), header::HOST).map(str::to_owned) {
        request.extensions_mut().insert(CheckedHost(host));
    }
    next.call(request)
        .await
        .map(ServiceResponse::map_into_boxed_body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn check(method: Method, headers: &[(&str, &str)]) -> Result<(), ApiError> {
        let mut request = TestRequest::default().method(method);
        for (name, value) in headers {
            request = request.insert_header((*name, *value));
        }
        check_origin(
            &request.to_http_request(),
            &AllowedHosts::new(["Reimburse.Office.LAN".to_owned()]),
        )
    }

    #[test]
    fn hosts_by_address_localhost_or_configured_name() {
        for host in [
            "127.0.0.1:8080",
            "192.168.1.20:8080",
            "[::1]:8080",
            "localhost:8080",
            "LOCALHOST",
            "reimburse.office.lan:8080",
        ] {
            assert!(check(Method::GET, &[("host", host)]).is_ok(), "{host}");
        }
        for host in [
            "evil.example:8080",
            "localhost.evil.example",
            "127.0.0.1.nip.io",
            "[::1]evil.example",
            "[::1]:80/x",
        ] {
            assert!(
                matches!(
                    check(Method::GET, &[("host", host)]),
                    Err(ApiError::HostNotAllowed(_))
                ),
                "{host}"
            );
        }
    }

    #[test]
    fn cross_site_changes_are_refused() {
        let host = ("host", "127.0.0.1:8080");
        let refused = [
            vec![host, ("origin", "https://evil.example")],
            vec![host, ("origin", "null")],
            vec![host, ("origin", "http://127.0.0.1:3000")],
            vec![host, ("sec-fetch-site", "cross-site")],
            vec![host, ("sec-fetch-site", "same-site")],
        ];
        for headers in refused {
            assert!(
                matches!(check(Method::POST, &headers), Err(ApiError::CrossSite)),
                "{headers:?}"
            );
            // Reading is not changing: a GET from elsewhere is not refused here.
            assert!(check(Method::GET, &headers).is_ok());
        }
        for headers in [
            vec![host],
            vec![host, ("origin", "http://127.0.0.1:8080")],
            vec![
                host,
                ("sec-fetch-site", "same-origin"),
                ("origin", "http://127.0.0.1:8080"),
            ],
            vec![host, ("sec-fetch-site", "none")],
        ] {
            assert!(check(Method::POST, &headers).is_ok(), "{headers:?}");
        }
    }
}
