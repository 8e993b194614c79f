//! A bounded fuzz run of the HTTP layer on loopback: every endpoint with malformed methods,
//! paths, names, headers and bodies, sent as raw bytes. Every answer must be a parsable
//! response; every error a `{error}` JSON body (the phone page's "session unknown" and "link
//! expired" pages for a person opening it excepted); nothing a 5xx (a panic is caught as a 500).
//! The same run goes three times: sign-in off (`mode = none`); sign-in on (`mode = local`)
//! signed out, where nothing but the sign-in page, its API, the assets and the phone's link
//! may answer with success; and signed in with a valid cookie on every request, where another
//! user's session never answers.
//! `REIMBURSE_HTTP_FUZZ_CASES` sets the number of requests of each run (default 1500) and
//! `REIMBURSE_HTTP_FUZZ_SEED` the seed; the figures are printed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Options, TestApp, add_user, local_sign_in, spawn_app_with};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// xorshift64*: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }

    /// Up to `max` random bytes.
    fn some_bytes(&mut self, max: usize) -> Vec<u8> {
        let len = self.below(max);
        self.bytes(len)
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const ENDPOINTS: &[(&str, &str)] = &[
    ("GET", "/"),
    ("GET", "/login"),
    ("GET", "/assets/{asset}"),
    ("GET", "/mobile/{id}"),
    ("POST", "/api/auth/login"),
    ("POST", LOGOUT),
    ("GET", "/api/auth/me"),
    ("POST", "/api/session"),
    ("POST", "/api/upload/{id}"),
    ("GET", "/api/files/{id}"),
    ("GET", "/api/download/{id}/{file}"),
    ("POST", "/api/mobile-upload/{id}"),
    ("GET", "/api/qr/{id}"),
    ("GET", "/api/mobile-url/{id}"),
    ("GET", "/api/config/{id}"),
    ("GET", "/api/data/{id}"),
    ("POST", "/api/save/{id}"),
    ("POST", "/api/process/{id}"),
    ("GET", "/api/logs/{id}"),
    ("POST", "/api/submit-financial/{id}"),
    ("GET", "/api/submit-challenge/{id}"),
    ("POST", "/api/submit-challenge/{id}"),
    ("GET", "/api/agent/state/{id}"),
    ("POST", "/api/agent/process/{id}"),
    ("POST", "/api/agent/supplement/{id}"),
    ("POST", "/api/agent/user-supplement/{id}"),
    ("POST", "/api/agent/force-submit/{id}"),
    ("GET", "/api/claims"),
    ("GET", "/api/claims/export.{format}"),
    ("GET", "/api/claims/{claim}"),
    ("POST", "/api/claims/{claim}/void"),
    ("GET", "/api/audit"),
    ("GET", "/api/audit/export.csv"),
];

/// Signing out would end the signed-in run's sign-in: that run leaves it out.
const LOGOUT: &str = "/api/auth/logout";

/// What a signed-out caller may reach: the sign-in page, its API and the assets.
const PUBLIC: [&str; 5] = [
    "/login",
    "/assets/{asset}",
    "/api/auth/login",
    LOGOUT,
    "/api/auth/me",
];

/// What the phone's upload token opens, for its own session.
const PHONE: [&str; 3] = ["/mobile/{id}", "/api/mobile-upload/{id}", "/api/files/{id}"];

/// Who sends the fuzzed requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Caller {
    /// `mode = none`: everyone is the same user.
    SignInOff,
    /// `mode = local`, no cookie (or one that signs nobody in).
    SignedOut,
    /// `mode = local`, a valid sign-in cookie on every request.
    SignedIn,
}

/// The app under fuzz and what the requests may carry.
struct Target {
    port: u16,
    caller: Caller,
    /// The caller's own session (sign-in off: the one session).
    own_id: String,
    /// Another user's session (sign-in on): it must look unknown.
    foreign_id: Option<String>,
    /// The `Cookie` header value of a valid sign-in (signed in only).
    cookie: Option<String>,
    /// The phone's upload token for `own_id` (sign-in on).
    token: Option<String>,
}

/// Which session a request names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Named {
    Own,
    Foreign,
    Other,
}

/// What was sent, for judging its answer.
struct Sent {
    template: &'static str,
    named: Named,
    /// The own session's valid upload token went with it.
    token: bool,
    bytes: Vec<u8>,
}

fn session_id(rng: &mut Rng, target: &Target) -> (String, Named) {
    match rng.below(8) {
        0..=3 => (target.own_id.clone(), Named::Own),
        4 => match &target.foreign_id {
            Some(foreign) => (foreign.clone(), Named::Foreign),
            None => (
                "00000000-0000-4000-8000-000000000000".to_owned(),
                Named::Other,
            ),
        },
        5 => ("..%2F..%2Fetc".to_owned(), Named::Other),
        6 => ("%".repeat(rng.below(40) + 1), Named::Other),
        _ => (
            String::from_utf8_lossy(&rng.some_bytes(60)).into_owned(),
            Named::Other,
        ),
    }
}

/// Query strings for the lists' filters and the stream, hostile or not.
fn query(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => format!("last_event_id={}", "9".repeat(rng.below(50))),
        1 => "q=%FF%FE&from=2025-13-40&to=x&limit=-1&offset=18446744073709551616".to_owned(),
        2 => "status=voided&kind=travel&staff_no=%00&limit=4294967295&offset=4294967295".to_owned(),
        3 => {
            "user=%00&action=sign_in&session=..%2F&from=2025-01-01&to=2024-01-01&limit=0".to_owned()
        }
        4 => "from=2025-02-30T25:61&to=9999-99-99&status=nonsense".to_owned(),
        _ => String::from_utf8_lossy(&rng.some_bytes(80)).into_owned(),
    }
}

fn file_name(rng: &mut Rng) -> String {
    rng.pick(&[
        "invoice_summary.csv",
        "result.json",
        "..%2F..%2Fsecret.key",
        "%2e%2e%2fsecret.key",
        "a%00.pdf",
        "易耗品、出库单.doc",
        "%E6%96%87%E4%BB%B6.pdf",
        ".run.json",
        "",
    ])
    .to_string()
}

/// Percent-encodes bytes that cannot stand in a request target, leaving the rest (and any
/// junk `%` sequences) as they are: the server must cope with what survives.
fn target_text(raw: &str) -> String {
    raw.bytes()
        .map(|b| {
            if b.is_ascii_graphic() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn body(rng: &mut Rng) -> (Option<&'static str>, Vec<u8>) {
    let json_bodies: [&[u8]; 14] = [
        b"{}",
        b"{\"username\":\"fuzzer\",\"password\":\"fuzz-password-1\"}",
        b"{\"username\":\"fuzzer\",\"password\":\"wrong\"}",
        b"{\"data\":[{\"\xe5\xba\x8f\xe5\x8f\xb7\":1}]}",
        b"{\"data\":[[1,2]],\"csv_filename\":\"../x.csv\"}",
        b"{\"data\":\"x\"}",
        b"{\"files\":[\"../../secret.key\",1,null]}",
        b"{\"text\":\"\"}",
        b"{\"text\":123}",
        b"{\"username\":{\"a\":1}}",
        b"[1,2,3",
        b"null",
        b"{\"data\":[{\"x\":1e999999}]}",
        b"\xff\xfe{\"a\":1}",
    ];
    match rng.below(7) {
        0 => (None, Vec::new()),
        1 => (Some("application/json"), rng.pick(&json_bodies).to_vec()),
        2 => {
            let depth = rng.below(5000);
            (
                Some("application/json"),
                format!("{}{}", "[".repeat(depth), "]".repeat(depth / 2)).into_bytes(),
            )
        }
        3 => {
            let name = rng
                .pick(&[
                    "a.pdf",
                    "../../x.pdf",
                    "",
                    "a\u{0}.png",
                    "x.exe",
                    "很长的名字很长的名字很长的名字.jpg",
                ])
                .to_string();
            let mut part = format!(
                "--BND\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n\r\n"
            )
            .into_bytes();
            part.extend(
                rng.pick(&[&b"%PDF-1.4\n"[..], b"\x89PNG\r\n\x1a\n", b""])
                    .to_vec(),
            );
            part.extend(rng.some_bytes(500));
            if rng.chance(50) {
                part.extend_from_slice(b"\r\n--BND--\r\n");
            }
            (Some("multipart/form-data; boundary=BND"), part)
        }
        4 => (Some("multipart/form-data"), rng.some_bytes(300)),
        5 if rng.chance(20) => (Some("application/json"), vec![b' '; 300 * 1024]),
        5 => (Some("text/plain"), rng.some_bytes(2000)),
        _ => (
            Some(*rng.pick(&[
                "application/json",
                "application/x-www-form-urlencoded",
                "\u{1}",
            ])),
            rng.some_bytes(4000),
        ),
    }
}

fn request(rng: &mut Rng, target: &Target, endpoints: &[(&'static str, &'static str)]) -> Sent {
    let (method, template) = *rng.pick(endpoints);
    let method = if rng.chance(85) {
        method.to_owned()
    } else {
        rng.pick(&[
            "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "G\u{1}T", "POST",
        ])
        .to_string()
    };
    let (id, mut named) = session_id(rng, target);
    if !template.contains("{id}") {
        named = Named::Other;
    }
    let file = file_name(rng);
    let asset = *rng.pick(&["app.css", "login.js", "..%2Fsecret.key", "none.js", ""]);
    let format = *rng.pick(&["csv", "xlsx", "pdf", "", "%00"]);
    let claim = *rng.pick(&["1", "0", "-1", "99999999999999999999", "abc", "%FF"]);
    let mut path = template
        .replace("{id}", &id)
        .replace("{file}", &file)
        .replace("{asset}", asset)
        .replace("{format}", format)
        .replace("{claim}", claim);
    let mut queries = Vec::new();
    if rng.chance(15) {
        queries.push(query(rng));
    }
    let mut token = false;
    if let Some(valid) = &target.token
        && rng.chance(20)
    {
        queries.push(format!("t={valid}"));
        token = true;
    } else if rng.chance(5) {
        queries.push(format!("t={}", rng.pick(&["", "AAAA", "1.2.3", "%FF"])));
    }
    if !queries.is_empty() {
        path = format!("{path}?{}", queries.join("&"));
    }
    let mut template = template;
    if rng.chance(5) {
        path = format!("/{}", "x".repeat(rng.below(20_000)));
        template = "/x";
        named = Named::Other;
    }
    let (content_type, body) = body(rng);
    let mut head = format!("{method} {} HTTP/1.1\r\n", target_text(&path)).into_bytes();
    let host = match rng.below(10) {
        0 => "evil.example".to_owned(),
        1 => String::new(),
        _ => format!("127.0.0.1:{}", target.port),
    };
    if !host.is_empty() {
        head.extend(format!("Host: {host}\r\n").into_bytes());
    }
    match (&target.cookie, target.caller) {
        (Some(cookie), _) => head.extend(format!("Cookie: {cookie}\r\n").into_bytes()),
        // Signed out: no cookie, or one that signs nobody in.
        (None, Caller::SignedOut) if rng.chance(30) => head.extend(
            format!(
                "Cookie: reimburse_login={}\r\n",
                rng.pick(&[
                    "",
                    "x",
                    "%FF%FE",
                    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                ])
            )
            .into_bytes(),
        ),
        _ => {}
    }
    if let Some(content_type) = content_type {
        head.extend(format!("Content-Type: {content_type}\r\n").into_bytes());
    }
    let declared = match rng.below(10) {
        0 => body.len() + rng.below(100),
        1 => body.len().saturating_sub(rng.below(50)),
        _ => body.len(),
    };
    head.extend(format!("Content-Length: {declared}\r\n").into_bytes());
    for _ in 0..rng.below(4) {
        match rng.below(6) {
            0 => head.extend(b"Origin: https://evil.example\r\n"),
            1 => head.extend(b"Sec-Fetch-Site: cross-site\r\n"),
            2 => head.extend(b"Expect: 100-continue\r\n"),
            3 => head.extend(*rng.pick(&[
                &b"Last-Event-ID: \xff\xfe\r\n"[..],
                b"Connection: upgrade\r\nUpgrade: websocket\r\n",
                b"Host: second.example\r\n",
                b"Content-Length: +5\r\n",
                b"Connection: keep-alive\r\n",
            ])),
            4 => {
                let mut name = rng.some_bytes(20);
                name.retain(|b| b.is_ascii_alphanumeric());
                name.insert(0, b'X');
                head.extend(name);
                head.extend(b": ");
                head.extend(
                    rng.some_bytes(100)
                        .into_iter()
                        .filter(|b| *b != b'\r' && *b != b'\n'),
                );
                head.extend(b"\r\n");
            }
            _ => head.extend(rng.some_bytes(30)),
        }
    }
    head.extend(b"\r\n");
    head.extend(body);
    Sent {
        template,
        named,
        token,
        bytes: head,
    }
}

/// What came back for one request.
enum Outcome {
    /// A success or a redirection, with the response's head (lowercase).
    Ok(u16, String),
    Error(u16),
    Bad(String),
}

async fn send(port: u16, bytes: &[u8]) -> Outcome {
    let head_request = bytes.starts_with(b"HEAD ");
    // The phone page answers an unknown session (or an expired link) with a page for a
    // person, on purpose; to HEAD, the same page's head.
    let page_request = bytes.starts_with(b"GET /mobile/") || bytes.starts_with(b"HEAD /mobile/");
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)).await else {
        return Outcome::Bad("cannot connect".into());
    };
    let _ = stream.write_all(bytes).await;
    let _ = stream.shutdown().await;
    let mut out = Vec::new();
    let mut chunk = [0u8; 8192];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        match tokio::time::timeout_at(deadline, stream.read(&mut chunk)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => out.extend_from_slice(&chunk[..n]),
            Err(_) => break,
        }
        // An SSE stream stays open: its head is all we need.
        if out.windows(4).any(|w| w == b"\r\n\r\n")
            && String::from_utf8_lossy(&out).contains("text/event-stream")
        {
            break;
        }
    }
    let mut text = String::from_utf8_lossy(&out).into_owned();
    // Interim answers (100 Continue) come before the response.
    while text.starts_with("HTTP/1.1 1")
        && let Some((_, rest)) = text.split_once("\r\n\r\n")
    {
        text = rest.to_owned();
    }
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return Outcome::Bad(format!("no complete response: {text:?}"));
    };
    let Some(status) = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
    else {
        return Outcome::Bad(format!("no status: {head:?}"));
    };
    if status < 400 {
        return Outcome::Ok(status, head.to_ascii_lowercase());
    }
    let json = head
        .to_ascii_lowercase()
        .contains("content-type: application/json");
    // A HEAD answer has the headers of the error and no body.
    if json && head_request {
        return Outcome::Error(status);
    }
    let html = head
        .to_ascii_lowercase()
        .contains("content-type: text/html");
    let page = match status {
        404 => "会话不存在",
        403 => "上传链接已过期",
        _ => "\0",
    };
    if page_request && html && (body.contains(page) || (head_request && body.is_empty())) {
        return Outcome::Error(status);
    }
    let error = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_owned));
    match (json, error) {
        _ if status >= 500 => Outcome::Bad(format!("{status}: {head} {body}")),
        (true, Some(_)) => Outcome::Error(status),
        _ => Outcome::Bad(format!(
            "{status} without {{error}} JSON: {head:?} {body:?}"
        )),
    }
}

/// Why a success is wrong for this caller, if it is: signed out, only the public pages and
/// the phone's link open anything (`/` sends to the sign-in page); signed in, another user's
/// session never answers.
fn wrongly_open(caller: Caller, sent: &Sent, status: u16, head: &str) -> Option<&'static str> {
    match caller {
        Caller::SignInOff => None,
        Caller::SignedOut => {
            let public = PUBLIC.contains(&sent.template)
                || (sent.token && sent.named == Named::Own && PHONE.contains(&sent.template))
                || (status == 303 && head.contains("\r\nlocation: /login"));
            (!public).then_some("signed out, yet answered")
        }
        Caller::SignedIn => {
            (sent.named == Named::Foreign).then_some("another user's session answered")
        }
    }
}

fn cases() -> usize {
    std::env::var("REIMBURSE_HTTP_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1500)
}

/// An app whose submissions fail at once (no flow) instead of starting a browser per fuzzed
/// request.
async fn app(auth: reimburse_http_api::AuthSettings) -> TestApp {
    let mut finance = common::finance(None);
    finance.flow = "/nonexistent/flow.toml".into();
    spawn_app_with(Options {
        finance,
        auth,
        ..Options::default()
    })
    .await
}

fn port(app: &TestApp) -> u16 {
    app.base.rsplit(':').next().unwrap().parse().unwrap()
}

/// Sends the bounded run at `target` and asserts every answer was a proper one.
async fn fuzz(target: &Target) {
    let cases = cases();
    let seed: u64 = std::env::var("REIMBURSE_HTTP_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x5eed_cafe);
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let endpoints: Vec<_> = ENDPOINTS
        .iter()
        .copied()
        .filter(|(_, path)| target.caller != Caller::SignedIn || *path != LOGOUT)
        .collect();
    let requests: Vec<Sent> = (0..cases)
        .map(|_| request(&mut rng, target, &endpoints))
        .collect();
    let started = Instant::now();
    let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
    let mut bad = Vec::new();
    for batch in requests.chunks(8) {
        let outcomes =
            futures_util::future::join_all(batch.iter().map(|r| send(target.port, &r.bytes))).await;
        for (outcome, sent) in outcomes.into_iter().zip(batch) {
            let why = match outcome {
                Outcome::Ok(status, head) => {
                    *statuses.entry(status).or_default() += 1;
                    wrongly_open(target.caller, sent, status, &head)
                        .map(|why| format!("{status}: {why}: {head:?}"))
                }
                Outcome::Error(status) => {
                    *statuses.entry(status).or_default() += 1;
                    None
                }
                Outcome::Bad(why) => Some(why),
            };
            if let Some(why) = why {
                bad.push(format!(
                    "{why}\n  request: {:?}",
                    String::from_utf8_lossy(&sent.bytes[..sent.bytes.len().min(300)])
                ));
            }
        }
    }
    eprintln!(
        "HTTP fuzz, {:?}: {cases} requests (seed {seed:#x}) in {:?}; statuses {statuses:?}; {} bad",
        target.caller,
        started.elapsed(),
        bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} bad answers, first:\n{}",
        bad.len(),
        bad[..bad.len().min(5)].join("\n")
    );
}

#[tokio::test]
async fn malformed_requests_get_json_errors_and_never_a_panic() {
    let app = app(reimburse_http_api::AuthSettings::default()).await;
    let target = Target {
        port: port(&app),
        caller: Caller::SignInOff,
        own_id: app.create_session().await,
        foreign_id: None,
        cookie: None,
        token: None,
    };
    fuzz(&target).await;
    // And the service still serves.
    assert_eq!(
        app.client
            .post(app.url("/api/session"))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}

/// With sign-in on: the user's own session and its phone token, and another user's session.
async fn signed_in_app(caller: Caller) -> (TestApp, Target, String) {
    let app = app(local_sign_in()).await;
    // A finance user: the audit trail and voiding answer them instead of refusing.
    add_user(&app, "fuzzer", "模糊测试", "fuzz-password-1", true).await;
    add_user(&app, "other", "别人", "other-password-1", false).await;
    let cookie = app.sign_in("fuzzer", "fuzz-password-1").await;
    let own_id = app.create_session_as(&cookie).await;
    let other = app.sign_in("other", "other-password-1").await;
    let foreign_id = app.create_session_as(&other).await;
    let phone: serde_json::Value = app
        .client
        .get(app.url(&format!("/api/mobile-url/{own_id}")))
        .header("Cookie", &cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = phone["url"]
        .as_str()
        .and_then(|url| url.split_once("?t="))
        .map(|(_, token)| token.to_owned())
        .unwrap_or_else(|| panic!("no upload token in {phone}"));
    let target = Target {
        port: port(&app),
        caller,
        own_id,
        foreign_id: Some(foreign_id),
        cookie: (caller == Caller::SignedIn).then(|| cookie.clone()),
        token: Some(token),
    };
    (app, target, cookie)
}

/// The number of sessions on disk.
fn sessions(app: &TestApp) -> usize {
    std::fs::read_dir(app.data_dir.path().join("sessions"))
        .unwrap()
        .count()
}

#[tokio::test]
async fn signed_out_requests_with_sign_in_on_open_nothing_and_get_json_errors() {
    let (app, target, cookie) = signed_in_app(Caller::SignedOut).await;
    let before = sessions(&app);
    fuzz(&target).await;
    assert_eq!(
        sessions(&app),
        before,
        "a signed-out request created a session"
    );
    // The service still serves, and the sign-in still holds.
    let me: serde_json::Value = app
        .client
        .get(app.url("/api/auth/me"))
        .header("Cookie", &cookie)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["signed_in"], true, "{me}");
}

#[tokio::test]
async fn signed_in_requests_get_json_errors_and_never_another_users_session() {
    let (app, target, cookie) = signed_in_app(Caller::SignedIn).await;
    fuzz(&target).await;
    // Signed in throughout: the cookie still opens the user's own session.
    let files = app
        .client
        .get(app.url(&format!("/api/files/{}", target.own_id)))
        .header("Cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(files.status(), 200);
    assert_eq!(
        app.client
            .post(app.url("/api/session"))
            .header("Cookie", &cookie)
            .send()
            .await
            .unwrap()
            .status(),
        200
    );
}
