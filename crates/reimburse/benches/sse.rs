//! SSE latency and idle memory of the real `reimburse serve` (a documented harness, not criterion).
//!
//! Starts the release binary, measures its idle RSS, opens 100 SSE streams on one session,
//! appends 200 lines to session.log at 20 ms intervals, and reports the latency from each
//! append to each client reading the line: p50, p99, max over 20 000 samples.
//! Run with `cargo xtask bench sse`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test and bench code: a failed step should abort loudly"
)]

use futures_util::StreamExt;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod common;
use common::ReleaseServer;

const STREAMS: usize = 100;
const LINES: usize = 200;
const INTERVAL: Duration = Duration::from_millis(20);

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

#[tokio::main]
async fn main() {
    let server = ReleaseServer::start().await;
    let (base, client) = (server.base.clone(), server.client.clone());
    let session_id = server.new_session().await;
    // Let start-up settle (the LibreOffice warm-up runs in a child process of its own).
    tokio::time::sleep(Duration::from_secs(4)).await;
    let idle_rss = rss_kib(server.child.id());

    let sent: Arc<Mutex<Vec<Option<Instant>>>> = Arc::new(Mutex::new(vec![None; LINES]));
    let latencies: Arc<Mutex<Vec<Duration>>> = Arc::new(Mutex::new(Vec::new()));
    let mut readers = Vec::new();
    for _ in 0..STREAMS {
        let response = client
            .get(format!("{base}/api/logs/{session_id}"))
            .header("Accept", "text/event-stream")
            .send()
            .await
            .unwrap();
        let sent = Arc::clone(&sent);
        let latencies = Arc::clone(&latencies);
        readers.push(tokio::spawn(async move {
            let mut body = response.bytes_stream();
            let mut buffer: Vec<u8> = Vec::new();
            while let Some(Ok(chunk)) = body.next().await {
                let now = Instant::now();
                buffer.extend_from_slice(&chunk);
                while let Some(end) = buffer.windows(2).position(|w| w == b"\n\n") {
                    let frame: Vec<u8> = buffer.drain(..end + 2).collect();
                    let frame = String::from_utf8_lossy(&frame);
                    let Some(data) = frame.lines().find_map(|l| l.strip_prefix("data: ")) else {
                        continue;
                    };
                    let event: serde_json::Value = serde_json::from_str(data).unwrap();
                    if event["type"] == "done" {
                        return;
                    }
                    let Some(seq) = event["message"]
                        .as_str()
                        .and_then(|m| m.strip_prefix("seq "))
                    else {
                        continue;
                    };
                    let seq: usize = seq.parse().unwrap();
                    if let Some(at) = sent.lock().unwrap()[seq] {
                        latencies.lock().unwrap().push(now.duration_since(at));
                    }
                }
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let session_dir = server.data_dir.path().join("sessions").join(&session_id);
    let log_path = session_dir.join("session.log");
    for seq in 0..LINES {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .unwrap();
        let line = format!("2026-01-01T00:00:00.000Z INFO bench: seq {seq}\n");
        sent.lock().unwrap()[seq] = Some(Instant::now());
        file.write_all(line.as_bytes()).unwrap();
        drop(file);
        tokio::time::sleep(INTERVAL).await;
    }
    let busy_rss = rss_kib(server.child.id());
    std::fs::write(session_dir.join("result.json"), r#"{"ok":true}"#).unwrap();
    for reader in readers {
        let _ = tokio::time::timeout(Duration::from_secs(10), reader).await;
    }
    drop(server);

    let mut samples = latencies.lock().unwrap().clone();
    samples.sort();
    assert_eq!(
        samples.len(),
        STREAMS * LINES,
        "every stream must receive every line"
    );
    let p50 = percentile(&samples, 0.50);
    let p99 = percentile(&samples, 0.99);
    let max = samples[samples.len() - 1];
    println!(
        "sse latency over {} samples ({STREAMS} streams x {LINES} lines):",
        samples.len()
    );
    println!(
        "  p50 {:.2} ms   p99 {:.2} ms   max {:.2} ms",
        ms(p50),
        ms(p99),
        ms(max)
    );
    println!(
        "  targets: p50 <= 20 ms, p99 <= 100 ms -> {}",
        verdict(p50 <= Duration::from_millis(20) && p99 <= Duration::from_millis(100))
    );
    println!(
        "rss: idle {:.1} MiB (target <= 30 MiB -> {}), with {STREAMS} streams {:.1} MiB",
        idle_rss as f64 / 1024.0,
        verdict(idle_rss <= 30 * 1024),
        busy_rss as f64 / 1024.0
    );
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "MISSED" }
}
