//! The HTTP layer under hostile use: heads actix cannot parse, bodies that stall or overflow,
//! other hosts and sites, formula cells, placeholders in values, too many rows or streams.
//! Every refusal is `{error}` JSON.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Options, spawn_app, spawn_app_with};
use reimburse_http_api::BodyLimits;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A raw response: status, head (lower-cased) and body.
struct Raw {
    status: u16,
    head: String,
    body: String,
}

impl Raw {
    fn error(&self) -> String {
        let json: Value = serde_json::from_str(&self.body)
            .unwrap_or_else(|_| panic!("not JSON: {} {}", self.head, self.body));
        json["error"].as_str().expect("an error string").to_owned()
    }
}

/// Sends `request` as bytes on a fresh connection and reads the whole response.
async fn raw(base: &str, request: &[u8]) -> Raw {
    let address = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).await.unwrap();
    // The server may answer (and close) before it read everything: ignore a broken pipe.
    let _ = stream.write_all(request).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(60), stream.read_to_end(&mut out)).await;
    parse(&out)
}

fn parse(out: &[u8]) -> Raw {
    let text = String::from_utf8_lossy(out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    Raw {
        status,
        head: head.to_ascii_lowercase(),
        body: body.to_owned(),
    }
}

#[tokio::test]
async fn heads_actix_cannot_parse_get_json_errors() {
    let app = spawn_app().await;
    let long_path = format!(
        "GET /api/files/{} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "a".repeat(64 * 1024)
    );
    let long_query = format!(
        "GET /api/files/x?q={} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "b".repeat(200 * 1000)
    );
    let big_header = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {}\r\n\r\n",
        "c".repeat(40 * 1024)
    );
    for (request, status) in [
        (long_path.into_bytes(), 414),
        (long_query.into_bytes(), 414),
        (big_header.into_bytes(), 431),
        (b"NOT HTTP AT ALL\r\n\r\n".to_vec(), 400),
        (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBroken\r\n\r\n".to_vec(), 400),
        (
            b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
                .to_vec(),
            411,
        ),
    ] {
        let response = raw(&app.base, &request).await;
        assert_eq!(response.status, status, "{}", response.head);
        assert!(!response.error().is_empty());
        assert!(response.head.contains("x-content-type-options: nosniff"));
    }
}

/// The security headers (lower-cased `name: value` lines) of a response head.
fn security_lines(head: &str) -> Vec<String> {
    let mut lines: Vec<String> = head
        .lines()
        .filter(|line| {
            [
                "x-content-type-options:",
                "x-frame-options:",
                "referrer-policy:",
                "cross-origin-resource-policy:",
                "content-security-policy:",
            ]
            .iter()
            .any(|name| line.starts_with(name))
        })
        .map(str::to_owned)
        .collect();
    lines.sort();
    lines
}

#[tokio::test]
async fn front_door_refusals_carry_the_security_headers_of_routed_responses() {
    let app = spawn_app().await;
    let routed = raw(
        &app.base,
        b"GET /api/files/nothing HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    )
    .await;
    assert_eq!(routed.status, 404, "{}", routed.head);
    let expected = security_lines(&routed.head);
    assert_eq!(expected.len(), 5, "{}", routed.head);

    let long_target = format!(
        "GET /{} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "a".repeat(10 * 1024)
    );
    let big_head = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {}\r\n\r\n",
        "c".repeat(40 * 1024)
    );
    let cases: Vec<(Vec<u8>, u16)> = vec![
        (b"NOT HTTP AT ALL\r\n\r\n".to_vec(), 400),
        // A head that never ends: the front door's 10 s.
        (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".to_vec(), 408),
        (
            b"POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                .to_vec(),
            411,
        ),
        (long_target.into_bytes(), 414),
        (big_head.into_bytes(), 431),
    ];
    let answers =
        futures_util::future::join_all(cases.iter().map(|(request, _)| raw(&app.base, request)))
            .await;
    for ((_, status), response) in cases.iter().zip(answers) {
        assert_eq!(response.status, *status, "{}", response.head);
        assert_eq!(
            security_lines(&response.head),
            expected,
            "{status}: {}",
            response.head
        );
        assert!(!response.error().is_empty());
    }
}

#[tokio::test]
async fn actix_refusals_and_unknown_routes_are_json_with_security_headers() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let big = vec![b' '; 300 * 1024];
    let cases = [
        app.client
            .post(app.url(&format!("/api/process/{id}")))
            .body(big)
            .send()
            .await
            .unwrap(),
        app.client
            .delete(app.url("/api/session"))
            .send()
            .await
            .unwrap(),
        app.client.get(app.url("/nowhere")).send().await.unwrap(),
    ];
    for (response, status) in cases.into_iter().zip([413, 404, 404]) {
        assert_eq!(response.status(), status);
        let headers = response.headers().clone();
        for (name, value) in [
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "DENY"),
            ("content-type", "application/json"),
        ] {
            assert_eq!(headers.get(name).unwrap(), value, "{name}");
        }
        let body: Value = response.json().await.unwrap();
        assert!(body["error"].is_string(), "{body}");
    }
}

#[tokio::test]
async fn a_stalled_body_ends_in_a_json_408() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let request = format!(
        "POST /api/upload/{id} HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Content-Type: multipart/form-data; boundary=XX\r\nContent-Length: 100000\r\n\r\n\
         --XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n%PDF-1.4\n"
    );
    let started = Instant::now();
    let response = raw(&app.base, request.as_bytes()).await;
    eprintln!("stalled body answered after {:?}", started.elapsed());
    assert_eq!(response.status, 408, "{} {}", response.head, response.body);
    assert!(response.error().contains("超时"));
    let files: Value = app
        .get(&format!("/api/files/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(files["files"], json!([]), "nothing half-written is listed");
}

#[tokio::test]
async fn a_whole_multipart_body_without_its_closing_boundary_is_refused_at_once() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let part = "--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\
                Content-Type: application/pdf\r\n\r\n%PDF-1.4\nsome bytes";
    // Endings a client that forgot `\r\n--XX--\r\n` sends: the body is all there, as its
    // Content-Length says, but the multipart structure is not closed.
    for ending in ["\r\n", "", "\r", "\r\n--X", "\r\n--", "\r\n-"] {
        let body = format!("{part}{ending}");
        let request = format!(
            "POST /api/upload/{id} HTTP/1.1\r\nHost: 127.0.0.1\r\n\
             Content-Type: multipart/form-data; boundary=XX\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let started = Instant::now();
        let response = raw(&app.base, request.as_bytes()).await;
        let took = started.elapsed();
        eprintln!("ending {ending:?}: {} after {took:?}", response.status);
        assert_eq!(
            response.status, 400,
            "{ending:?}: {} {}",
            response.head, response.body
        );
        assert!(
            response.error().contains("上传格式错误"),
            "{}",
            response.body
        );
        // The idle timeout is 20 s; this is answered as soon as the body is in.
        assert!(
            took < Duration::from_secs(3),
            "{ending:?} answered after {took:?}"
        );
    }
    let files: Value = app
        .get(&format!("/api/files/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(files["files"], json!([]), "nothing half-written is listed");
}

/// Sends `head`, then `body` a `chunk` at a time, one every `interval`, reading the answer
/// meanwhile. Returns the answer and when its first bytes came.
async fn paced(
    base: &str,
    head: &[u8],
    body: &[u8],
    chunk: usize,
    interval: Duration,
) -> (Raw, Duration) {
    let mut stream = TcpStream::connect(base.trim_start_matches("http://"))
        .await
        .unwrap();
    let started = Instant::now();
    stream.write_all(head).await.unwrap();
    let mut pieces = body.chunks(chunk);
    let mut ticks = tokio::time::interval(interval);
    let (mut out, mut first, mut writing) = (Vec::new(), None, true);
    let mut buf = [0u8; 8192];
    let until = tokio::time::Instant::now() + Duration::from_secs(60);
    while tokio::time::Instant::now() < until {
        tokio::select! {
            read = stream.read(&mut buf) => match read {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    first.get_or_insert_with(|| started.elapsed());
                    out.extend_from_slice(&buf[..n]);
                    writing = false;
                }
            },
            _ = ticks.tick(), if writing => match pieces.next() {
                Some(piece) => writing = stream.write_all(piece).await.is_ok(),
                None => writing = false,
            },
        }
    }
    (parse(&out), first.expect("an answer"))
}

/// A multipart upload of one file: its request head (with the whole body's length, plus
/// `extra` bytes that will never come) and body.
fn upload_request(id: &str, file: &[u8], extra: usize) -> (Vec<u8>, Vec<u8>) {
    let mut body =
        b"--XX\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n"
            .to_vec();
    body.extend_from_slice(file);
    body.extend_from_slice(b"\r\n--XX--\r\n");
    let head = format!(
        "POST /api/upload/{id} HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Content-Type: multipart/form-data; boundary=XX\r\nContent-Length: {}\r\n\r\n",
        body.len() + extra
    );
    (head.into_bytes(), body)
}

#[tokio::test]
async fn a_body_must_arrive_by_a_deadline_that_grows_with_its_length() {
    let app = spawn_app_with(Options {
        bodies: BodyLimits {
            deadline_base: Duration::from_secs(1),
            min_rate_kib: 64,
            ..BodyLimits::default()
        },
        ..Options::default()
    })
    .await;
    let id = app.create_session().await;
    // 256 KiB at about 100 KiB/s takes longer than the base, and well within its 1 + 5 s.
    let mut pdf = b"%PDF-1.4\n".to_vec();
    pdf.extend(common::noise(256 * 1024, 7));
    let (head, body) = upload_request(&id, &pdf, 0);
    let (done, took) = paced(
        &app.base,
        &head,
        &body,
        16 * 1024,
        Duration::from_millis(160),
    )
    .await;
    eprintln!("256 KiB paced upload answered after {took:?}");
    assert_eq!(done.status, 200, "{} {}", done.head, done.body);
    assert!(took > Duration::from_secs(1), "{took:?}");

    // A trickle, a byte every 300 ms, is never idle for long but is cut at its deadline:
    // 4 KiB declared, 1 + 1 s.
    let (head, body) = upload_request(&id, b"%PDF-1.4\n", 4000);
    let (start, trickle) = body.split_at(body.len() - 20);
    let head = [head, start.to_vec()].concat();
    let trickle: Vec<u8> = trickle.iter().copied().cycle().take(100).collect();
    let (cut, took) = paced(&app.base, &head, &trickle, 1, Duration::from_millis(300)).await;
    eprintln!("trickle answered after {took:?}");
    assert_eq!(cut.status, 408, "{} {}", cut.head, cut.body);
    assert!(cut.error().contains("未能在 2 秒内传完"), "{}", cut.body);
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_secs(10),
        "{took:?}"
    );
    let files: Value = app
        .get(&format!("/api/files/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(files["files"].as_array().unwrap().len(), 1, "{files}");
    let leftovers: Vec<_> = std::fs::read_dir(app.session_dir(&id))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".part"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[tokio::test]
async fn bodies_in_flight_are_bounded_per_address() {
    let app = spawn_app_with(Options {
        bodies: BodyLimits {
            per_address: 2,
            ..BodyLimits::default()
        },
        ..Options::default()
    })
    .await;
    let id = app.create_session().await;
    // Two uploads whose bodies stay open (their end never comes) hold both slots.
    let (head, body) = upload_request(&id, b"%PDF-1.4\n", 0);
    let held = [&head[..], &body[..body.len() - 20]].concat();
    let address = app.base.trim_start_matches("http://").to_owned();
    let mut open = Vec::new();
    for _ in 0..2 {
        let mut stream = TcpStream::connect(&address).await.unwrap();
        stream.write_all(&held).await.unwrap();
        open.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let refused = app.upload(&id, "b.pdf", common::tiny_pdf()).await;
    assert_eq!(refused.status(), 429);
    assert!(started.elapsed() < Duration::from_secs(3));
    let error: Value = refused.json().await.unwrap();
    assert_eq!(
        error["error"],
        "同一地址同时进行的上传过多（上限 2 个），请等待其他上传完成"
    );
    // A save is a body too; requests without one are not counted.
    let save = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv", "data": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(save.status(), 429);
    assert_eq!(app.get(&format!("/api/files/{id}")).await.status(), 200);
    // Closing the held connections gives the slots back.
    drop(open);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stored = app.upload(&id, "b.pdf", common::tiny_pdf()).await;
    assert_eq!(stored.status(), 200, "{}", stored.text().await.unwrap());
}

#[tokio::test]
async fn other_hosts_and_cross_site_changes_are_refused() {
    let app = spawn_app().await;
    let port = app.base.rsplit(':').next().unwrap();
    let rebinding = app
        .client
        .post(app.url("/api/session"))
        .header("Host", format!("evil.example:{port}"))
        .send()
        .await
        .unwrap();
    assert_eq!(rebinding.status(), 421);
    assert!(rebinding.json::<Value>().await.unwrap()["error"].is_string());

    let id = app.create_session().await;
    // A form on another site posting text/plain: no preflight, so only we can stop it.
    let cross = app
        .client
        .post(app.url(&format!("/api/process/{id}")))
        .header("Origin", "https://evil.example")
        .header("Sec-Fetch-Site", "cross-site")
        .header("Content-Type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(cross.status(), 403);
    assert!(cross.json::<Value>().await.unwrap()["error"].is_string());
    assert!(
        !app.session_dir(&id).join("config.json").exists(),
        "nothing started"
    );
    // The service's own page and curl (no Origin) are served.
    let own = app
        .client
        .post(app.url("/api/session"))
        .header("Origin", app.base.clone())
        .header("Sec-Fetch-Site", "same-origin")
        .send()
        .await
        .unwrap();
    assert_eq!(own.status(), 200);
}

fn row(name: &str) -> Value {
    json!({"序号": "1", "发票号码": "12345678", "开票日期": "2025/03/11", "项目名称": name,
           "价税合计": "235.00", "销售方名称": "某某文具店", "备注": "=cmd|' /C calc'!A0"})
}

#[tokio::test]
async fn too_many_rows_are_refused_and_the_table_is_kept() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let save = |rows: Vec<Value>| {
        app.client
            .post(app.url(&format!("/api/save/{id}")))
            .json(&json!({"csv_filename": "invoice_summary.csv", "data": rows}))
            .send()
    };
    assert_eq!(save(vec![row("*纸制品*A4纸")]).await.unwrap().status(), 200);
    let before = std::fs::read(app.session_dir(&id).join("invoice_summary.csv")).unwrap();
    let started = Instant::now();
    let huge = save(vec![row("*纸制品*A4纸"); 100_000]).await.unwrap();
    eprintln!("100000 rows refused after {:?}", started.elapsed());
    assert_eq!(huge.status(), 413);
    assert!(
        huge.json::<Value>().await.unwrap()["error"]
            .as_str()
            .unwrap()
            .contains("过大")
    );
    let many = save(vec![row("*纸制品*A4纸"); 2_001]).await.unwrap();
    assert_eq!(many.status(), 400);
    assert!(
        many.json::<Value>().await.unwrap()["error"]
            .as_str()
            .unwrap()
            .contains("2000")
    );
    let mut long = row("*纸制品*A4纸");
    long["备注"] = json!("长".repeat(2_001));
    assert_eq!(save(vec![long]).await.unwrap().status(), 400);
    let after = std::fs::read(app.session_dir(&id).join("invoice_summary.csv")).unwrap();
    assert_eq!(before, after);
}

#[tokio::test]
async fn a_formula_cell_is_text_on_disk_and_unchanged_in_the_api() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let response = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv", "data": [row("*纸制品*A4纸")]}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let csv = std::fs::read_to_string(app.session_dir(&id).join("invoice_summary.csv")).unwrap();
    assert!(csv.contains(",'=cmd|' /C calc'!A0,"), "{csv}");
    let data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(data["data"][0]["备注"], "=cmd|' /C calc'!A0");
    assert_eq!(data["data"][0]["价税合计"], "235.00");
}

#[tokio::test]
async fn a_placeholder_typed_into_a_cell_stays_text_in_the_document() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let response: Value = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv",
                      "data": [row("*纸制品*X{{合计大写}}Y")]}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(response["doc_ok"], true, "{response}");
    let output = std::process::Command::new("catdoc")
        .args(["-d", "utf-8"])
        .arg(app.session_dir(&id).join("易耗品、出库单.doc"))
        .output()
        .expect("catdoc (cargo xtask test installs it)");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("X{{合计大写}}Y"), "{text}");
    assert!(!text.contains("X贰佰叁拾伍元整Y"), "{text}");
}

#[tokio::test]
async fn streams_per_session_are_bounded() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let max = app.state.sse.max_streams_per_session;
    let mut open = Vec::new();
    for _ in 0..max {
        let response = app.get(&format!("/api/logs/{id}")).await;
        assert_eq!(response.status(), 200);
        open.push(response);
    }
    let refused = app.get(&format!("/api/logs/{id}")).await;
    assert_eq!(refused.status(), 429);
    assert!(refused.json::<Value>().await.unwrap()["error"].is_string());
    // Another session is not affected.
    let other = app.create_session().await;
    assert_eq!(app.get(&format!("/api/logs/{other}")).await.status(), 200);
}

/// The QR code the service draws for `url` (the rendering of routes::pages::qr).
fn qr_svg(url: &str) -> String {
    qrcode::QrCode::new(url.as_bytes())
        .unwrap()
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(160, 160)
        .quiet_zone(true)
        .build()
}

#[tokio::test]
async fn the_phone_qr_code_ignores_forwarded_hosts() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let host = app.base.trim_start_matches("http://");
    let own = qr_svg(&format!("http://{host}/mobile/{id}"));
    assert_ne!(own, qr_svg(&format!("http://evil.example/mobile/{id}")));
    for headers in [
        vec![("X-Forwarded-Host", "evil.example")],
        vec![("Forwarded", "host=evil.example")],
        vec![
            ("Forwarded", "for=192.0.2.1;host=evil.example;proto=https"),
            ("X-Forwarded-Host", "evil.example:443"),
            ("X-Forwarded-Proto", "https"),
        ],
    ] {
        let mut request = app.client.get(app.url(&format!("/api/qr/{id}")));
        for (name, value) in &headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200, "{headers:?}");
        assert_eq!(response.text().await.unwrap(), own, "{headers:?}");
    }
    // The Host the desktop used is what the phone gets (a LAN address).
    let port = host.rsplit(':').next().unwrap();
    let lan = format!("192.168.1.20:{port}");
    let response = app
        .client
        .get(app.url(&format!("/api/qr/{id}")))
        .header("Host", &lan)
        .header("X-Forwarded-Host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(
        response.text().await.unwrap(),
        qr_svg(&format!("http://{lan}/mobile/{id}"))
    );
}

/// With sign-in on, the phone page's refusal is a page only for a browser opening it (GET or
/// HEAD); any other method gets `{error}` JSON like every other refusal.
#[tokio::test]
async fn the_phone_pages_refusal_is_a_page_only_for_get_and_head() {
    let app = spawn_app_with(Options {
        auth: common::local_sign_in(),
        ..Options::default()
    })
    .await;
    common::add_user(&app, "zhangsan", "张三", "zhangsan-password", false).await;
    let cookie = app.sign_in("zhangsan", "zhangsan-password").await;
    let id = app.create_session_as(&cookie).await;
    let page = app.get(&format!("/mobile/{id}")).await;
    assert_eq!(page.status(), 404);
    assert!(page.text().await.unwrap().contains("会话不存在"));
    for (method, query, status) in [
        ("PATCH", "", 401),
        ("DELETE", "", 401),
        ("POST", "", 401),
        ("OPTIONS", "?t=AAAA", 404),
    ] {
        let response = app
            .client
            .request(
                method.parse().unwrap(),
                app.url(&format!("/mobile/{id}{query}")),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), status, "{method}");
        assert_eq!(
            response.headers()["content-type"],
            "application/json",
            "{method}"
        );
        let body: Value = response.json().await.unwrap();
        assert!(body["error"].is_string(), "{method}: {body}");
    }
}
