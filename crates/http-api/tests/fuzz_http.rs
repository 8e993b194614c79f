//! A bounded fuzz run of the HTTP layer on loopback: every endpoint with malformed methods,
//! paths, names, headers and bodies, sent as raw bytes. Every answer must be a parsable
//! response; every error a `{error}` JSON body (the phone page's "session unknown" page for a
//! person excepted); nothing a 5xx (a panic is caught as a 500).
//! `REIMBURSE_HTTP_FUZZ_CASES` sets the number of requests (default 1500) and
//! `REIMBURSE_HTTP_FUZZ_SEED` the seed; the figures are printed.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Options, spawn_app_with};
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

const ENDPOINTS: [(&str, &str); 18] = [
    ("GET", "/"),
    ("GET", "/mobile/{id}"),
    ("POST", "/api/session"),
    ("POST", "/api/upload/{id}"),
    ("GET", "/api/files/{id}"),
    ("GET", "/api/download/{id}/{file}"),
    ("POST", "/api/mobile-upload/{id}"),
    ("GET", "/api/config/{id}"),
    ("GET", "/api/data/{id}"),
    ("POST", "/api/save/{id}"),
    ("POST", "/api/process/{id}"),
    ("GET", "/api/logs/{id}"),
    ("POST", "/api/submit-financial/{id}"),
    ("GET", "/api/agent/state/{id}"),
    ("POST", "/api/agent/process/{id}"),
    ("POST", "/api/agent/supplement/{id}"),
    ("POST", "/api/agent/user-supplement/{id}"),
    ("POST", "/api/agent/force-submit/{id}"),
];

fn session_id(rng: &mut Rng, real: &str) -> String {
    match rng.below(8) {
        0..=3 => real.to_owned(),
        4 => "00000000-0000-4000-8000-000000000000".to_owned(),
        5 => "..%2F..%2Fetc".to_owned(),
        6 => "%".repeat(rng.below(40) + 1),
        _ => String::from_utf8_lossy(&rng.some_bytes(60)).into_owned(),
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
    let json_bodies: [&[u8]; 12] = [
        b"{}",
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

fn request(rng: &mut Rng, real_id: &str, port: u16) -> Vec<u8> {
    let (method, template) = *rng.pick(&ENDPOINTS);
    let method = if rng.chance(85) {
        method.to_owned()
    } else {
        rng.pick(&[
            "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "G\u{1}T", "POST",
        ])
        .to_string()
    };
    let mut path = template
        .replace("{id}", &session_id(rng, real_id))
        .replace("{file}", &file_name(rng));
    if rng.chance(15) {
        path.push_str(&format!("?last_event_id={}", "9".repeat(rng.below(50))));
    }
    if rng.chance(5) {
        path = format!("/{}", "x".repeat(rng.below(20_000)));
    }
    let (content_type, body) = body(rng);
    let mut head = format!("{method} {} HTTP/1.1\r\n", target_text(&path)).into_bytes();
    let host = match rng.below(10) {
        0 => "evil.example".to_owned(),
        1 => String::new(),
        _ => format!("127.0.0.1:{port}"),
    };
    if !host.is_empty() {
        head.extend(format!("Host: {host}\r\n").into_bytes());
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
    head
}

/// What came back for one request.
enum Outcome {
    Ok(u16),
    Error(u16),
    Bad(String),
}

async fn send(port: u16, bytes: &[u8]) -> Outcome {
    let head_request = bytes.starts_with(b"HEAD ");
    // The phone page answers an unknown session with a page for a person, on purpose.
    let page_request = bytes.starts_with(b"GET /mobile/");
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
        return Outcome::Ok(status);
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
    if page_request && html && status == 404 && body.contains("会话不存在") {
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

#[tokio::test]
async fn malformed_requests_get_json_errors_and_never_a_panic() {
    let mut finance = common::finance(None);
    // Submissions fail at once (no flow) instead of starting a browser per fuzzed request.
    finance.flow = "/nonexistent/flow.toml".into();
    let app = spawn_app_with(Options {
        finance,
        ..Options::default()
    })
    .await;
    let port: u16 = app.base.rsplit(':').next().unwrap().parse().unwrap();
    let real_id = app.create_session().await;
    let cases: usize = std::env::var("REIMBURSE_HTTP_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1500);
    let seed: u64 = std::env::var("REIMBURSE_HTTP_FUZZ_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0x5eed_cafe);
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let requests: Vec<Vec<u8>> = (0..cases)
        .map(|_| request(&mut rng, &real_id, port))
        .collect();
    let started = Instant::now();
    let mut statuses = std::collections::BTreeMap::<u16, usize>::new();
    let mut bad = Vec::new();
    for batch in requests.chunks(8) {
        let outcomes = futures_util::future::join_all(batch.iter().map(|r| send(port, r))).await;
        for (outcome, request) in outcomes.into_iter().zip(batch) {
            match outcome {
                Outcome::Ok(status) | Outcome::Error(status) => {
                    *statuses.entry(status).or_default() += 1;
                }
                Outcome::Bad(why) => bad.push(format!(
                    "{why}\n  request: {:?}",
                    String::from_utf8_lossy(&request[..request.len().min(300)])
                )),
            }
        }
    }
    eprintln!(
        "HTTP fuzz: {cases} requests (seed {seed:#x}) in {:?}; statuses {statuses:?}; {} bad",
        started.elapsed(),
        bad.len()
    );
    assert!(
        bad.is_empty(),
        "{} bad answers, first:\n{}",
        bad.len(),
        bad[..bad.len().min(5)].join("\n")
    );
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
