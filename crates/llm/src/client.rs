//! The blocking chat client: attempts, retries, streaming into the sink, JSON correction.

use crate::config::{JsonMode, LlmConfig};
use crate::endpoint::Endpoint;
use crate::error::LlmError;
use crate::request::{ChatRequest, Message, ModelKind};
use crate::response::{ChatResponse, Usage};
use crate::runtime::RuntimeThread;
use crate::stream::{StreamSink, event};
use crate::transport::{self, Activity, Diverted, Transport};
use crate::wire::{self, Chunk, StreamItem};
use crate::{json, retry, schema};
use async_openai::error::OpenAIError;
use async_openai::types::chat::CreateChatCompletionRequest;
use domain::{Event, LlmPhase};
use futures_util::StreamExt as _;
use reqwest::header::RETRY_AFTER;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;
use tokio::time::Instant;
use tracing::Instrument as _;
use tracing::instrument::WithSubscriber as _;

/// How much of an error body is read for the log.
const ERROR_SNIPPET: usize = 2048;
/// Largest non-streamed answer accepted (a server that ignored `stream: true`).
const MAX_WHOLE_BODY: usize = 16 * 1024 * 1024;
/// Slack for the caller's own watchdog beyond the total deadline the runtime enforces.
const WATCHDOG_GRACE: Duration = Duration::from_secs(5);

/// A client for one OpenAI-compatible endpoint. Cheap to share (`Arc<Client>` or `&Client`
/// across threads); every call blocks its calling thread until the answer is complete.
pub struct Client {
    inner: Arc<Inner>,
    runtime: RuntimeThread,
}

struct Inner {
    config: LlmConfig,
    /// async-openai's client on the crate's own endpoint `Config` and transport.
    openai: async_openai::Client<Endpoint>,
    /// Set once the endpoint refused a `response_format` with HTTP 400; later JSON requests
    /// go out prompt-only right away.
    response_format_rejected: AtomicBool,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("config", &self.inner.config)
            .finish_non_exhaustive()
    }
}

/// What the runtime thread sends back to the calling thread.
enum Msg {
    Event(Event),
    Done(Result<ChatResponse, LlmError>),
}

impl Client {
    /// Builds the client and starts its runtime thread. Fails on an unusable configuration.
    pub fn new(config: LlmConfig) -> Result<Self, LlmError> {
        let endpoint = Endpoint::new(&config)?;
        let http = reqwest::Client::builder()
            .tls_backend_preconfigured(crate::tls::client_config()?)
            .connect_timeout(config.timeouts.connect)
            // Shorter than any provider's keep-alive, so a pooled connection is rarely stale.
            .pool_idle_timeout(Duration::from_secs(20))
            .user_agent(concat!("reimburse-llm/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|_| LlmError::Config {
                reason: "无法初始化 HTTP 客户端".into(),
            })?;
        // `build` with our reqwest client: `with_config` would build a default one. The
        // transport then replaces async-openai's retrying executor.
        let openai = async_openai::Client::build(http.clone(), endpoint)
            .with_http_service(Transport::new(http));
        let runtime = RuntimeThread::start()?;
        Ok(Self {
            inner: Arc::new(Inner {
                config,
                openai,
                response_format_rejected: AtomicBool::new(false),
            }),
            runtime,
        })
    }

    /// The configuration the client was built with.
    pub fn config(&self) -> &LlmConfig {
        &self.inner.config
    }

    /// Sends `request` and streams the answer into `sink` (on this thread) until it is
    /// complete. See [`StreamSink`] for the order of the events.
    pub fn chat(
        &self,
        request: ChatRequest,
        sink: &mut dyn StreamSink,
    ) -> Result<ChatResponse, LlmError> {
        let (tx, rx) = mpsc::channel();
        let inner = Arc::clone(&self.inner);
        // The task owns the only senders: if it dies, `recv` reports the disconnection.
        let task = async move {
            let mut emitter = Emitter::new(tx.clone());
            let result = run(&inner, request, &mut emitter).await;
            if let Err(e) = &result {
                emitter.fail(e);
            }
            let _ = tx.send(Msg::Done(result));
        };
        // The caller's subscriber and span follow the call onto the runtime thread, so its
        // log lines land where the caller's would.
        let task = self.runtime.spawn(
            task.instrument(tracing::Span::current())
                .with_current_subscriber(),
        );
        let watchdog =
            std::time::Instant::now() + self.inner.config.timeouts.total + WATCHDOG_GRACE;
        loop {
            let left = watchdog.saturating_duration_since(std::time::Instant::now());
            match rx.recv_timeout(left) {
                Ok(Msg::Event(event)) => sink.on_event(&event),
                Ok(Msg::Done(result)) => return result,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    // Only a bug gets here: the runtime enforces the deadline itself.
                    task.abort();
                    sink.on_event(&event(LlmPhase::Error, Some(LlmError::Timeout.to_string())));
                    return Err(LlmError::Timeout);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    sink.on_event(&event(
                        LlmPhase::Error,
                        Some(LlmError::Internal.to_string()),
                    ));
                    return Err(LlmError::Internal);
                }
            }
        }
    }
}

/// Sends sink events to the caller and tracks whether an attempt is open (started but not
/// yet ended), so that every `start` gets exactly one `end` or `error`.
struct Emitter {
    tx: mpsc::Sender<Msg>,
    open: bool,
}

impl Emitter {
    fn new(tx: mpsc::Sender<Msg>) -> Self {
        Self { tx, open: false }
    }

    fn send(&self, phase: LlmPhase, text: Option<String>) {
        // A caller that stopped listening has returned already; nothing to do.
        let _ = self.tx.send(Msg::Event(event(phase, text)));
    }

    fn start(&mut self) {
        self.send(LlmPhase::Start, None);
        self.open = true;
    }

    fn reasoning(&self, text: &str) {
        self.send(LlmPhase::Reasoning, Some(text.to_owned()));
    }

    fn chunk(&self, text: &str) {
        self.send(LlmPhase::Chunk, Some(text.to_owned()));
    }

    fn end(&mut self) {
        self.send(LlmPhase::End, None);
        self.open = false;
    }

    fn error(&mut self, message: String) {
        self.send(LlmPhase::Error, Some(message));
        self.open = false;
    }

    /// The call's final failure: closes the open attempt, or opens one to close, so that a
    /// call failing before any request still shows as `start`, `error`.
    fn fail(&mut self, error: &LlmError) {
        if !self.open {
            self.send(LlmPhase::Start, None);
        }
        self.error(error.to_string());
    }
}

/// The text and metadata of one successful attempt.
#[derive(Debug, Default)]
struct Answer {
    content: String,
    reasoning: String,
    finish_reason: Option<String>,
    usage: Option<Usage>,
}

/// An attempt's failure, with the server's `Retry-After` when it gave one.
struct Failure {
    error: LlmError,
    retry_after: Option<Duration>,
}

impl From<LlmError> for Failure {
    fn from(error: LlmError) -> Self {
        Self {
            error,
            retry_after: None,
        }
    }
}

/// One call: retried attempts, then JSON extraction, validation and one correction.
async fn run(
    inner: &Inner,
    request: ChatRequest,
    emitter: &mut Emitter,
) -> Result<ChatResponse, LlmError> {
    let started = Instant::now();
    let deadline = started + inner.config.timeouts.total;
    if let Some(schema) = &request.json_schema {
        schema::check_schema(schema).map_err(|reason| LlmError::Config {
            reason: format!("JSON Schema 无效：{reason}"),
        })?;
    }
    let model = match request.effective_model_kind() {
        ModelKind::Text => inner.config.text_model.as_str(),
        ModelKind::Vision => inner.config.vision_model.as_str(),
    };
    let system = match (&request.system, &request.json_schema) {
        (Some(system), Some(schema)) => Some(format!("{system}\n\n{}", json::instructions(schema))),
        (Some(system), None) => Some(system.clone()),
        (None, Some(schema)) => Some(json::instructions(schema)),
        (None, None) => None,
    };
    let mut extra: Vec<Message> = Vec::new();
    let mut requests = 0u32;
    loop {
        let json_mode = if inner.response_format_rejected.load(Ordering::Relaxed) {
            JsonMode::PromptOnly
        } else {
            inner.config.json_mode
        };
        let body = wire::chat_request(model, system.as_deref(), &request, &extra, json_mode);
        tracing::debug!(
            model,
            messages = request.messages.len() + extra.len(),
            images = request.images.len(),
            json = request.json_schema.is_some(),
            "llm request"
        );
        let answer = match with_retries(inner, &body, emitter, deadline, &mut requests).await {
            Ok(answer) => answer,
            // Some providers (or some of their models) reject `response_format`; the schema
            // in the system prompt and the validator still hold the answer to JSON.
            Err(LlmError::Http { status: 400 })
                if request.json_schema.is_some() && json_mode != JsonMode::PromptOnly =>
            {
                tracing::warn!(
                    "llm endpoint rejected response_format (HTTP 400), going prompt-only"
                );
                inner
                    .response_format_rejected
                    .store(true, Ordering::Relaxed);
                emitter.error(
                    "语言模型服务不支持指定的 JSON 输出格式（HTTP 400），改为仅用提示词要求 JSON 后重试"
                        .into(),
                );
                continue;
            }
            Err(e) => return Err(e),
        };
        let json = match &request.json_schema {
            None if answer.content.trim().is_empty() => return Err(LlmError::EmptyAnswer),
            None => None,
            Some(schema) => match checked_json(&answer.content, schema) {
                Ok(value) => Some(value),
                Err(reason) if extra.is_empty() => {
                    tracing::warn!(%reason, "llm answer rejected, asking for a correction");
                    emitter.error("回答不是符合要求的 JSON，正在请模型更正".into());
                    extra.push(Message::assistant(answer.content));
                    extra.push(Message::user(json::correction(&reason)));
                    continue;
                }
                Err(reason) => {
                    tracing::warn!(%reason, "llm answer rejected again, giving up");
                    return Err(LlmError::InvalidJson { reason });
                }
            },
        };
        emitter.end();
        tracing::info!(
            model,
            requests,
            elapsed_ms = started.elapsed().as_millis() as u64,
            prompt_tokens = answer.usage.map(|u| u.prompt_tokens),
            completion_tokens = answer.usage.map(|u| u.completion_tokens),
            "llm answer"
        );
        return Ok(ChatResponse {
            content: answer.content,
            reasoning: (!answer.reasoning.is_empty()).then_some(answer.reasoning),
            json,
            model: model.to_owned(),
            finish_reason: answer.finish_reason,
            usage: answer.usage,
            requests,
        });
    }
}

fn checked_json(content: &str, schema: &serde_json::Value) -> Result<serde_json::Value, String> {
    let value = json::extract(content)?;
    schema::validate(schema, &value).map_err(|errors| {
        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
        format!("the JSON does not match the schema: {}", list.join("; "))
    })?;
    Ok(value)
}

/// Attempts until one streams a complete answer, retrying what may pass next time.
async fn with_retries(
    inner: &Inner,
    body: &CreateChatCompletionRequest,
    emitter: &mut Emitter,
    deadline: Instant,
    requests: &mut u32,
) -> Result<Answer, LlmError> {
    let max_retries = inner.config.max_retries;
    let mut retry = 0u32;
    loop {
        emitter.start();
        *requests += 1;
        let failure = match attempt(inner, body, emitter, deadline).await {
            Ok(answer) => return Ok(answer),
            Err(failure) => failure,
        };
        let error = failure.error;
        if !error.is_retryable() || retry >= max_retries {
            return Err(error);
        }
        let wait = retry::delay(&inner.config.backoff, retry, failure.retry_after);
        if Instant::now() + wait >= deadline {
            // No time left for another try: report what went wrong, not a timeout.
            return Err(error);
        }
        retry += 1;
        tracing::warn!(%error, retry, max_retries, wait_ms = wait.as_millis() as u64, "llm retry");
        emitter.error(format!(
            "{error}，{:.1} 秒后重试（第 {retry} 次，共 {max_retries} 次）",
            wait.as_secs_f64()
        ));
        tokio::time::sleep(wait).await;
    }
}

/// One HTTP request and its streamed answer.
async fn attempt(
    inner: &Inner,
    body: &CreateChatCompletionRequest,
    emitter: &Emitter,
    deadline: Instant,
) -> Result<Answer, Failure> {
    let idle = inner.config.timeouts.idle;
    let chat = inner.openai.chat();
    let activity = Activity::new();
    let opening = chat.create_stream_byot::<_, Chunk>(body);
    let opened = within(
        idle,
        deadline,
        transport::with_activity(Arc::clone(&activity), opening),
    )
    .await?;
    let error = match opened {
        Ok(stream) => return streamed_answer(inner, stream, &activity, emitter, deadline).await,
        Err(error) => error,
    };
    match Diverted::take(error) {
        Ok(Diverted::Refused(mut response)) => {
            let status = response.status();
            let retry_after = response
                .headers()
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(retry::parse_retry_after);
            let snippet = read_snippet(&mut response, idle, deadline).await;
            tracing::warn!(
                status = status.as_u16(),
                body = %scrub(inner, &snippet),
                "llm endpoint refused the request"
            );
            Err(Failure {
                error: LlmError::from_status(status.as_u16()),
                retry_after,
            })
        }
        Ok(Diverted::WholeAnswer(mut response)) => {
            whole_answer(inner, &mut response, emitter, deadline).await
        }
        Err(error) => Err(open_error(&error).into()),
    }
}

async fn streamed_answer(
    inner: &Inner,
    mut stream: impl futures_util::Stream<Item = Result<Chunk, OpenAIError>> + Unpin,
    activity: &Activity,
    emitter: &Emitter,
    deadline: Instant,
) -> Result<Answer, Failure> {
    let idle = inner.config.timeouts.idle;
    let mut answer = Answer::default();
    // async-openai ends the stream at `data: [DONE]` and at the end of the body alike.
    while let Some(item) = next_event(&mut stream, activity, idle, deadline).await? {
        let chunk = item.map_err(|e| stream_error(inner, &e))?;
        take_item(inner, chunk.into_item(), emitter, &mut answer)?;
    }
    // Complete only after a finish reason, otherwise the connection was closed early.
    if answer.finish_reason.is_some() {
        Ok(answer)
    } else {
        Err(LlmError::Interrupted.into())
    }
}

/// The next decoded event, or a timeout once the body has been silent for `idle` (bytes
/// count, keep-alive comments included, though they make no event) or the deadline passed.
async fn next_event<S: futures_util::Stream + Unpin>(
    stream: &mut S,
    activity: &Activity,
    idle: Duration,
    deadline: Instant,
) -> Result<Option<S::Item>, LlmError> {
    loop {
        let quiet = activity.quiet_for();
        if quiet >= idle {
            return Err(LlmError::Timeout);
        }
        match within(idle - quiet, deadline, stream.next()).await {
            // Bytes without an event (a comment) may have come meanwhile: look again.
            Err(LlmError::Timeout) if Instant::now() < deadline => continue,
            other => return other,
        }
    }
}

/// Applies one decoded chunk.
fn take_item(
    inner: &Inner,
    item: StreamItem,
    emitter: &Emitter,
    answer: &mut Answer,
) -> Result<(), LlmError> {
    match item {
        StreamItem::Piece(piece) => {
            if let Some(text) = piece.reasoning {
                emitter.reasoning(&text);
                answer.reasoning.push_str(&text);
            }
            if let Some(text) = piece.content {
                emitter.chunk(&text);
                answer.content.push_str(&text);
            }
            if piece.finish_reason.is_some() {
                answer.finish_reason = piece.finish_reason;
            }
            if piece.usage.is_some() {
                answer.usage = piece.usage;
            }
            Ok(())
        }
        StreamItem::ProviderError(error) => {
            tracing::warn!(error = %scrub(inner, &clip(&error)), "llm provider error mid-stream");
            Err(LlmError::Provider)
        }
    }
}

/// A server that ignored `stream: true` and sent the whole answer as JSON.
async fn whole_answer(
    inner: &Inner,
    response: &mut reqwest::Response,
    emitter: &Emitter,
    deadline: Instant,
) -> Result<Answer, Failure> {
    let idle = inner.config.timeouts.idle;
    let mut body = Vec::new();
    while let Some(bytes) = within(idle, deadline, response.chunk())
        .await?
        .map_err(|e| body_error(&e))?
    {
        body.extend_from_slice(&bytes);
        if body.len() > MAX_WHOLE_BODY {
            return Err(LlmError::Protocol.into());
        }
    }
    let Some(item) = wire::parse_payload(&body) else {
        let text = String::from_utf8_lossy(&body);
        tracing::warn!(payload = %scrub(inner, &clip(&text)), "llm answer is not a chat completion");
        return Err(LlmError::Protocol.into());
    };
    let mut answer = Answer::default();
    // Same path as a stream, so the sink sees the same events.
    take_item(inner, item, emitter, &mut answer)?;
    answer.finish_reason.get_or_insert_with(|| "stop".into());
    Ok(answer)
}

/// Runs `future` under the idle limit and the call's deadline.
async fn within<T>(
    idle: Duration,
    deadline: Instant,
    future: impl Future<Output = T>,
) -> Result<T, LlmError> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(LlmError::Timeout);
    }
    tokio::time::timeout(idle.min(left), future)
        .await
        .map_err(|_| LlmError::Timeout)
}

/// The start of an error body, for the log; failures to read it are not interesting.
async fn read_snippet(
    response: &mut reqwest::Response,
    idle: Duration,
    deadline: Instant,
) -> String {
    let mut body = Vec::new();
    while body.len() < ERROR_SNIPPET {
        match within(idle, deadline, response.chunk()).await {
            Ok(Ok(Some(bytes))) => body.extend_from_slice(&bytes),
            _ => break,
        }
    }
    body.truncate(ERROR_SNIPPET);
    String::from_utf8_lossy(&body).into_owned()
}

/// An error before any response: async-openai's, or reqwest's inside it.
fn open_error(error: &OpenAIError) -> LlmError {
    match error {
        OpenAIError::Reqwest(e) => {
            // `Display` of a reqwest error names the URL; the log gets the kind only.
            tracing::warn!(
                timeout = e.is_timeout(),
                connect = e.is_connect(),
                "llm request failed before a response"
            );
            if e.is_timeout() {
                LlmError::Timeout
            } else {
                LlmError::Connect
            }
        }
        // The transport diverts every error status, so these are defensive.
        OpenAIError::ApiError(api) => LlmError::from_status(api.status_code.as_u16()),
        other => {
            tracing::warn!(kind = error_kind(other), "llm request could not be sent");
            LlmError::Internal
        }
    }
}

/// An error inside the stream.
fn stream_error(inner: &Inner, error: &OpenAIError) -> LlmError {
    match error {
        OpenAIError::JSONDeserialize(_, payload) => {
            tracing::warn!(payload = %scrub(inner, &clip(payload)), "llm stream payload is not a chat chunk");
            LlmError::Protocol
        }
        // The body broke off (reqwest's error, through the SSE decoder).
        OpenAIError::StreamError(_) => {
            tracing::warn!("llm stream broke");
            LlmError::Interrupted
        }
        other => {
            tracing::warn!(kind = error_kind(other), "llm stream failed");
            LlmError::Protocol
        }
    }
}

/// The variant's name only: the messages of some carry URLs or provider text.
fn error_kind(error: &OpenAIError) -> &'static str {
    match error {
        OpenAIError::Reqwest(_) => "reqwest",
        OpenAIError::ApiError(_) => "api",
        OpenAIError::JSONDeserialize(..) => "json",
        OpenAIError::StreamError(_) => "stream",
        OpenAIError::InvalidArgument(_) => "invalid-argument",
        OpenAIError::Boxed(_) => "boxed",
        _ => "other",
    }
}

fn body_error(error: &reqwest::Error) -> LlmError {
    tracing::warn!(timeout = error.is_timeout(), "llm stream broke");
    if error.is_timeout() {
        LlmError::Timeout
    } else {
        LlmError::Interrupted
    }
}

fn scrub(inner: &Inner, text: &str) -> String {
    match &inner.config.api_key {
        Some(key) => key.scrub(text),
        None => text.to_owned(),
    }
}

fn clip(text: &str) -> String {
    text.chars().take(300).collect()
}
