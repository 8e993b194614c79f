//! SSE framing as the client meets it on the wire: bytes split anywhere, CRLF, comments,
//! fields other than `data:`, multi-line data, an error inside the stream. These were unit
//! tests of the hand-written decoder; the decoding is async-openai's now, so they run
//! through the whole client against a server that writes exactly the given bytes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

use domain::LlmPhase::{Chunk, End, Error, Start};
use reimburse_llm::testing::ScriptedServer;
use reimburse_llm::{ChatRequest, Client, CollectSink, LlmConfig, LlmError};
use std::io::{Read, Write};
use std::time::Duration;

/// A server for one request that answers `200 text/event-stream` and writes `pieces` one
/// write each (with `pause` before each), then closes the connection.
fn raw_sse_server(pieces: Vec<Vec<u8>>, pause: Duration) -> String {
    slow_head_sse_server(Duration::ZERO, pieces, pause)
}

/// [`raw_sse_server`] that waits `head_delay` before the response head.
fn slow_head_sse_server(head_delay: Duration, pieces: Vec<Vec<u8>>, pause: Duration) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let (mut socket, _) = listener.accept().unwrap();
        socket.set_nodelay(true).unwrap();
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        // The request body is JSON; it is complete at its closing brace.
        while !seen.ends_with(b"}") {
            let n = socket.read(&mut buf).unwrap();
            if n == 0 {
                return;
            }
            seen.extend_from_slice(&buf[..n]);
        }
        std::thread::sleep(head_delay);
        let head =
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n";
        socket.write_all(head.as_bytes()).unwrap();
        for piece in pieces {
            std::thread::sleep(pause);
            if socket.write_all(&piece).is_err() {
                return;
            }
        }
    });
    url
}

fn config(base_url: String) -> LlmConfig {
    let mut config = LlmConfig {
        base_url,
        ..ScriptedServer::start(vec![]).unwrap().config()
    };
    config.max_retries = 0;
    config
}

fn chat(config: LlmConfig) -> (Result<reimburse_llm::ChatResponse, LlmError>, CollectSink) {
    let mut sink = CollectSink::default();
    let result = Client::new(config)
        .unwrap()
        .chat(ChatRequest::text("x"), &mut sink);
    (result, sink)
}

fn content(text: &str) -> String {
    serde_json::json!({"choices": [{"index": 0, "delta": {"content": text}}]}).to_string()
}

const STOP: &str = r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#;

#[test]
fn lines_split_across_writes_byte_by_byte() {
    let stream = format!(
        "data: {}\r\n\r\n: keep-alive\n\ndata: {STOP}\n\ndata:[DONE]\n\n",
        content("hello")
    );
    let pieces = stream.bytes().map(|b| vec![b]).collect();
    let (result, sink) = chat(config(raw_sse_server(pieces, Duration::ZERO)));
    assert_eq!(result.unwrap().content, "hello");
    assert_eq!(
        sink.phases(),
        vec![(Start, None), (Chunk, Some("hello".into())), (End, None)]
    );
}

#[test]
fn multibyte_character_split_across_writes() {
    let stream = format!("data: {}\n\ndata: {STOP}\n\n", content("发票金额"));
    let bytes = stream.as_bytes();
    // Cut inside the first Chinese character (3 bytes in UTF-8).
    let cut = bytes.iter().position(|&b| b >= 0x80).unwrap() + 1;
    let pieces = vec![bytes[..cut].to_vec(), bytes[cut..].to_vec()];
    let (result, _) = chat(config(raw_sse_server(pieces, Duration::from_millis(20))));
    assert_eq!(result.unwrap().content, "发票金额");
}

#[test]
fn comments_and_other_fields_are_ignored() {
    let stream = format!(
        ": ping\n\nevent: message\nid: 7\nretry: 100\ndata: {}\n\n:\n\ndata: {STOP}\n\n",
        content("one")
    );
    let (result, sink) = chat(config(raw_sse_server(
        vec![stream.into_bytes()],
        Duration::ZERO,
    )));
    assert_eq!(result.unwrap().content, "one");
    assert_eq!(sink.phases().len(), 3);
}

#[test]
fn multi_line_data_is_joined() {
    let stream = "data: {\"choices\":[{\"delta\":\ndata: {\"content\":\"x\"},\"finish_reason\":\"stop\"}]}\n\n";
    let (result, _) = chat(config(raw_sse_server(
        vec![stream.as_bytes().to_vec()],
        Duration::ZERO,
    )));
    assert_eq!(result.unwrap().content, "x");
}

#[test]
fn a_stream_closed_after_the_finish_reason_is_complete_without_done() {
    let stream = format!("data: {}\n\ndata: {STOP}\n\n", content("ok"));
    let (result, _) = chat(config(raw_sse_server(
        vec![stream.into_bytes()],
        Duration::ZERO,
    )));
    assert_eq!(result.unwrap().content, "ok");
}

#[test]
fn a_stream_closed_before_the_finish_reason_is_interrupted() {
    let stream = format!("data: {}\n\n", content("half"));
    let (result, sink) = chat(config(raw_sse_server(
        vec![stream.into_bytes()],
        Duration::ZERO,
    )));
    assert_eq!(result.unwrap_err(), LlmError::Interrupted);
    assert_eq!(sink.phases().last().unwrap().0, Error);
}

#[test]
fn an_error_inside_the_stream_is_a_provider_error() {
    let stream = format!(
        "data: {}\n\ndata: {{\"error\":{{\"message\":\"overloaded\"}}}}\n\n",
        content("partial")
    );
    let (result, sink) = chat(config(raw_sse_server(
        vec![stream.into_bytes()],
        Duration::ZERO,
    )));
    assert_eq!(result.unwrap_err(), LlmError::Provider);
    assert_eq!(
        sink.phases().last().unwrap(),
        &(Error, Some("语言模型服务在回答过程中报告了错误".into()))
    );
}

#[test]
fn a_payload_that_is_not_json_is_a_protocol_error() {
    let stream = "data: {not json\n\n";
    let (result, _) = chat(config(raw_sse_server(
        vec![stream.as_bytes().to_vec()],
        Duration::ZERO,
    )));
    assert_eq!(result.unwrap_err(), LlmError::Protocol);
}

#[test]
fn keep_alive_comments_hold_off_the_idle_timeout() {
    // Only comments for 1.2 s, then the answer; each comment is within the 500 ms limit.
    let mut pieces: Vec<Vec<u8>> = (0..6).map(|_| b": keep-alive\n\n".to_vec()).collect();
    pieces.push(format!("data: {}\n\ndata: {STOP}\n\n", content("thought")).into_bytes());
    let mut config = config(raw_sse_server(pieces, Duration::from_millis(200)));
    config.timeouts.idle = Duration::from_millis(500);
    let (result, _) = chat(config);
    assert_eq!(result.unwrap().content, "thought");
}

#[test]
fn a_last_event_without_its_blank_line_still_counts() {
    // Some servers close right after the last `data:` line.
    let stream = format!("data: {}\n\ndata: {STOP}", content("ok"));
    let (result, _) = chat(config(raw_sse_server(
        vec![stream.into_bytes()],
        Duration::ZERO,
    )));
    assert_eq!(result.unwrap().content, "ok");
}

#[test]
fn the_idle_limit_restarts_when_the_head_arrives() {
    // 400 ms to the head, 300 ms more to the body: each wait is within the 500 ms limit.
    let stream = format!("data: {}\n\ndata: {STOP}\n\n", content("late"));
    let mut config = config(slow_head_sse_server(
        Duration::from_millis(400),
        vec![stream.into_bytes()],
        Duration::from_millis(300),
    ));
    config.timeouts.idle = Duration::from_millis(500);
    let (result, _) = chat(config);
    assert_eq!(result.unwrap().content, "late");
}
