//! `ScriptedServer`: replies to chat-completion requests from a script, records them.

use super::http;
use super::recorded::RecordedRequest;
use super::reply::ScriptedReply;
use crate::config::{Backoff, JsonMode, LlmConfig, Timeouts};
use crate::secret::Secret;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::oneshot;

/// The key [`ScriptedServer::config`] puts in its configuration.
pub const TEST_API_KEY: &str = "sk-scripted-test-key-0123456789";

/// A chat-completions server on `127.0.0.1` with a random port, running on its own thread
/// and runtime so that blocking callers can use it. Each request takes the next reply of the
/// script; once the script is used up every request gets HTTP 500. Dropping the server stops
/// it (and releases hung connections).
#[derive(Debug)]
pub struct ScriptedServer {
    base_url: String,
    state: Arc<Mutex<State>>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[derive(Debug, Default)]
struct State {
    script: VecDeque<ScriptedReply>,
    requests: Vec<RecordedRequest>,
}

impl ScriptedServer {
    /// Binds `127.0.0.1:0` and starts serving `script`.
    pub fn start(script: Vec<ScriptedReply>) -> std::io::Result<Self> {
        let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let base_url = format!("http://{}/v1", listener.local_addr()?);
        let state = Arc::new(Mutex::new(State {
            script: script.into(),
            requests: Vec::new(),
        }));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let (stop_tx, stop_rx) = oneshot::channel();
        let thread_state = Arc::clone(&state);
        let thread = std::thread::Builder::new()
            .name("llm-scripted-server".into())
            .spawn(move || runtime.block_on(serve(listener, thread_state, stop_rx)))?;
        Ok(Self {
            base_url,
            state,
            stop: Some(stop_tx),
            thread: Some(thread),
        })
    }

    /// `http://127.0.0.1:PORT/v1`, as a provider's base URL looks.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        lock(&self.state).requests.clone()
    }

    /// Appends replies to the script.
    pub fn push(&self, reply: ScriptedReply) {
        lock(&self.state).script.push_back(reply);
    }

    /// Replies not used yet.
    pub fn remaining(&self) -> usize {
        lock(&self.state).script.len()
    }

    /// A configuration pointing at this server, with [`TEST_API_KEY`], models `text-model`
    /// and `vision-model`, two retries, millisecond backoff and timeouts short enough for
    /// tests (connect 2 s, idle 2 s, total 10 s).
    pub fn config(&self) -> LlmConfig {
        LlmConfig {
            base_url: self.base_url.clone(),
            api_key: Some(Secret::new(TEST_API_KEY)),
            text_model: "text-model".into(),
            vision_model: "vision-model".into(),
            timeouts: Timeouts {
                connect: Duration::from_secs(2),
                idle: Duration::from_secs(2),
                total: Duration::from_secs(10),
            },
            max_retries: 2,
            backoff: Backoff {
                base: Duration::from_millis(10),
                max: Duration::from_millis(50),
                max_retry_after: Duration::from_secs(5),
            },
            json_mode: JsonMode::JsonObject,
        }
    }
}

impl Drop for ScriptedServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // A test that panicked while holding the lock must not hide the recorded requests.
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

async fn serve(
    listener: std::net::TcpListener,
    state: Arc<Mutex<State>>,
    mut stop: oneshot::Receiver<()>,
) {
    let Ok(listener) = tokio::net::TcpListener::from_std(listener) else {
        return;
    };
    loop {
        tokio::select! {
            _ = &mut stop => return,
            accepted = listener.accept() => {
                if let Ok((socket, _)) = accepted {
                    tokio::spawn(connection(socket, Arc::clone(&state)));
                }
            }
        }
    }
}

/// One connection, one request: every response closes the connection, which keeps the
/// server simple and exercises the client's reconnects.
async fn connection(mut socket: TcpStream, state: Arc<Mutex<State>>) {
    let _ = socket.set_nodelay(true);
    let Some(request) = http::read_request(&mut socket).await else {
        return;
    };
    let recorded = RecordedRequest::new(
        request.method,
        request.path,
        request.authorization,
        &request.body,
    );
    let model = recorded.model.clone().unwrap_or_default();
    let authorization = recorded.authorization.clone().unwrap_or_default();
    let reply = {
        let mut state = lock(&state);
        state.requests.push(recorded);
        state.script.pop_front()
    };
    match reply {
        Some(ScriptedReply::Stream {
            reasoning,
            chunks,
            chunk_delay_ms,
        }) => {
            stream(
                &mut socket,
                &model,
                &reasoning,
                &chunks,
                chunk_delay_ms,
                false,
            )
            .await
        }
        Some(ScriptedReply::Malformed) => {
            let chunks = [
                "好的，结果如下：",
                "{\"complete\": tru",
                "e,, \"amount\": }",
            ]
            .map(str::to_owned);
            stream(&mut socket, &model, &[], &chunks, 0, false).await;
        }
        Some(ScriptedReply::Status(code, retry_after)) => {
            status(&mut socket, code, retry_after, &authorization).await;
        }
        Some(ScriptedReply::Hang) => {
            // Keep the socket open and silent until the server is dropped.
            std::future::pending::<()>().await;
        }
        Some(ScriptedReply::CutMidStream) => {
            let chunks = ["部分", "回答"].map(str::to_owned);
            stream(&mut socket, &model, &[], &chunks, 0, true).await;
        }
        None => {
            let body = json!({"error": {"message": "script exhausted", "type": "scripted"}});
            http::write_simple(
                &mut socket,
                500,
                &[],
                "application/json",
                body.to_string().as_bytes(),
            )
            .await;
        }
    }
}

async fn status(socket: &mut TcpStream, code: u16, retry_after: Option<u64>, authorization: &str) {
    let body = json!({"error": {
        "message": format!("scripted status {code}; received authorization {authorization}"),
        "type": "scripted",
        "code": code,
    }});
    let headers: Vec<(&str, String)> = retry_after
        .map(|secs| ("retry-after", secs.to_string()))
        .into_iter()
        .collect();
    http::write_simple(
        socket,
        code,
        &headers,
        "application/json",
        body.to_string().as_bytes(),
    )
    .await;
}

/// Writes a chat-completions stream; with `cut`, closes the connection after the content
/// deltas without finishing the chunked body.
async fn stream(
    socket: &mut TcpStream,
    model: &str,
    reasoning: &[String],
    chunks: &[String],
    delay_ms: u64,
    cut: bool,
) {
    if !http::write_stream_head(socket).await {
        return;
    }
    let chunk = |delta: Value, finish: Value| {
        json!({
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        })
    };
    let mut events = vec![
        ": keep-alive\n\n".to_owned(),
        data(&chunk(
            json!({"role": "assistant", "content": ""}),
            Value::Null,
        )),
    ];
    events.extend(reasoning.iter().map(|r| {
        data(&chunk(
            json!({"content": null, "reasoning_content": r}),
            Value::Null,
        ))
    }));
    events.extend(
        chunks
            .iter()
            .map(|c| data(&chunk(json!({"content": c}), Value::Null))),
    );
    if !cut {
        let mut last = chunk(json!({}), json!("stop"));
        last["usage"] = json!({
            "prompt_tokens": 10,
            "completion_tokens": reasoning.len() + chunks.len(),
            "total_tokens": 10 + reasoning.len() + chunks.len(),
        });
        events.push(data(&last));
        events.push("data: [DONE]\n\n".to_owned());
    }
    for event in events {
        if delay_ms > 0 {
            tokio::time::sleep(Duration::from_millis(delay_ms)).await;
        }
        // Two writes per event, cut in the middle of its bytes (often inside a UTF-8
        // character), to exercise the client's reassembly.
        let bytes = event.as_bytes();
        let (a, b) = bytes.split_at(bytes.len() / 2);
        if !http::write_chunk(socket, a).await || !http::write_chunk(socket, b).await {
            return;
        }
    }
    if cut {
        // Closing without the terminating zero-length chunk is what a dropped connection
        // looks like to the client.
        return;
    }
    http::finish_chunks(socket).await;
}

fn data(value: &Value) -> String {
    format!("data: {value}\n\n")
}
