//! A data dir whose disk fills up, against the real binary: every job still ends with `done`
//! (ok=false, saying the disk is full) within seconds, nothing half-written is left in the
//! session, a save is refused plainly, and the service works again once space returns.
//!
//! The data dir is a small tmpfs mounted for the test, so the test needs root (as CI and
//! `cargo xtask test` run); without it the test fails and says so.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Server, fixture, start, workspace};
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmpfs mounted for the test, unmounted when dropped.
struct Tmpfs {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Tmpfs {
    fn mount(mib: u64) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={mib}m"), "tmpfs"])
            .arg(dir.path())
            .status()
            .expect("mount runs");
        assert!(
            status.success(),
            "cannot mount a tmpfs for the full-disk test ({status}): it needs root, as CI has"
        );
        Self {
            path: dir.path().to_path_buf(),
            _dir: dir,
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.path).status();
    }
}

/// Fills the disk under `dir` to the last byte with one file; returns its path. Called again
/// before each job: a job that meets the full disk frees the service's reserve so it can end
/// cleanly, and the next job must not find that room.
fn fill(dir: &Path) -> PathBuf {
    let path = dir.join("filler");
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .unwrap();
    for size in [1 << 20, 64 << 10, 4 << 10, 512, 1] {
        let block = vec![0u8; size];
        while file.write_all(&block).is_ok() {}
    }
    path
}

fn config() -> Value {
    json!({"username": "100001", "password": "demo123", "default_name": "张三",
           "consumable_storage": "实验楼 301"})
}

/// Starts a job and returns its `done` result and how long it took to come.
async fn job(server: &Server, path: &str, body: Value) -> (Value, Duration) {
    let started = Instant::now();
    let response = reqwest::Client::new()
        .post(server.url(path))
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = response.status();
    assert_eq!(status, 200, "{path}: {}", response.text().await.unwrap());
    let id = path.rsplit('/').next().unwrap();
    let events = server.events_until_done(id).await;
    (events.last().unwrap()["result"].clone(), started.elapsed())
}

/// Nothing in the session is half-written: no temp files, every JSON and CSV parses, every
/// log ends with a whole line.
fn assert_whole(session: &Path) {
    // The job's last bookkeeping write (.run.json) may still be under way just after `done`.
    let temp = |name: &str| name.starts_with(".tmp-") || name.ends_with(".part");
    let deadline = Instant::now() + Duration::from_secs(2);
    while Instant::now() < deadline
        && std::fs::read_dir(session)
            .unwrap()
            .flatten()
            .any(|e| temp(&e.file_name().to_string_lossy()))
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    for entry in std::fs::read_dir(session).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        assert!(!temp(&name), "temp file left: {name}");
        if !path.is_file() {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        if name.ends_with(".json") {
            serde_json::from_slice::<Value>(&bytes)
                .unwrap_or_else(|e| panic!("{name} is not whole JSON: {e}"));
        } else if name.ends_with(".csv") {
            let mut reader = csv::Reader::from_reader(bytes.as_slice());
            for record in reader.records() {
                record.unwrap_or_else(|e| panic!("{name} is not whole CSV: {e}"));
            }
        } else if name.ends_with(".log") {
            assert!(
                bytes.is_empty() || bytes.ends_with(b"\n"),
                "{name} ends in half a line"
            );
        } else if name.ends_with(".png") {
            assert!(
                bytes.ends_with(&[0xAE, 0x42, 0x60, 0x82]),
                "{name} is cut short"
            );
        }
    }
}

fn says_disk_full(text: &str) -> bool {
    text.contains("磁盘空间不足")
}

#[tokio::test]
async fn a_full_disk_ends_every_job_cleanly_and_the_service_recovers() {
    let disk = Tmpfs::mount(48);
    let data = disk.path.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("reimburse.toml"),
        format!(
            "[document]\ntemplate = {:?}\n",
            workspace().join("templates/易耗品出库单.docx")
        ),
    )
    .unwrap();
    let server = start(&data);
    let client = reqwest::Client::new();
    let id = server.create_session(&client).await;
    for name in ["digital_normal_single.pdf", "digital_normal_multi.pdf"] {
        server.upload(&client, &id, name, fixture(name)).await;
    }
    let session = data.join("sessions").join(&id);
    let filler = fill(&disk.path);

    let (result, took) = job(&server, &format!("/api/process/{id}"), config()).await;
    assert_eq!(result["ok"], false, "{result}");
    assert!(says_disk_full(&result.to_string()), "{result}");
    assert!(
        took < Duration::from_secs(30),
        "process took {took:?} to end"
    );
    assert_whole(&session);

    fill(&disk.path);
    let (result, took) = job(&server, &format!("/api/agent/process/{id}"), config()).await;
    assert_eq!(result["ok"], false, "{result}");
    assert!(says_disk_full(&result.to_string()), "{result}");
    assert!(
        took < Duration::from_secs(30),
        "the agent took {took:?} to end"
    );
    let state: Value = reqwest::get(server.url(&format!("/api/agent/state/{id}")))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(state["state"], "error", "{state}");
    assert!(
        says_disk_full(state["error_message"].as_str().unwrap()),
        "{state}"
    );
    assert_whole(&session);

    fill(&disk.path);
    let rows = json!([{"序号": "1", "发票号码": "12345678", "开票日期": "2025/03/11",
        "项目名称": "*纸制品*A4复印纸", "价税合计": "255.00", "销售方名称": "某某文具店"}]);
    let save = client
        .post(server.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv", "data": rows}))
        .send()
        .await
        .unwrap();
    let status = save.status();
    let body: Value = save.json().await.unwrap();
    assert_eq!(status, 507, "{body}");
    assert!(says_disk_full(body["error"].as_str().unwrap()), "{body}");
    assert!(
        !body.to_string().contains(&data.display().to_string()),
        "{body}"
    );
    assert_whole(&session);

    // Space returns: the same session works again, and the reserve is back.
    std::fs::remove_file(filler).unwrap();
    let (result, _) = job(&server, &format!("/api/process/{id}"), config()).await;
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["doc_ok"], true, "{result}");
    assert_whole(&session);
    let reserve = std::fs::read_dir(data.join(".reserve")).unwrap().count();
    assert_eq!(reserve, 8, "the reserve is topped up again");
}
