//! POST /api/process on the real `reimburse serve` with 20 invoices and 20 payment screenshots,
//! no LLM (a documented harness, not criterion).
//!
//! Starts the release binary in its default set-up (demo portal, warm LibreOffice), waits for
//! start-up to settle, then per run: a new session, 20 distinct generated 数电 invoices
//! (`invoice_fixtures::office_supply_batch`) and 20 committed screenshot fixtures of every
//! screen type uploaded (not timed), and the time from POST /api/process to the `done` event
//! read from the SSE stream. A last run repeats the process on the same session, where every
//! file comes from the session's cache. Run with `cargo xtask bench process`; `RUNS=N` sets
//! the number of fresh runs (default 3), `INVOICES=N` / `SCREENSHOTS=N` the files per run
//! (default 20 each), and `THREADS=1` adds one run that lists the CPU time each server thread used in it.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "bench code: a failed step should abort loudly"
)]

use futures_util::StreamExt;
use serde_json::Value;
use std::path::PathBuf;
mod common;
use common::{ReleaseServer, screenshots};
use std::time::{Duration, Instant};

/// How many of each to upload: 20 unless `INVOICES` / `SCREENSHOTS` say otherwise (to see
/// where the time goes).
fn count(variable: &str) -> usize {
    std::env::var(variable)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

impl ReleaseServer {
    /// Starts processing and waits for `done` on the SSE stream; returns the wall time and
    /// the result.
    async fn process(&self, id: &str) -> (Duration, Value) {
        let started = Instant::now();
        let response = self
            .client
            .post(format!("{}/api/process/{id}", self.base))
            .json(
                &serde_json::json!({"default_card_no": "6217000011112222", "default_name": "张三"}),
            )
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let stream = self
            .client
            .get(format!("{}/api/logs/{id}", self.base))
            .header("Accept", "text/event-stream")
            .send()
            .await
            .unwrap();
        let mut body = stream.bytes_stream();
        let mut buffer = String::new();
        while let Some(chunk) = body.next().await {
            buffer.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
            while let Some(end) = buffer.find("\n\n") {
                let frame: String = buffer.drain(..end + 2).collect();
                for line in frame.lines() {
                    let Some(data) = line.strip_prefix("data:") else {
                        continue;
                    };
                    let Ok(event) = serde_json::from_str::<Value>(data.trim()) else {
                        continue;
                    };
                    if event["type"] == "done" {
                        return (started.elapsed(), event["result"].clone());
                    }
                }
            }
        }
        panic!("the stream closed without `done`");
    }
}

/// CPU seconds the server process has used (user + system), from /proc; 0 elsewhere.
/// Load-independent, unlike wall time: on an idle machine with N cores a run's wall time is
/// about its CPU time over N plus the parts that do not run in parallel.
fn cpu_secs(pid: u32) -> f64 {
    stat_cpu_secs(&PathBuf::from(format!("/proc/{pid}")))
}

/// User + system CPU seconds from `<dir>/stat`: a process or one of its threads
/// (`/proc/<pid>/task/<tid>`); 0 where it cannot be read.
fn stat_cpu_secs(dir: &std::path::Path) -> f64 {
    let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of stat; here 11 and 12 (0-based, after the name).
    (ticks(11) + ticks(12)) / 100.0
}

/// Each live thread's name and CPU seconds so far, by thread id.
fn thread_cpu(pid: u32) -> std::collections::BTreeMap<u32, (String, f64)> {
    let mut threads = std::collections::BTreeMap::new();
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).unwrap() {
        let path = task.unwrap().path();
        let name = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        let tid: u32 = path.file_name().unwrap().to_string_lossy().parse().unwrap();
        threads.insert(tid, (name.trim().to_owned(), stat_cpu_secs(&path)));
    }
    threads
}

fn report(label: &str, elapsed: Duration, cpu: f64, result: &Value) {
    println!(
        "{label}: {:.2} s, server CPU {cpu:.2} s (server says {}), invoices {}, payments {}, matched {}, doc_ok {}",
        elapsed.as_secs_f64(),
        result["elapsed"],
        result["invoice_count"],
        result["payment_count"],
        result["matched"],
        result["doc_ok"],
    );
}

#[tokio::main]
async fn main() {
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3)
        .max(1);
    let (invoices, shots) = (count("INVOICES").max(1), count("SCREENSHOTS"));
    let mut files: Vec<(String, Vec<u8>)> =
        invoice_fixtures::office_supply_batch("bench", invoices)
            .into_iter()
            .map(|f| (f.file_name, f.bytes))
            .collect();
    files.extend(screenshots(shots));

    let server = ReleaseServer::start().await;
    let child_id = server.child.id();
    // Let start-up settle: the LibreOffice warm-up runs in a child process of its own, as it
    // has long finished by the time a user has uploaded 40 files.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!("{invoices} invoices + {shots} screenshots, no LLM, {cores} cores, {runs} runs");

    let mut times = Vec::new();
    let mut last_session = String::new();
    for run in 1..=runs {
        let id = server.session_with_files(&files).await;
        let cpu = cpu_secs(child_id);
        let (elapsed, result) = server.process(&id).await;
        let cpu = cpu_secs(child_id) - cpu;
        assert_eq!(result["ok"], true, "{result}");
        assert_eq!(result["invoice_count"], invoices, "{result}");
        if shots > 0 {
            assert_eq!(result["payment_count"], shots, "{result}");
        }
        assert_eq!(result["doc_ok"], true, "{result}");
        report(&format!("run {run}"), elapsed, cpu, &result);
        times.push(elapsed);
        last_session = id;
    }
    let cpu = cpu_secs(child_id);
    let (elapsed, result) = server.process(&last_session).await;
    let cpu = cpu_secs(child_id) - cpu;
    report("same session again (cached)", elapsed, cpu, &result);
    times.sort();
    println!(
        "median {:.2} s, slowest {:.2} s (target 10 s)",
        times[times.len() / 2].as_secs_f64(),
        times[times.len() - 1].as_secs_f64()
    );
    if std::env::var_os("THREADS").is_some() {
        // One more fresh run, with every thread's CPU before and after it: what the threads
        // that ended meanwhile (the OCR workers) used is the process's total minus the rest.
        let id = server.session_with_files(&files).await;
        let before = thread_cpu(child_id);
        let total_before = cpu_secs(child_id);
        let _ = server.process(&id).await;
        let total = cpu_secs(child_id) - total_before;
        let after = thread_cpu(child_id);
        let mut surviving = 0.0;
        println!("threads during one fresh run (server CPU {total:.2} s):");
        for (tid, (name, secs)) in &after {
            let used = secs - before.get(tid).map_or(0.0, |(_, s)| *s);
            surviving += used;
            if used >= 0.01 {
                println!("  thread {tid} {name} {used:.2} s");
            }
        }
        println!(
            "  threads that ended during the run: {:.2} s",
            total - surviving
        );
    }
}
