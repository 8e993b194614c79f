//! GET /api/download: content types, UTF-8 disposition, 404 message, traversal refused.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test and bench code: a failed step should abort loudly"
)]

mod common;

use common::{spawn_app, tiny_pdf};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;

#[tokio::test]
async fn downloads_have_the_interface_content_types_and_utf8_names() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let dir = app.session_dir(&id);
    std::fs::write(dir.join("invoice_summary.csv"), "\u{feff}序号\n1\n").unwrap();
    std::fs::write(dir.join("易耗品、出库单.doc"), b"\xd0\xcf\x11\xe0doc").unwrap();
    std::fs::write(dir.join("result.json"), "{}").unwrap();
    app.upload(&id, "发票.pdf", tiny_pdf()).await;

    let cases = [
        ("invoice_summary.csv", "text/csv; charset=utf-8"),
        ("易耗品、出库单.doc", "application/msword"),
        ("result.json", "application/octet-stream"),
        ("发票.pdf", "application/octet-stream"),
    ];
    for (name, content_type) in cases {
        let response = app.get(&format!("/api/download/{id}/{name}")).await;
        assert_eq!(response.status(), 200, "{name}");
        assert_eq!(response.headers()["content-type"], content_type, "{name}");
        let disposition = response.headers()["content-disposition"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(disposition.starts_with("attachment"), "{disposition}");
        let encoded: String = name
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b"._-".contains(&b) {
                    (b as char).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        assert!(
            disposition.contains(&format!("filename*=UTF-8''{encoded}")),
            "{disposition} / {encoded}"
        );
        let body = response.bytes().await.unwrap();
        assert_eq!(
            body.as_ref(),
            std::fs::read(dir.join(name)).unwrap(),
            "{name}"
        );
    }
}

#[tokio::test]
async fn a_missing_file_is_404_with_the_interface_message() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let response = app
        .get(&format!("/api/download/{id}/invoice_summary.csv"))
        .await;
    assert_eq!(response.status(), 404);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, serde_json::json!({"error": "文件不存在"}));
}

/// Sends a raw request line, so no client normalises the path first.
fn raw_get(base: &str, path: &str) -> (u16, String) {
    let address = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response[9..12].parse().unwrap();
    (status, response)
}

#[tokio::test]
async fn path_traversal_is_refused() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    std::fs::write(app.data_dir.path().join("outside.txt"), "secret").unwrap();
    let attempts = [
        format!("/api/download/{id}/..%2F..%2Fsecret.key"),
        format!("/api/download/{id}/..%2f..%2foutside.txt"),
        format!("/api/download/{id}/%2e%2e%2f%2e%2e%2foutside.txt"),
        format!("/api/download/{id}/../../outside.txt"),
        format!("/api/download/{id}/..%5C..%5Coutside.txt"),
        format!("/api/download/{id}/.run.json"),
        format!("/api/download/{id}/%00result.json"),
        format!("/api/download/{id}/.."),
    ];
    for path in attempts {
        let base = app.base.clone();
        let (status, response) = tokio::task::spawn_blocking(move || raw_get(&base, &path))
            .await
            .unwrap();
        assert!(status == 400 || status == 404, "{status} {response}");
        assert!(!response.contains("secret"), "{response}");
        assert!(response.contains("\"error\""), "{response}");
    }
    let key = app.get(&format!("/api/download/{id}/secret.key")).await;
    assert_eq!(key.status(), 404);
}
