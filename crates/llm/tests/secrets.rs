//! The API key never shows in a Debug, a Display, an error, a sink event or a log line.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] functions"
)]

use reimburse_llm::testing::{ScriptedReply, ScriptedServer};
use reimburse_llm::{ChatRequest, Client, CollectSink, ImageInput, LlmConfig, LlmError, Secret};
use std::io::Write;
use std::sync::{Arc, Mutex};

const KEY: &str = "sk-leak-canary-7f3a9c2e51";

/// Collects formatted log output in memory.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

fn config_with_key(server: &ScriptedServer) -> LlmConfig {
    LlmConfig {
        api_key: Some(Secret::new(KEY)),
        ..server.config()
    }
}

#[test]
fn key_is_absent_from_debug_of_config_and_client() {
    let server = ScriptedServer::start(vec![]).unwrap();
    let config = config_with_key(&server);
    let client = Client::new(config.clone()).unwrap();
    for text in [
        format!("{config:?}"),
        format!("{config:#?}"),
        format!("{client:?}"),
        format!("{:?}", Secret::new(KEY)),
    ] {
        assert!(!text.contains(KEY), "{text}");
        assert!(!text.contains("leak-canary"), "{text}");
    }
    let from_parts = LlmConfig::from_parts(
        "https://api.openai.com/v1",
        Some(Secret::new(KEY)),
        "gpt-4o",
        None,
        60,
    )
    .unwrap();
    assert!(!format!("{from_parts:?}").contains(KEY));
}

#[test]
fn key_is_absent_from_errors_events_and_logs() {
    // Every failure kind, with error bodies that echo the Authorization header back.
    let server = ScriptedServer::start(vec![
        ScriptedReply::status(401),
        ScriptedReply::status(503),
        ScriptedReply::status(503),
        ScriptedReply::status(503),
        ScriptedReply::rate_limited(0),
        ScriptedReply::status(429),
        ScriptedReply::status(429),
        ScriptedReply::CutMidStream,
        ScriptedReply::CutMidStream,
        ScriptedReply::CutMidStream,
        ScriptedReply::Malformed,
        ScriptedReply::Malformed,
        ScriptedReply::text("fine"),
    ])
    .unwrap();
    let client = Client::new(config_with_key(&server)).unwrap();
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    let mut sink = CollectSink::default();
    let mut errors: Vec<LlmError> = Vec::new();
    tracing::subscriber::with_default(subscriber, || {
        let schema = serde_json::json!({"type": "object"});
        let requests = [
            ChatRequest::text("a"),
            ChatRequest::text("b"),
            ChatRequest::text("c"),
            ChatRequest::text("d"),
            ChatRequest::text("e").with_json_schema(schema),
            ChatRequest::text("f").with_image(ImageInput::new("image/png", vec![1, 2, 3])),
        ];
        for request in requests {
            if let Err(e) = client.chat(request, &mut sink) {
                errors.push(e);
            }
        }
    });
    assert_eq!(
        errors[..4],
        [
            LlmError::Auth { status: 401 },
            LlmError::Http { status: 503 },
            LlmError::RateLimited,
            LlmError::Interrupted,
        ]
    );
    assert!(
        matches!(errors[4], LlmError::InvalidJson { .. }),
        "{errors:?}"
    );
    assert_eq!(errors.len(), 5);
    // The server did see the key, and echoed it back in its error bodies.
    assert!(
        server
            .requests()
            .iter()
            .all(|r| r.authorization.as_deref() == Some(format!("Bearer {KEY}").as_str()))
    );

    let logs = captured.text();
    assert!(logs.contains("llm endpoint refused the request"), "{logs}");
    assert!(logs.contains("received authorization Bearer ***"), "{logs}");
    for (what, text) in [
        ("logs", logs.clone()),
        (
            "errors (Display)",
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        ("errors (Debug)", format!("{errors:?}")),
        ("sink events", format!("{:?}", sink.events)),
    ] {
        assert!(!text.contains(KEY), "{what} leak the key:\n{text}");
        assert!(
            !text.contains("leak-canary"),
            "{what} leak part of the key:\n{text}"
        );
    }
    // No request body, image or URL query in the logs either.
    assert!(!logs.contains("AQID"), "{logs}");
    assert!(!logs.contains("data:image"), "{logs}");
}
