//! The real `reimburse serve` binary: start-up, recovery of cut-off runs, graceful SIGTERM, the
//! phone's address when the service listens beyond loopback.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test and bench code: a failed step should abort loudly"
)]

mod common;

use common::{json_of, start, start_with};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

fn sigterm(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

#[tokio::test]
async fn serves_and_stops_gracefully_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = start(dir.path());
    let client = reqwest::Client::new();
    let created: serde_json::Value = client
        .post(format!("{}/api/session", server.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(created["session_id"].is_string());
    sigterm(&server.child);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(Instant::now() < deadline, "did not stop within 20 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_run_cut_off_by_a_crash_is_closed_at_start_up() {
    let dir = tempfile::tempdir().unwrap();
    let id = "0f0e0d0c-0b0a-4908-8706-050403020100";
    let session_dir = dir.path().join("sessions").join(id);
    std::fs::create_dir_all(&session_dir).unwrap();
    std::fs::write(
        session_dir.join(".run.json"),
        r#"{"kind":"process","started_at":"2026-01-01T00:00:00.000Z","offsets":[0,0,0,0],"finished":false}"#,
    )
    .unwrap();
    let server = start(dir.path());
    let result: serde_json::Value =
        serde_json::from_slice(&std::fs::read(session_dir.join("result.json")).unwrap()).unwrap();
    assert_eq!(result["ok"], false);
    assert!(result["error"].as_str().unwrap().contains("中断"));
    // And a client following that session is not left waiting.
    let body = reqwest::get(format!("{}/api/logs/{id}", server.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(body.contains(r#""type":"done""#), "{body}");
}

#[test]
fn help_documents_flags_and_environment() {
    let output = Command::new(env!("CARGO_BIN_EXE_reimburse"))
        .args(["serve", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(output.stdout).unwrap();
    for expected in [
        "--addr",
        "REIMBURSE_ADDR",
        "--data-dir",
        "REIMBURSE_DATA_DIR",
        "--config",
        "--max-upload-mib",
    ] {
        assert!(help.contains(expected), "{expected} missing from:\n{help}");
    }
}

/// The QR code the service serves for `url`, as the qrcode crate draws it.
fn qr_svg(url: &str) -> String {
    qrcode::QrCode::new(url.as_bytes())
        .unwrap()
        .render::<qrcode::render::svg::Color<'_>>()
        .min_dimensions(160, 160)
        .quiet_zone(true)
        .build()
}

/// The phone's address and QR code of a new session, asked on 127.0.0.1 as a person at the
/// machine itself would.
async fn phone_of(data: &std::path::Path, extra: &[&str]) -> (serde_json::Value, String) {
    let server = start_with(data, data, extra);
    let port = server.base.rsplit(':').next().unwrap().to_owned();
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let created = json_of(client.post(format!("{base}/api/session"))).await;
    let id = created["session_id"].as_str().unwrap();
    let phone = json_of(client.get(format!("{base}/api/mobile-url/{id}"))).await;
    let svg = client
        .get(format!("{base}/api/qr/{id}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        phone["url"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/mobile/{id}")),
        "{phone}"
    );
    (phone, svg)
}

#[tokio::test]
async fn a_service_on_all_interfaces_gives_the_phone_a_lan_address() {
    let dir = tempfile::tempdir().unwrap();
    let (phone, svg) = phone_of(dir.path(), &["--addr", "0.0.0.0:0", "--no-portal"]).await;
    let url = phone["url"].as_str().unwrap();
    let host = url.trim_start_matches("http://").split(':').next().unwrap();
    let ip: std::net::IpAddr = host.parse().unwrap();
    assert!(!ip.is_loopback() && !ip.is_unspecified(), "{phone}");
    assert_eq!(phone["reachable"], true, "{phone}");
    assert_eq!(svg, qr_svg(url), "the QR code encodes another address");

    // Behind a proxy or under a DNS name: the configured address.
    std::fs::write(
        dir.path().join("reimburse.toml"),
        "[server]\npublic_url = \"https://bx.example.edu.cn/\"\n",
    )
    .unwrap();
    let (phone, svg) = phone_of(dir.path(), &["--addr", "0.0.0.0:0", "--no-portal"]).await;
    let url = phone["url"].as_str().unwrap();
    assert!(
        url.starts_with("https://bx.example.edu.cn/mobile/"),
        "{phone}"
    );
    assert_eq!(svg, qr_svg(url));

    // On loopback only: said, not hidden.
    std::fs::remove_file(dir.path().join("reimburse.toml")).unwrap();
    let (phone, _) = phone_of(dir.path(), &["--no-portal"]).await;
    assert_eq!(phone["reachable"], false, "{phone}");
}
