//! The real binary under hostile and careless use: image bombs, a crash in the middle of a
//! save, a relative data dir (the README's `cargo xtask run`), hundreds of slow uploads from
//! one address under a small open-file limit, LibreOffice's leftovers in /tmp after a stop or
//! a kill.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Server, fixture, peak_rss, start, start_in};
use serde_json::{Value, json};
use std::io::Cursor;
use std::path::Path;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Peak resident memory the service may reach while refusing the bombs and processing an
/// invoice beside them (docs/limits.md). The bombs would take 12 GB and 4.7 GB decoded.
const RSS_BOUND: u64 = 512 * 1024 * 1024;

/// A phone-screenshot-sized JPEG whose frame header declares `width`×`height`: the 216 KB
/// file that once took the service to 20 GB.
fn patched_jpeg(width: u16, height: u16) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::RgbImage::from_fn(1080, 2340, |x, y| {
        image::Rgb([(x % 251) as u8, (y % 241) as u8, ((x + y) % 239) as u8])
    })
    .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Jpeg)
    .unwrap();
    let sof = bytes.windows(2).position(|w| w == [0xff, 0xc0]).unwrap();
    bytes[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
    bytes[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
    bytes
}

/// A PNG declaring 30000×30000 pixels (the all-zero bomb: 875 KB on disk, 4.7 GB decoded),
/// built as a real zlib stream of zero rows so that a decoder would really inflate it.
fn png_bomb() -> Vec<u8> {
    let (width, height) = (30_000u32, 30_000u32);
    let mut out = Vec::new();
    let encoder = image::codecs::png::PngEncoder::new_with_quality(
        &mut out,
        image::codecs::png::CompressionType::Fast,
        image::codecs::png::FilterType::NoFilter,
    );
    // Encoding 900 MB of zeros here would take the test minutes: write a small image and
    // patch its header, which is all the service may look at before refusing.
    image::ImageEncoder::write_image(
        encoder,
        &[0u8; 64 * 64],
        64,
        64,
        image::ExtendedColorType::L8,
    )
    .unwrap();
    out[16..20].copy_from_slice(&width.to_be_bytes());
    out[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32(&out[12..29]);
    out[29..33].copy_from_slice(&crc.to_be_bytes());
    out
}

/// The CRC-32 a PNG chunk carries (zlib's, which flate2 computes).
fn crc32(data: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(data);
    crc.sum()
}

async fn process(server: &Server, client: &reqwest::Client, id: &str, body: Value) {
    let response = client
        .post(server.url(&format!("/api/process/{id}")))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
}

#[tokio::test]
async fn image_bombs_end_as_file_errors_while_another_session_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path());
    let client = reqwest::Client::new();
    let bombed = server.create_session(&client).await;
    server
        .upload(&client, &bombed, "截图.jpg", patched_jpeg(65_000, 65_000))
        .await;
    server
        .upload(&client, &bombed, "bomb.png", png_bomb())
        .await;
    let screenshot =
        std::fs::read(common::workspace().join("fixtures/screenshots/alipay_bill_01.png")).unwrap();
    server
        .upload(&client, &bombed, "支付.png", screenshot)
        .await;
    // Screenshots are read once there is an invoice to match them to.
    server
        .upload(
            &client,
            &bombed,
            "发票.pdf",
            fixture("digital_normal_multi.pdf"),
        )
        .await;
    let normal = server.create_session(&client).await;
    server
        .upload(
            &client,
            &normal,
            "发票.pdf",
            fixture("digital_normal_single.pdf"),
        )
        .await;
    process(&server, &client, &bombed, json!({})).await;
    process(&server, &client, &normal, json!({})).await;
    let (bombed_events, normal_events) = tokio::join!(
        server.events_until_done(&bombed),
        server.events_until_done(&normal)
    );

    let root = dir.path().display().to_string();
    for file in ["截图.jpg", "bomb.png"] {
        let error = bombed_events
            .iter()
            .find(|e| e["type"] == "file_progress" && e["file"] == file && e["status"] == "error")
            .unwrap_or_else(|| panic!("no error event for {file}: {bombed_events:?}"));
        let message = error["error"].as_str().unwrap();
        assert!(message.contains("超出上限"), "{message}");
        assert!(!message.contains(&root), "{message}");
    }
    assert!(
        bombed_events.iter().any(|e| e["type"] == "file_progress"
            && e["file"] == "支付.png"
            && e["status"] == "done"),
        "the good screenshot beside the bombs is read: {bombed_events:?}"
    );
    let log = std::fs::read_to_string(
        dir.path()
            .join("sessions")
            .join(&bombed)
            .join("session.log"),
    )
    .unwrap();
    assert!(!log.contains(&root), "{log}");

    for events in [&bombed_events, &normal_events] {
        let result = &events.last().unwrap()["result"];
        assert_eq!(result["ok"], true, "{result}");
        assert_eq!(result["invoice_count"], 1, "{result}");
    }

    let peak = peak_rss(server.child.id());
    eprintln!("peak RSS of the service: {} MiB", peak / (1024 * 1024));
    assert!(peak < RSS_BOUND, "peak RSS {} MiB", peak / (1024 * 1024));
    // And the service is still there.
    let files = client
        .get(server.url(&format!("/api/files/{bombed}")))
        .send()
        .await
        .unwrap();
    assert_eq!(files.status(), 200);
}

/// LibreOffice processes whose command line names `data_dir` (its profile lives there).
fn office_pids(data_dir: &Path) -> Vec<u32> {
    let needle = data_dir.display().to_string();
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline);
        let zombie = std::fs::read_to_string(entry.path().join("stat"))
            .is_ok_and(|s| s.rsplit(") ").next().is_some_and(|s| s.starts_with('Z')));
        if cmdline.contains("soffice") && cmdline.contains(&needle) && !zombie {
            pids.push(pid);
        }
    }
    pids
}

async fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "{what} within 60 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_crash_during_a_save_leaves_no_libreoffice_behind() {
    let dir = tempfile::tempdir().unwrap();
    let data = common::configured_data_dir(dir.path(), "");
    let mut server = start(&data);
    let client = reqwest::Client::new();
    let id = server.create_session(&client).await;
    // The service keeps one LibreOffice warm from its start.
    wait_for("a warm LibreOffice", || !office_pids(&data).is_empty()).await;
    let row = json!({"序号": "1", "发票号码": "12345678", "开票日期": "2025/03/11",
        "项目名称": "*纸制品*A4复印纸", "价税合计": "255.00", "销售方名称": "某某文具店"});
    let rows: Vec<Value> = (0..200).map(|_| row.clone()).collect();
    let save = client
        .post(server.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv", "data": rows}))
        .send();
    let save = tokio::spawn(save);
    // Kill it while LibreOffice converts (a save of 200 items takes it a while). A fresh
    // profile makes soffice exit once and start again, so look until one is running.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut before = Vec::new();
    wait_for("LibreOffice running during the save", || {
        before = office_pids(&data);
        !before.is_empty()
    })
    .await;
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let _ = save.await;
    // The parent-death signal ends LibreOffice with the service.
    wait_for("LibreOffice gone with the service", || {
        office_pids(&data).iter().all(|pid| !before.contains(pid))
    })
    .await;
    let scratch: Vec<_> = std::fs::read_dir(data.join("tmp"))
        .unwrap()
        .flatten()
        .collect();
    assert!(!scratch.is_empty(), "the crashed run's scratch dir is left");

    let restarted = start(&data);
    assert!(office_pids(&data).iter().all(|pid| !before.contains(pid)));
    for old in scratch {
        assert!(
            !old.path().exists(),
            "{} left after restart",
            old.path().display()
        );
    }
    drop(restarted);
}

#[tokio::test]
async fn the_default_relative_data_dir_submits_to_the_demo_portal() {
    let cwd = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(cwd.path().join("data")).unwrap();
    std::fs::write(
        cwd.path().join("data/reimburse.toml"),
        format!(
            "[document]\ntemplate = {:?}\n[finance]\nflow = {:?}\n",
            common::workspace().join("templates/易耗品出库单.docx"),
            common::workspace().join("flows/demo-portal.toml"),
        ),
    )
    .unwrap();
    // As `cargo xtask run` starts it: `--data-dir data`, relative to the working directory.
    let server = start_in(cwd.path(), Path::new("data"));
    let client = reqwest::Client::new();
    let id = server.create_session(&client).await;
    server
        .upload(
            &client,
            &id,
            "发票.pdf",
            fixture("digital_normal_single.pdf"),
        )
        .await;
    process(
        &server,
        &client,
        &id,
        json!({"username": "100001", "password": "demo123", "default_name": "张三",
               "consumable_storage": "实验楼 301"}),
    )
    .await;
    let result = server.events_until_done(&id).await.last().unwrap()["result"].clone();
    assert_eq!(result["ok"], true, "{result}");
    let response = client
        .post(server.url(&format!("/api/submit-financial/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let result = server.events_until_done(&id).await.last().unwrap()["result"].clone();
    assert_eq!(result["submit_ok"], true, "{result}");
    assert!(
        result["claim_no"].as_str().unwrap().starts_with("BX"),
        "{result}"
    );
    let claims: Value = reqwest::get(format!("{}/api/claims", server.portal))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(claims["claims"].as_array().unwrap().len(), 1, "{claims}");
}

/// Slow uploads the test holds open at once, all from one address (loopback).
const SLOW_UPLOADS: usize = 300;
/// Bodies one address may send at once, in this test's configuration.
const PER_ADDRESS: usize = 8;
/// The service's open-file limit here: 300 slow uploads held as they once were (a socket and a
/// temp file each) would need more than this.
const FD_LIMIT: u64 = 512;
/// Body bytes a slow upload declares beyond its part's head: more than it will ever send.
const TRICKLE_DECLARED: usize = 2000;
/// Bytes a slow upload trickles at most, one a second: it stops by itself.
const TRICKLE_BYTES: usize = 30;

const TRICKLE_PREAMBLE: &str = "--XX\r\nContent-Disposition: form-data; name=\"file\"; \
     filename=\"slow.pdf\"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n";

/// One upload that trickles: its part's head and a PDF's first bytes at once, then a byte a
/// second (never idle for long) of a body that never ends, reading the answer meanwhile.
/// Returns the status, when the answer came and its `{error}`.
async fn trickle_upload(address: String, id: String) -> (u16, Duration, String) {
    let head = format!(
        "POST /api/upload/{id} HTTP/1.1\r\nHost: {address}\r\n\
         Content-Type: multipart/form-data; boundary=XX\r\nContent-Length: {}\r\n\r\n\
         {TRICKLE_PREAMBLE}",
        TRICKLE_PREAMBLE.len() + TRICKLE_DECLARED
    );
    let started = Instant::now();
    let mut stream = TcpStream::connect(&address).await.unwrap();
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut ticks = tokio::time::interval(Duration::from_secs(1));
    let (mut out, mut answered, mut sent) = (Vec::new(), None, 0);
    let mut buf = [0u8; 4096];
    let until = tokio::time::Instant::now() + Duration::from_secs(60);
    loop {
        tokio::select! {
            read = stream.read(&mut buf) => match read {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    answered.get_or_insert_with(|| started.elapsed());
                    out.extend_from_slice(&buf[..n]);
                }
            },
            _ = ticks.tick(), if answered.is_none() && sent < TRICKLE_BYTES => {
                sent += 1;
                if stream.write_all(b"x").await.is_err() {
                    sent = TRICKLE_BYTES;
                }
            },
            () = tokio::time::sleep_until(until) => break,
        }
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {text:?}"));
    let error = serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_owned))
        .unwrap_or_else(|| panic!("no {{error}} in {text:?}"));
    (status, answered.unwrap_or_default(), error)
}

/// The upload temp files in a session directory.
fn part_files(session_dir: &Path) -> usize {
    std::fs::read_dir(session_dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".part"))
        .count()
}

/// Requests without a body, as other users make them, with the slowest answer's time.
async fn normal_requests(server: &Server, client: &reqwest::Client, id: &str) -> Duration {
    let mut slowest = Duration::ZERO;
    for (method, path) in [
        (reqwest::Method::POST, "/api/session".to_owned()),
        (reqwest::Method::GET, format!("/api/files/{id}")),
        (reqwest::Method::GET, "/".to_owned()),
    ] {
        let started = Instant::now();
        let response = client
            .request(method, server.url(&path))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
        slowest = slowest.max(started.elapsed());
    }
    slowest
}

#[tokio::test]
async fn slow_uploads_are_bounded_per_address_and_cut_at_their_deadline() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("reimburse.toml"),
        format!(
            "[upload]\nmax_concurrent_per_address = {PER_ADDRESS}\n\
             deadline_base_secs = 4\nmin_rate_kib_per_sec = 1\n"
        ),
    )
    .unwrap();
    let server = common::start_with_fd_limit(dir.path(), FD_LIMIT);
    let pid = server.child.id();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let id = server.create_session(&client).await;
    let session_dir = dir.path().join("sessions").join(&id);
    eprintln!(
        "open files of the idle service: {}",
        common::open_files(pid)
    );
    let address = server.base.trim_start_matches("http://").to_owned();
    let uploads: Vec<_> = (0..SLOW_UPLOADS)
        .map(|_| tokio::spawn(trickle_upload(address.clone(), id.clone())))
        .collect();

    // While they trickle, other requests are answered, promptly.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        part_files(&session_dir),
        PER_ADDRESS,
        "uploads held at once"
    );
    let (mut slowest, mut most_files) = (Duration::ZERO, 0);
    for _ in 0..4 {
        slowest = slowest.max(normal_requests(&server, &client, &id).await);
        most_files = most_files.max(common::open_files(pid));
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    eprintln!(
        "during the slow uploads: slowest other request {slowest:?}, {most_files} open files"
    );
    assert!(slowest < Duration::from_secs(3), "{slowest:?}");

    let mut answers = Vec::new();
    for upload in uploads {
        answers.push(upload.await.unwrap());
    }
    let deadline = 4 + (TRICKLE_PREAMBLE.len() + TRICKLE_DECLARED).div_ceil(1024) as u64;
    let refused: Vec<_> = answers.iter().filter(|(s, _, _)| *s == 429).collect();
    let cut: Vec<_> = answers.iter().filter(|(s, _, _)| *s == 408).collect();
    assert_eq!(refused.len(), SLOW_UPLOADS - PER_ADDRESS, "{answers:?}");
    assert_eq!(cut.len(), PER_ADDRESS, "{answers:?}");
    let latest_refusal = refused.iter().map(|(_, at, _)| *at).max().unwrap();
    eprintln!(
        "the {} refusals came within {latest_refusal:?}",
        refused.len()
    );
    assert!(
        latest_refusal < Duration::from_secs(5),
        "{latest_refusal:?}"
    );
    assert_eq!(
        refused[0].2,
        format!("同一地址同时进行的上传过多（上限 {PER_ADDRESS} 个），请等待其他上传完成")
    );
    for (_, at, error) in cut {
        eprintln!("trickle cut after {at:?}: {error}");
        // By the total deadline, long before the 20 s idle timeout could.
        assert!(
            *at >= Duration::from_secs(deadline) && *at < Duration::from_secs(deadline + 5),
            "{at:?}"
        );
        assert!(
            error.contains(&format!("未能在 {deadline} 秒内传完")),
            "{error}"
        );
    }
    assert_eq!(part_files(&session_dir), 0, "temp files removed");
    // And the address may upload again.
    server
        .upload(
            &client,
            &id,
            "发票.pdf",
            fixture("digital_normal_single.pdf"),
        )
        .await;
}

/// LibreOffice entries in /tmp that would be this run's leftovers: temporary folders
/// (`lu*.tmp`) not there before, and pipe sockets no process listens on.
fn office_leftovers_in_tmp(before: &std::collections::HashSet<std::ffi::OsString>) -> Vec<String> {
    let mut left = Vec::new();
    for entry in std::fs::read_dir("/tmp").unwrap().flatten() {
        let name = entry.file_name();
        let text = name.to_string_lossy().into_owned();
        let temp_folder = text.starts_with("lu") && text.ends_with(".tmp");
        if temp_folder && !before.contains(&name) {
            left.push(text);
        } else if text.starts_with("OSL_PIPE_") {
            let stale = std::os::unix::net::UnixStream::connect(entry.path())
                .is_err_and(|e| e.kind() == std::io::ErrorKind::ConnectionRefused);
            if stale {
                left.push(text);
            }
        }
    }
    left
}

async fn save_a_document(server: &Server, client: &reqwest::Client) {
    let id = server.create_session(client).await;
    let rows = json!([{"序号": "1", "发票号码": "12345678", "开票日期": "2025/03/11",
        "项目名称": "*纸制品*A4复印纸", "价税合计": "255.00", "销售方名称": "某某文具店"}]);
    let response = client
        .post(server.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv", "data": rows}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["doc_ok"], true, "{body}");
}

#[tokio::test]
async fn libreoffice_leaves_nothing_in_tmp_after_a_stop_or_a_kill() {
    let before: std::collections::HashSet<_> = std::fs::read_dir("/tmp")
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let data = common::configured_data_dir(dir.path(), "");
    let client = reqwest::Client::new();

    // A graceful stop (SIGTERM) after a conversion.
    let mut server = start(&data);
    save_a_document(&server, &client).await;
    let status = std::process::Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(60);
    while server.child.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the service did not stop on SIGTERM"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let left = office_leftovers_in_tmp(&before);
    assert!(left.is_empty(), "after SIGTERM, in /tmp: {left:?}");

    // A kill -9 after a conversion, then a restart.
    let mut server = start(&data);
    save_a_document(&server, &client).await;
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let restarted = start(&data);
    let left = office_leftovers_in_tmp(&before);
    assert!(
        left.is_empty(),
        "after kill -9 and a restart, in /tmp: {left:?}"
    );
    drop(restarted);
}
