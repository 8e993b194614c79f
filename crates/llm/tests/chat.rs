//! The client against the scripted server: events, JSON correction, retries, timeouts, images.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

use domain::{Event, LlmPhase};
use reimburse_llm::testing::{ScriptedReply, ScriptedServer, TEST_API_KEY};
use reimburse_llm::{
    ChatRequest, Client, CollectSink, ImageInput, LlmConfig, LlmError, ModelKind, Secret, Timeouts,
};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

use LlmPhase::{Chunk, End, Error, Reasoning, Start};

fn server(script: Vec<ScriptedReply>) -> ScriptedServer {
    ScriptedServer::start(script).unwrap()
}

fn client(config: LlmConfig) -> Client {
    Client::new(config).unwrap()
}

fn chat(
    config: LlmConfig,
    request: ChatRequest,
) -> (Result<reimburse_llm::ChatResponse, LlmError>, CollectSink) {
    let mut sink = CollectSink::default();
    let result = client(config).chat(request, &mut sink);
    (result, sink)
}

fn phases(sink: &CollectSink) -> Vec<LlmPhase> {
    sink.phases().into_iter().map(|(phase, _)| phase).collect()
}

fn texts(sink: &CollectSink, wanted: LlmPhase) -> Vec<String> {
    sink.phases()
        .into_iter()
        .filter(|(phase, _)| *phase == wanted)
        .filter_map(|(_, text)| text)
        .collect()
}

fn payment_schema() -> Value {
    json!({
        "type": "object",
        "required": ["complete", "amount"],
        "properties": {
            "complete": {"type": "boolean"},
            "amount": {"type": "number"},
            "missing": {"type": "array", "items": {"type": "string"}}
        }
    })
}

#[test]
fn reasoning_then_content_arrive_in_exact_order() {
    let server = server(vec![ScriptedReply::reasoned(
        &["先看金额，", "再看日期。"],
        &["金额", "是 12.50 元", "。"],
    )]);
    let (result, sink) = chat(server.config(), ChatRequest::text("这张截图的金额？"));
    let response = result.unwrap();
    assert_eq!(
        sink.phases(),
        vec![
            (Start, None),
            (Reasoning, Some("先看金额，".into())),
            (Reasoning, Some("再看日期。".into())),
            (Chunk, Some("金额".into())),
            (Chunk, Some("是 12.50 元".into())),
            (Chunk, Some("。".into())),
            (End, None),
        ]
    );
    assert_eq!(response.content, "金额是 12.50 元。");
    assert_eq!(response.reasoning.as_deref(), Some("先看金额，再看日期。"));
    assert_eq!(response.finish_reason.as_deref(), Some("stop"));
    assert_eq!(response.usage.unwrap().completion_tokens, 5);
    assert_eq!(response.requests, 1);
    assert!(response.json.is_none());
    // The events are the interface's llm_stream events.
    let wire = serde_json::to_value(&sink.events[1]).unwrap();
    assert_eq!(
        wire,
        json!({"type":"llm_stream","phase":"reasoning","text":"先看金额，"})
    );

    let request = &server.requests()[0];
    assert_eq!(request.path, "/v1/chat/completions");
    assert_eq!(request.model.as_deref(), Some("text-model"));
    assert!(request.stream);
    assert!(request.response_format.is_none());
    assert_eq!(request.last_text(), Some("这张截图的金额？"));
}

#[test]
fn slow_deltas_each_become_their_own_event() {
    let server = server(vec![ScriptedReply::Stream {
        reasoning: vec![],
        chunks: vec!["a".into(), "b".into(), "c".into()],
        chunk_delay_ms: 30,
    }]);
    let (result, sink) = chat(server.config(), ChatRequest::text("x"));
    assert_eq!(result.unwrap().content, "abc");
    assert_eq!(texts(&sink, Chunk), vec!["a", "b", "c"]);
}

#[test]
fn json_answer_is_extracted_and_validated() {
    let answer = "好的：\n```json\n{\"complete\": true, \"amount\": 12.5, \"missing\": []}\n```";
    let server = server(vec![ScriptedReply::text(answer)]);
    let request = ChatRequest::text("判断完整性")
        .with_system("你是报销助手。")
        .with_json_schema(payment_schema())
        .with_temperature(0.0);
    let (result, sink) = chat(server.config(), request);
    let response = result.unwrap();
    assert_eq!(
        response.json,
        Some(json!({"complete": true, "amount": 12.5, "missing": []}))
    );
    assert_eq!(response.content, answer);
    assert_eq!(phases(&sink).first(), Some(&Start));
    assert_eq!(phases(&sink).last(), Some(&End));

    let request = &server.requests()[0];
    assert_eq!(
        request.response_format,
        Some(json!({"type": "json_object"}))
    );
    let system = request.system().unwrap();
    assert!(system.starts_with("你是报销助手。"), "{system}");
    assert!(
        system.contains("JSON Schema") && system.contains("\"amount\""),
        "{system}"
    );
    assert_eq!(request.body["temperature"], json!(0.0));
}

#[test]
fn json_mode_is_configurable() {
    let server = server(vec![
        ScriptedReply::json(&json!({"complete": false, "amount": 1})),
        ScriptedReply::json(&json!({"complete": false, "amount": 1})),
    ]);
    let mut config = server.config();
    config.json_mode = reimburse_llm::JsonMode::PromptOnly;
    let request = ChatRequest::text("x").with_json_schema(payment_schema());
    chat(config.clone(), request.clone()).0.unwrap();
    config.json_mode = reimburse_llm::JsonMode::JsonSchema;
    chat(config, request).0.unwrap();
    let requests = server.requests();
    assert!(requests[0].response_format.is_none());
    assert_eq!(
        requests[1].response_format.as_ref().unwrap()["type"],
        "json_schema"
    );
}

#[test]
fn malformed_json_gets_one_corrective_retry() {
    let server = server(vec![
        ScriptedReply::Malformed,
        ScriptedReply::json(&json!({"complete": true, "amount": 3})),
    ]);
    let request = ChatRequest::text("判断").with_json_schema(payment_schema());
    let (result, sink) = chat(server.config(), request);
    let response = result.unwrap();
    assert_eq!(response.json, Some(json!({"complete": true, "amount": 3})));
    assert_eq!(response.requests, 2);

    let seen = phases(&sink);
    let first_end = seen.iter().position(|p| *p == Error).unwrap();
    assert_eq!(seen[0], Start);
    assert!(seen[1..first_end].iter().all(|p| *p == Chunk));
    assert_eq!(seen[first_end + 1], Start);
    assert_eq!(seen.last(), Some(&End));
    assert!(texts(&sink, Error)[0].contains("JSON"));

    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let retry = &requests[1];
    let n = retry.messages.len();
    assert_eq!(retry.messages[n - 2].role, "assistant");
    assert!(retry.messages[n - 2].text.contains("{\"complete\": tru"));
    assert_eq!(retry.messages[n - 1].role, "user");
    assert!(
        retry.messages[n - 1].text.contains("not valid JSON"),
        "{}",
        retry.messages[n - 1].text
    );
}

#[test]
fn schema_violation_is_quoted_in_the_correction() {
    let server = server(vec![
        ScriptedReply::json(&json!({"complete": "yes", "amount": 3})),
        ScriptedReply::json(&json!({"complete": true, "amount": 3})),
    ]);
    let request = ChatRequest::text("判断").with_json_schema(payment_schema());
    let (result, _) = chat(server.config(), request);
    assert!(result.is_ok());
    let correction = server.requests()[1].last_text().unwrap().to_owned();
    assert!(
        correction.contains("$.complete: expected boolean, got string"),
        "{correction}"
    );
}

#[test]
fn malformed_twice_is_invalid_json() {
    let server = server(vec![ScriptedReply::Malformed, ScriptedReply::Malformed]);
    let request = ChatRequest::text("判断").with_json_schema(payment_schema());
    let (result, sink) = chat(server.config(), request);
    let err = result.unwrap_err();
    assert!(matches!(err, LlmError::InvalidJson { .. }), "{err:?}");
    assert_eq!(err.to_string(), "语言模型返回了无效的 JSON");
    assert_eq!(server.requests().len(), 2);
    assert_eq!(server.remaining(), 0);
    assert_eq!(phases(&sink).last(), Some(&Error));
    assert_eq!(
        texts(&sink, Error).last().unwrap(),
        "语言模型返回了无效的 JSON"
    );
    assert_eq!(phases(&sink).iter().filter(|p| **p == Start).count(), 2);
}

#[test]
fn schema_typo_fails_before_any_request() {
    let server = server(vec![]);
    let request = ChatRequest::text("x").with_json_schema(json!({"type": "float"}));
    let (result, sink) = chat(server.config(), request);
    assert!(matches!(result, Err(LlmError::Config { .. })));
    assert!(server.requests().is_empty());
    assert_eq!(phases(&sink), vec![Start, Error]);
}

#[test]
fn rate_limit_honours_retry_after() {
    let server = server(vec![
        ScriptedReply::rate_limited(1),
        ScriptedReply::text("好"),
    ]);
    let started = Instant::now();
    let (result, sink) = chat(server.config(), ChatRequest::text("x"));
    let elapsed = started.elapsed();
    assert_eq!(result.unwrap().content, "好");
    assert!(elapsed >= Duration::from_secs(1), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(3), "{elapsed:?}");
    assert_eq!(server.requests().len(), 2);
    assert_eq!(phases(&sink)[..3], [Start, Error, Start]);
    let retry_note = &texts(&sink, Error)[0];
    assert!(
        retry_note.contains("429") && retry_note.contains("1.0 秒后重试"),
        "{retry_note}"
    );
}

#[test]
fn retry_after_longer_than_the_deadline_gives_up_at_once() {
    let server = server(vec![
        ScriptedReply::rate_limited(30),
        ScriptedReply::text("好"),
    ]);
    let mut config = server.config();
    config.backoff.max_retry_after = Duration::from_secs(60);
    config.timeouts.total = Duration::from_secs(3);
    let started = Instant::now();
    let (result, _) = chat(config, ChatRequest::text("x"));
    assert_eq!(result.unwrap_err(), LlmError::RateLimited);
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn server_errors_exhaust_the_retries() {
    let server = server(vec![
        ScriptedReply::status(500),
        ScriptedReply::status(500),
        ScriptedReply::status(500),
        ScriptedReply::text("never reached"),
    ]);
    let (result, sink) = chat(server.config(), ChatRequest::text("x"));
    let err = result.unwrap_err();
    assert_eq!(err, LlmError::Http { status: 500 });
    assert_eq!(err.to_string(), "语言模型服务错误（HTTP 500）");
    assert_eq!(server.requests().len(), 3);
    assert_eq!(
        phases(&sink),
        vec![Start, Error, Start, Error, Start, Error]
    );
    assert_eq!(
        texts(&sink, Error).last().unwrap(),
        "语言模型服务错误（HTTP 500）"
    );
}

#[test]
fn client_errors_are_not_retried() {
    for (code, expected) in [
        (400, LlmError::Http { status: 400 }),
        (401, LlmError::Auth { status: 401 }),
        (404, LlmError::Http { status: 404 }),
    ] {
        let server = server(vec![ScriptedReply::status(code), ScriptedReply::text("x")]);
        let (result, sink) = chat(server.config(), ChatRequest::text("x"));
        assert_eq!(result.unwrap_err(), expected);
        assert_eq!(server.requests().len(), 1, "HTTP {code}");
        assert_eq!(phases(&sink), vec![Start, Error]);
    }
}

#[test]
fn hung_server_is_cut_off_by_the_idle_timeout() {
    let server = server(vec![ScriptedReply::Hang]);
    let mut config = server.config();
    config.max_retries = 0;
    config.timeouts.idle = Duration::from_millis(300);
    let started = Instant::now();
    let (result, sink) = chat(config, ChatRequest::text("x"));
    let elapsed = started.elapsed();
    assert_eq!(result.unwrap_err(), LlmError::Timeout);
    assert!(
        elapsed >= Duration::from_millis(300) && elapsed < Duration::from_secs(2),
        "{elapsed:?}"
    );
    assert_eq!(texts(&sink, Error), vec!["语言模型请求超时"]);
}

#[test]
fn retried_hangs_stop_at_the_total_deadline() {
    let server = server(vec![
        ScriptedReply::Hang,
        ScriptedReply::Hang,
        ScriptedReply::Hang,
    ]);
    let mut config = server.config();
    config.max_retries = 5;
    config.timeouts = Timeouts {
        connect: Duration::from_secs(1),
        idle: Duration::from_millis(400),
        total: Duration::from_millis(1000),
    };
    let started = Instant::now();
    let (result, _) = chat(config, ChatRequest::text("x"));
    let elapsed = started.elapsed();
    assert_eq!(result.unwrap_err(), LlmError::Timeout);
    // Without the deadline the hangs would end in the exhausted script's HTTP 500s instead.
    assert!(elapsed < Duration::from_millis(2500), "{elapsed:?}");
    assert!(server.requests().len() >= 2);
}

#[test]
fn slow_stream_hits_the_total_deadline() {
    let server = server(vec![ScriptedReply::Stream {
        reasoning: vec![],
        chunks: (0..20).map(|i| i.to_string()).collect(),
        chunk_delay_ms: 100,
    }]);
    let mut config = server.config();
    config.timeouts.total = Duration::from_millis(700);
    let started = Instant::now();
    let (result, sink) = chat(config, ChatRequest::text("x"));
    assert_eq!(result.unwrap_err(), LlmError::Timeout);
    // The whole stream would take over two seconds.
    assert!(started.elapsed() < Duration::from_millis(1800));
    assert!(!texts(&sink, Chunk).is_empty());
    assert_eq!(phases(&sink).last(), Some(&Error));
}

#[test]
fn cut_mid_stream_reports_an_error_event() {
    let server = server(vec![ScriptedReply::CutMidStream]);
    let mut config = server.config();
    config.max_retries = 0;
    let (result, sink) = chat(config, ChatRequest::text("x"));
    assert_eq!(result.unwrap_err(), LlmError::Interrupted);
    assert_eq!(
        sink.phases(),
        vec![
            (Start, None),
            (Chunk, Some("部分".into())),
            (Chunk, Some("回答".into())),
            (Error, Some("语言模型的回答在传输中断开".into())),
        ]
    );
}

#[test]
fn cut_mid_stream_is_retried_after_an_error_event() {
    let server = server(vec![
        ScriptedReply::CutMidStream,
        ScriptedReply::text("完整回答"),
    ]);
    let (result, sink) = chat(server.config(), ChatRequest::text("x"));
    assert_eq!(result.unwrap().content, "完整回答");
    let seen = phases(&sink);
    assert_eq!(seen[..4], [Start, Chunk, Chunk, Error]);
    assert_eq!(seen[4], Start);
    assert_eq!(seen.last(), Some(&End));
}

#[test]
fn connection_refused_is_retried_then_reported() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let config = LlmConfig {
        base_url: format!("http://127.0.0.1:{port}/v1"),
        ..ScriptedServer::start(vec![]).unwrap().config()
    };
    let (result, sink) = chat(config, ChatRequest::text("x"));
    assert_eq!(result.unwrap_err(), LlmError::Connect);
    assert_eq!(phases(&sink).iter().filter(|p| **p == Start).count(), 3);
}

#[test]
fn images_go_to_the_vision_model_as_data_urls() {
    let server = server(vec![
        ScriptedReply::json(&json!({"complete": true, "amount": 8})),
        ScriptedReply::text("ok"),
    ]);
    let png = vec![0x89, b'P', b'N', b'G', 0, 1, 2, 3];
    let request = ChatRequest::text("这张付款截图完整吗？")
        .with_image(ImageInput::new("image/png", png))
        .with_json_schema(payment_schema());
    assert_eq!(request.model_kind, ModelKind::Text);
    let (result, _) = chat(server.config(), request);
    assert_eq!(result.unwrap().model, "vision-model");
    let (result, _) = chat(server.config(), ChatRequest::vision("只看文字"));
    assert_eq!(result.unwrap().model, "vision-model");

    let requests = server.requests();
    let first = &requests[0];
    assert_eq!(first.model.as_deref(), Some("vision-model"));
    assert!(first.has_images);
    let user = first.messages.iter().find(|m| m.role == "user").unwrap();
    assert_eq!(user.image_urls, vec!["data:image/png;base64,iVBORwABAgM="]);
    assert_eq!(user.text, "这张付款截图完整吗？");
    // The content array puts the image before the text.
    let parts = first.body["messages"][1]["content"].as_array().unwrap();
    assert_eq!(parts[0]["type"], "image_url");
    assert_eq!(parts[1]["type"], "text");
    assert!(!requests[1].has_images);
    assert_eq!(requests[1].model.as_deref(), Some("vision-model"));
}

#[test]
fn bearer_key_is_sent_only_when_configured() {
    let server = server(vec![ScriptedReply::text("a"), ScriptedReply::text("b")]);
    chat(server.config(), ChatRequest::text("x")).0.unwrap();
    let mut keyless = server.config();
    keyless.api_key = None;
    chat(keyless, ChatRequest::text("x")).0.unwrap();
    let requests = server.requests();
    assert_eq!(
        requests[0].authorization.as_deref(),
        Some(format!("Bearer {TEST_API_KEY}").as_str())
    );
    assert_eq!(requests[1].authorization, None);
}

#[test]
fn one_client_serves_several_threads_at_once() {
    let server = server(
        (0..4)
            .map(|i| ScriptedReply::Stream {
                reasoning: vec![],
                chunks: vec![format!("answer {i}")],
                chunk_delay_ms: 100,
            })
            .collect(),
    );
    let client = client(server.config());
    let started = Instant::now();
    let answers: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    let mut sink = CollectSink::default();
                    client
                        .chat(ChatRequest::text("x"), &mut sink)
                        .unwrap()
                        .content
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(answers.len(), 4);
    // Four streams of ~500 ms each overlapped rather than queued (2 s).
    assert!(
        started.elapsed() < Duration::from_millis(1800),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn from_parts_config_reaches_the_server() {
    let server = server(vec![ScriptedReply::text("ok")]);
    let config = LlmConfig::from_parts(
        server.base_url(),
        Some(Secret::new("sk-from-parts")),
        "qwen-plus",
        Some("qwen-vl-max"),
        30,
    )
    .unwrap();
    let (result, _) = chat(config, ChatRequest::text("x"));
    assert_eq!(result.unwrap().model, "qwen-plus");
    let request = &server.requests()[0];
    assert_eq!(
        request.authorization.as_deref(),
        Some("Bearer sk-from-parts")
    );
}

#[test]
fn closure_sinks_see_only_llm_stream_events() {
    let server = server(vec![ScriptedReply::text("一二三")]);
    let client = client(server.config());
    let mut seen = Vec::new();
    let mut sink = |event: &Event| seen.push(event.clone());
    client.chat(ChatRequest::text("x"), &mut sink).unwrap();
    assert!(seen.iter().all(|e| matches!(e, Event::LlmStream { .. })));
    assert_eq!(seen.len(), 5);
}

#[test]
fn rejected_response_format_falls_back_to_prompt_only() {
    let answer = json!({"complete": true, "amount": 1});
    let server = server(vec![
        ScriptedReply::status(400),
        ScriptedReply::json(&answer),
        ScriptedReply::json(&answer),
    ]);
    let client = client(server.config());
    let request = ChatRequest::text("x").with_json_schema(payment_schema());
    let mut sink = CollectSink::default();
    let response = client.chat(request.clone(), &mut sink).unwrap();
    assert_eq!(response.json, Some(answer));
    assert_eq!(response.requests, 2);
    assert_eq!(phases(&sink)[..3], [Start, Error, Start]);
    assert!(texts(&sink, Error)[0].contains("HTTP 400"));
    // The client remembers: the next JSON call goes prompt-only at once.
    client.chat(request, &mut CollectSink::default()).unwrap();
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    assert!(requests[0].response_format.is_some());
    assert!(requests[1].response_format.is_none());
    assert!(requests[2].response_format.is_none());
    assert!(requests[1].system().unwrap().contains("JSON Schema"));
}

#[test]
fn plain_requests_are_not_retried_on_400() {
    let server = server(vec![ScriptedReply::status(400), ScriptedReply::text("x")]);
    let (result, _) = chat(server.config(), ChatRequest::text("x"));
    assert_eq!(result.unwrap_err(), LlmError::Http { status: 400 });
    assert_eq!(server.requests().len(), 1);
}

/// A one-shot server that ignores `stream: true` and answers with a whole JSON completion.
fn non_streaming_server(body: &'static str) -> String {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        let (mut socket, _) = listener.accept().unwrap();
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        // Headers and the small JSON body arrive quickly; stop at the body's closing brace.
        while !seen.ends_with(b"}") {
            let n = socket.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
        }
        let head = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        );
        socket.write_all(head.as_bytes()).unwrap();
        socket.write_all(body.as_bytes()).unwrap();
    });
    url
}

#[test]
fn a_server_ignoring_stream_true_still_works() {
    let base_url = non_streaming_server(
        r#"{"choices":[{"index":0,"message":{"role":"assistant","reasoning_content":"想","content":"整段回答"},"finish_reason":"stop"}]}"#,
    );
    let config = LlmConfig {
        base_url,
        ..ScriptedServer::start(vec![]).unwrap().config()
    };
    let (result, sink) = chat(config, ChatRequest::text("x"));
    assert_eq!(result.unwrap().content, "整段回答");
    assert_eq!(
        sink.phases(),
        vec![
            (Start, None),
            (Reasoning, Some("想".into())),
            (Chunk, Some("整段回答".into())),
            (End, None)
        ]
    );
}

#[test]
fn a_key_that_cannot_be_a_header_is_a_config_error() {
    let server = server(vec![]);
    let config = LlmConfig {
        api_key: Some(Secret::new("sk-bad\nkey")),
        ..server.config()
    };
    let err = Client::new(config).unwrap_err();
    assert!(matches!(err, LlmError::Config { .. }));
    assert!(!format!("{err} {err:?}").contains("sk-bad"));
}
