//! The whole agent flow on the real `reimburse serve`, no LLM: 20 general invoices and 20
//! payment screenshots, `POST /api/agent/process` to the claim number in the demo portal (a
//! force submit where the agent asks), timed end to end and by phase (a documented harness,
//! not criterion).
//!
//! The release binary in its default set-up (demo portal, warm LibreOffice); per run a new
//! session with distinct generated 数电 invoices (`invoice_fixtures::office_supply_batch`, a
//! seed per run so the portal files each claim) and the screenshot fixtures of every screen
//! type, uploaded untimed. The phases come from the session's own log (session.log
//! timestamps): extraction, screenshots read, matching, the document, the browser submission.
//! Run with `cargo xtask bench agent`; `RUNS=N` sets the runs (default 3), `INVOICES=N` /
//! `SCREENSHOTS=N` the files (default 20 each). Target: 15 s to the claim number.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "bench code: a failed step should abort loudly"
)]

mod common;

use common::{ReleaseServer, screenshots};
use futures_util::StreamExt;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn count(variable: &str, default: usize) -> usize {
    std::env::var(variable)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

impl ReleaseServer {
    /// Posts `path` and reads the session's stream until `done`; returns its result.
    async fn run_job(&self, path: &str, body: &Value, id: &str) -> Value {
        let response = self
            .client
            .post(format!("{}{path}", self.base))
            .json(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "{path}");
        let stream = self
            .client
            .get(format!("{}/api/logs/{id}", self.base))
            .send()
            .await
            .unwrap();
        let mut body = stream.bytes_stream();
        let mut buffer = String::new();
        while let Some(chunk) = body.next().await {
            buffer.push_str(&String::from_utf8_lossy(&chunk.unwrap()));
            while let Some(end) = buffer.find("\n\n") {
                let frame: String = buffer.drain(..end + 2).collect();
                for data in frame.lines().filter_map(|l| l.strip_prefix("data:")) {
                    if let Ok(event) = serde_json::from_str::<Value>(data.trim())
                        && event["type"] == "done"
                    {
                        return event["result"].clone();
                    }
                }
            }
        }
        panic!("the stream closed without `done`");
    }
}

/// A session.log line: seconds since midnight (UTC), module and message.
fn parse_line(line: &str) -> Option<(f64, &str, &str)> {
    let (time, rest) = line.split_once(' ')?;
    let clock = time.split_once('T')?.1.trim_end_matches('Z');
    let mut parts = clock.split(':');
    let (h, m, s): (f64, f64, f64) = (
        parts.next()?.parse().ok()?,
        parts.next()?.parse().ok()?,
        parts.next()?.parse().ok()?,
    );
    let (_level, rest) = rest.split_once(' ')?;
    let (module, message) = rest.split_once(": ")?;
    Some((h * 3600.0 + m * 60.0 + s, module, message))
}

/// The phases of a run from the session's log: (name, seconds), each from the line that opens
/// it to the line that closes it.
fn phases(log: &str) -> Vec<(&'static str, f64)> {
    let lines: Vec<(f64, &str, &str)> = log.lines().filter_map(parse_line).collect();
    let first = |pred: &dyn Fn(&str, &str) -> bool| {
        lines
            .iter()
            .find(|(_, m, t)| pred(m, t))
            .map(|(s, _, _)| *s)
    };
    let last = |pred: &dyn Fn(&str, &str) -> bool| {
        lines
            .iter()
            .rev()
            .find(|(_, m, t)| pred(m, t))
            .map(|(s, _, _)| *s)
    };
    let span = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(a), Some(b)) if b >= a => b - a,
        _ => f64::NAN,
    };
    let start = first(&|m, t| m == "agent" && t.starts_with("开始 Agent"));
    let extracted = first(&|m, t| m == "pipeline" && t.starts_with("提取完成"));
    let ocr_start = first(&|m, _| m == "llm_extractor");
    let ocr_end = last(&|m, _| m == "llm_extractor");
    let matched = last(&|m, _| m == "matcher");
    let doc = last(&|m, _| m == "docgen");
    let submit_start = first(&|m, t| m == "bot" && t.starts_with("开始提交"));
    let submit_end = last(&|m, _| m == "bot");
    vec![
        ("extraction", span(start, extracted)),
        ("screenshots (OCR)", span(ocr_start, ocr_end)),
        ("matching", span(ocr_end, matched)),
        ("document", span(matched, doc)),
        ("validation until submit", span(doc, submit_start)),
        ("browser submission", span(submit_start, submit_end)),
    ]
}

#[tokio::main]
async fn main() {
    let runs = count("RUNS", 3).max(1);
    let (invoices, shots) = (count("INVOICES", 20).max(1), count("SCREENSHOTS", 20));
    let server = ReleaseServer::start().await;
    // Start-up settles (the LibreOffice warm-up) as it would while a person uploads 40 files.
    tokio::time::sleep(Duration::from_secs(5)).await;
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    println!(
        "agent flow: {invoices} invoices + {shots} screenshots, no LLM, {cores} cores, {runs} runs"
    );
    let config = json!({"username": "100001", "password": "demo123", "default_name": "张三",
                        "consumable_storage": "实验楼 301", "default_card_no": "6217000011112222"});
    let mut totals = Vec::new();
    for run in 1..=runs {
        let seed = format!("bench-agent-{}-{run}", std::process::id());
        let mut files: Vec<(String, Vec<u8>)> =
            invoice_fixtures::office_supply_batch(&seed, invoices)
                .into_iter()
                .map(|f| (f.file_name, f.bytes))
                .collect();
        files.extend(screenshots(shots));
        let id = server.session_with_files(&files).await;
        let started = Instant::now();
        let mut result = server
            .run_job(&format!("/api/agent/process/{id}"), &config, &id)
            .await;
        let round = started.elapsed();
        let forced = result["agent_state"] == "awaiting_supplement";
        if forced {
            result = server
                .run_job(&format!("/api/agent/force-submit/{id}"), &json!({}), &id)
                .await;
        }
        let total = started.elapsed();
        assert_eq!(result["submit_ok"], true, "{result}");
        let log = std::fs::read_to_string(
            server
                .data_dir
                .path()
                .join("sessions")
                .join(&id)
                .join("session.log"),
        )
        .unwrap();
        let breakdown: Vec<String> = phases(&log)
            .iter()
            .map(|(name, secs)| format!("{name} {secs:.2} s"))
            .collect();
        println!(
            "run {run}: {:.2} s to claim {} (first round {:.2} s{}); {}",
            total.as_secs_f64(),
            result["claim_no"].as_str().unwrap_or("?"),
            round.as_secs_f64(),
            if forced { ", then force submit" } else { "" },
            breakdown.join(", ")
        );
        totals.push(total);
    }
    totals.sort();
    println!(
        "median {:.2} s, slowest {:.2} s to the claim number (target 15 s)",
        totals[totals.len() / 2].as_secs_f64(),
        totals[totals.len() - 1].as_secs_f64()
    );
}
