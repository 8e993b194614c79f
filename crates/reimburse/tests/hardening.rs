//! The real binary under hostile and careless use: image bombs, a crash in the middle of a
//! save, a relative data dir (the README's `cargo xtask run`).

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
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("reimburse.toml"),
        format!(
            "[document]\ntemplate = {:?}\n",
            common::workspace().join("templates/易耗品出库单.docx")
        ),
    )
    .unwrap();
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
