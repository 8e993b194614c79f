//! The real `reimburse serve` binary for tests: started on port 0 (and its demo portal too),
//! its address read from its log, its SSE read as a client reads it.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly; each test binary uses a part"
)]

use futures_util::StreamExt;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

pub struct Server {
    pub child: Child,
    pub base: String,
    pub portal: String,
    /// Every line the service logged so far (its stderr).
    pub log: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The address after `marker` in a log line: `http://127.0.0.1:PORT`.
fn address_after(line: &str, marker: &str) -> Option<String> {
    let rest = line.split(marker).nth(1)?;
    let address: String = rest
        .trim_start_matches("http://")
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ':')
        .collect();
    Some(format!("http://{}", address.trim_end_matches(':')))
}

/// Starts the binary with `--data-dir DATA_DIR` (as given: relative paths are relative to
/// `cwd`) and waits for both addresses in its log.
pub fn start_in(cwd: &Path, data_dir: &Path) -> Server {
    start_with(cwd, data_dir, &[])
}

/// Like [`start_in`] with more arguments for `serve`; with `--no-portal` among them only the
/// service's address is awaited.
pub fn start_with(cwd: &Path, data_dir: &Path, extra: &[&str]) -> Server {
    spawn(
        Command::new(env!("CARGO_BIN_EXE_reimburse")),
        cwd,
        data_dir,
        extra,
    )
}

/// Starts the binary on an absolute data dir with at most `fd_limit` open files (the soft
/// limit, lowered by the shell before it becomes the service): a small office machine's.
pub fn start_with_fd_limit(data_dir: &Path, fd_limit: u64) -> Server {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(format!("ulimit -n {fd_limit} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_reimburse"));
    spawn(command, data_dir, data_dir, &[])
}

fn spawn(mut command: Command, cwd: &Path, data_dir: &Path, extra: &[&str]) -> Server {
    command.arg("serve");
    // Loopback unless the test binds elsewhere.
    if !extra.contains(&"--addr") {
        command.args(["--addr", "127.0.0.1:0"]);
    }
    let mut child = command
        .args(["--portal-addr", "127.0.0.1:0", "--data-dir"])
        .arg(data_dir)
        .args(extra)
        .current_dir(cwd)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    let log = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let kept = std::sync::Arc::clone(&log);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(address) = address_after(&line, "listening on http://") {
                let _ = sender.send(("service", address));
            } else if let Some(address) = address_after(&line, "demo finance portal on ") {
                let _ = sender.send(("portal", address));
            }
            let mut kept = kept.lock().unwrap();
            kept.push_str(&line);
            kept.push('\n');
        }
    });
    let want_portal = !extra.contains(&"--no-portal");
    let (mut base, mut portal) = (None, None);
    while base.is_none() || (want_portal && portal.is_none()) {
        let (what, address) = receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("the server logs its addresses");
        match what {
            "service" => base = Some(address),
            _ => portal = Some(address),
        }
    }
    Server {
        child,
        base: base.unwrap_or_default(),
        portal: portal.unwrap_or_default(),
        log,
    }
}

/// Starts the binary on an absolute data dir.
pub fn start(data_dir: &Path) -> Server {
    start_in(data_dir, data_dir)
}

pub fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(workspace().join("fixtures/invoices").join(name)).unwrap()
}

pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `root/data` with a `reimburse.toml` naming the project's template and flow (found from any
/// working directory), `finance_lines` appended to its `[finance]` section.
pub fn configured_data_dir(root: &Path, finance_lines: &str) -> PathBuf {
    let data = root.join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("reimburse.toml"),
        format!(
            "[document]\ntemplate = {:?}\n[finance]\nflow = {:?}\n{finance_lines}\n",
            workspace().join("templates/易耗品出库单.docx"),
            workspace().join("flows/demo-portal.toml"),
        ),
    )
    .unwrap();
    data
}

/// Writes `data_dir/reimburse.toml` (creating the folder), which `serve` and `user` read.
pub fn write_config(data_dir: &Path, toml: &str) {
    std::fs::create_dir_all(data_dir).unwrap();
    std::fs::write(data_dir.join("reimburse.toml"), toml).unwrap();
}

/// The JSON body of a request's answer.
pub async fn json_of(request: reqwest::RequestBuilder) -> serde_json::Value {
    request.send().await.unwrap().json().await.unwrap()
}

impl Server {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn create_session(&self, client: &reqwest::Client) -> String {
        let created: serde_json::Value = client
            .post(self.url("/api/session"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        created["session_id"].as_str().unwrap().to_owned()
    }

    pub async fn upload(&self, client: &reqwest::Client, id: &str, name: &str, bytes: Vec<u8>) {
        let part = reqwest::multipart::Part::bytes(bytes).file_name(name.to_owned());
        let response = client
            .post(self.url(&format!("/api/upload/{id}")))
            .multipart(reqwest::multipart::Form::new().part("file", part))
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.status(),
            200,
            "{name}: {}",
            response.text().await.unwrap()
        );
    }

    /// Every event of the session's current run, up to and including `done`.
    pub async fn events_until_done(&self, id: &str) -> Vec<serde_json::Value> {
        events_until_done_at(&self.base, id).await
    }
}

/// Every event of the current run of session `id` of the service at `base`, up to `done`.
pub async fn events_until_done_at(base: &str, id: &str) -> Vec<serde_json::Value> {
    events_until_done_as(&reqwest::Client::new(), base, id).await
}

/// Like [`events_until_done_at`], asked by `client` (one that carries a sign-in).
pub async fn events_until_done_as(
    client: &reqwest::Client,
    base: &str,
    id: &str,
) -> Vec<serde_json::Value> {
    let response = client
        .get(format!("{base}/api/logs/{id}"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let mut body = response.bytes_stream();
    let mut pending = String::new();
    let mut events = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(300);
    loop {
        let chunk = tokio::time::timeout_at(deadline, body.next())
            .await
            .expect("done within 300 s");
        let Some(chunk) = chunk else { return events };
        pending.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
        while let Some(end) = pending.find("\n\n") {
            let frame: String = pending.drain(..end + 2).collect();
            for line in frame.lines() {
                if let Some(data) = line.strip_prefix("data:")
                    && let Ok(event) = serde_json::from_str::<serde_json::Value>(data.trim())
                {
                    let done = event["type"] == "done";
                    events.push(event);
                    if done {
                        return events;
                    }
                }
            }
        }
    }
}

/// How many files a process has open.
pub fn open_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .map(|dir| dir.count())
        .unwrap_or(0)
}

/// Resident memory high-water mark of a process, in bytes (VmHWM in /proc/PID/status).
pub fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM in /proc/PID/status");
    let kib: u64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap();
    kib * 1024
}
