//! GET /api/logs: lines arrive as appended, `done` ends the stream, runs, resumption.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "test and bench code: a failed step should abort loudly"
)]

mod common;

use common::{Options, spawn_app, spawn_app_with};
use domain::{Event, FileStatus, LlmPhase};
use reimburse_http_api::SseSettings;
use serde_json::json;
use std::io::Write;
use std::time::Duration;

fn append(path: &std::path::Path, line: &str) {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    writeln!(file, "{line}").unwrap();
}

#[tokio::test]
async fn lines_arrive_as_they_are_appended_and_done_closes_the_stream() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let session = app.session(&id);
    let mut stream = app.open_stream(&id, None).await;

    session
        .log("INFO", "extractor", "开始提取 2 个文件")
        .unwrap();
    let first = stream.next_event().await.unwrap();
    assert_eq!(first.data["type"], "log");
    assert_eq!(first.data["module"], "extractor");
    assert_eq!(first.data["level"], "INFO");
    assert_eq!(first.data["message"], "开始提取 2 个文件");
    assert!(first.id.is_some());

    let progress = Event::FileProgress {
        file: "发票.pdf".into(),
        status: FileStatus::Done,
        summary: Some("146.00".into()),
        error: None,
    };
    session.emit(&progress).unwrap();
    let second = stream.next_event().await.unwrap();
    assert_eq!(second.data, serde_json::to_value(&progress).unwrap());

    // An event line is passed on as it is, even fields we do not model.
    append(
        &session.log_path(session_store::LogFile::AgentEvents),
        r#"{"type":"agent_ready","round":1,"message":"ok","extra":1}"#,
    );
    let third = stream.next_event().await.unwrap();
    assert_eq!(third.data["extra"], 1);

    session
        .finish_run(&json!({"ok": true, "invoice_count": 2}))
        .unwrap();
    let done = stream.next_event().await.unwrap();
    assert_eq!(
        done.data,
        json!({"type": "done", "result": {"ok": true, "invoice_count": 2}})
    );
    assert!(
        stream.next_event().await.is_none(),
        "the stream closes after done"
    );
}

#[tokio::test]
async fn a_late_client_gets_the_whole_current_run_in_order_then_done() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let session = app.session(&id);
    session.log("INFO", "pipeline", "上一次运行").unwrap();
    session
        .finish_run(&json!({"ok": false, "error": "old"}))
        .unwrap();

    let (release, wait) = std::sync::mpsc::channel::<()>();
    app.state
        .jobs
        .start(session.clone(), "test", move |session| {
            session.log("INFO", "pipeline", "本次运行").unwrap();
            for n in 0..20 {
                let chunk = Event::LlmStream {
                    phase: LlmPhase::Chunk,
                    text: Some(format!("{n}")),
                };
                session.emit(&chunk).unwrap();
            }
            let _ = wait.recv();
            json!({"ok": true, "run": "new"})
        })
        .unwrap();
    // The old result.json is gone as soon as the run starts, so no stream ends on it.
    assert!(session.read_result().unwrap().is_none());
    tokio::time::sleep(Duration::from_millis(100)).await;
    release.send(()).unwrap();
    let mut stream = app.open_stream(&id, None).await;
    let events = stream.collect_until_closed().await;
    let messages: Vec<_> = events
        .iter()
        .filter(|e| e.data["type"] == "log")
        .map(|e| e.data["message"].clone())
        .collect();
    assert_eq!(messages, vec![json!("本次运行")], "only the current run");
    let chunks: Vec<_> = events
        .iter()
        .filter(|e| e.data["type"] == "llm_stream")
        .map(|e| e.data["text"].clone())
        .collect();
    assert_eq!(
        chunks,
        (0..20).map(|n| json!(n.to_string())).collect::<Vec<_>>()
    );
    assert_eq!(events.last().unwrap().data["result"]["run"], "new");
}

#[tokio::test]
async fn last_event_id_resumes_after_the_last_seen_event() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let session = app.session(&id);
    for n in 0..3 {
        session.log("INFO", "bot", &format!("line {n}")).unwrap();
    }
    let mut stream = app.open_stream(&id, None).await;
    let first = stream.next_event().await.unwrap();
    assert_eq!(first.data["message"], "line 0");
    drop(stream);
    session.log("INFO", "bot", "line 3").unwrap();
    session.finish_run(&json!({"ok": true})).unwrap();
    let mut resumed = app.open_stream(&id, first.id.as_deref()).await;
    let events = resumed.collect_until_closed().await;
    let messages: Vec<_> = events
        .iter()
        .filter_map(|e| e.data["message"].as_str())
        .collect();
    assert_eq!(messages, ["line 1", "line 2", "line 3"]);
    assert_eq!(events.last().unwrap().data["type"], "done");
}

#[tokio::test]
async fn a_panicking_job_ends_the_stream_with_a_failure_result() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let mut stream = app.open_stream(&id, None).await;
    app.state
        .jobs
        .start(app.session(&id), "test", |_| panic!("extractor exploded"))
        .unwrap();
    let events = stream.collect_until_closed().await;
    let done = events.last().unwrap();
    assert_eq!(done.data["type"], "done");
    assert_eq!(done.data["result"]["ok"], false);
    assert!(
        done.data["result"]["error"]
            .as_str()
            .unwrap()
            .contains("extractor exploded")
    );
}

#[tokio::test]
async fn the_stream_times_out() {
    let app = spawn_app_with(Options {
        sse: SseSettings {
            timeout: Duration::from_millis(300),
            ..SseSettings::default()
        },
        ..Options::default()
    })
    .await;
    let id = app.create_session().await;
    let mut stream = app.open_stream(&id, None).await;
    assert!(stream.next_event().await.is_none());
}

#[tokio::test]
async fn many_streams_of_one_session_all_receive_every_line() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let mut streams = Vec::new();
    for _ in 0..10 {
        streams.push(app.open_stream(&id, None).await);
    }
    let session = app.session(&id);
    session.log("INFO", "agent", "一").unwrap();
    session.finish_run(&json!({"ok": true})).unwrap();
    for mut stream in streams {
        let events = stream.collect_until_closed().await;
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].data["message"], "一");
    }
}
