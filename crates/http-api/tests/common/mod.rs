//! Test harness: the real server on 127.0.0.1:0, an HTTP client, and an SSE reader.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test harness: each test binary uses a part of it, and a failed step aborts the test"
)]

use docgen::Converter;
use domain::SessionConfig;
use finance_bot::{BotOptions, BrowserPool};
use futures_util::StreamExt;
use pipeline::{DocumentSettings, FinanceSettings, ScreenshotSettings};
use reimburse_http_api::{AppState, BodyLimits, SseSettings};
use reqwest::multipart::{Form, Part};
use serde_json::Value;
use session_store::{Session, Store, StoreOptions};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

pub struct TestApp {
    pub base: String,
    pub client: reqwest::Client,
    pub state: AppState,
    pub data_dir: tempfile::TempDir,
}

pub struct Options {
    pub max_upload_bytes: u64,
    pub defaults: SessionConfig,
    pub sse: SseSettings,
    pub documents: DocumentSettings,
    pub finance: FinanceSettings,
    pub screenshots: ScreenshotSettings,
    pub bodies: BodyLimits,
    /// Who may ask (default: sign-in off, as `cargo xtask run`).
    pub auth: reimburse_http_api::AuthSettings,
}

/// The shipped flow for the demo portal; tests point `base_url` at their own portal.
pub fn finance(base_url: Option<String>) -> FinanceSettings {
    FinanceSettings {
        flow: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../flows/demo-portal.toml"),
        options: BotOptions {
            base_url,
            step_timeout: Duration::from_secs(15),
            ..BotOptions::default()
        },
        browsers: BrowserPool::default(),
        challenges: pipeline::Challenges::default(),
        // spawn_app_with opens one in the app's data dir.
        ledger: None,
    }
}

/// One LibreOffice for the whole test binary: starting one per test would cost seconds each.
static CONVERTER: LazyLock<Arc<Converter>> = LazyLock::new(|| Arc::new(Converter::default()));

/// The project's template, found from this crate whatever the working directory.
pub fn template_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(docgen::DEFAULT_TEMPLATE)
}

pub fn documents() -> DocumentSettings {
    DocumentSettings {
        template: template_path(),
        converter: Arc::clone(&CONVERTER),
        ..DocumentSettings::default()
    }
}

impl Default for Options {
    fn default() -> Self {
        Self {
            max_upload_bytes: StoreOptions::default().max_upload_bytes,
            defaults: SessionConfig::default(),
            sse: SseSettings::default(),
            documents: documents(),
            finance: finance(None),
            screenshots: ScreenshotSettings::default(),
            bodies: BodyLimits::default(),
            auth: reimburse_http_api::AuthSettings::default(),
        }
    }
}

/// Sign-in on with accounts kept by the service (`[auth] mode = "local"`).
pub fn local_sign_in() -> reimburse_http_api::AuthSettings {
    let mut settings = reimburse_http_api::AuthSettings::default();
    settings.mode = auth::AuthMode::Local;
    settings
}

/// An account in the app's ledger, as `reimburse user add` makes one (`finance`: the role).
pub async fn add_user(
    app: &TestApp,
    username: &str,
    display_name: &str,
    password: &str,
    finance: bool,
) {
    let ledger = app.state.finance.ledger.clone().unwrap();
    let user = ledger::NewUser {
        username: username.to_owned(),
        display_name: display_name.to_owned(),
        password_hash: auth::hash_password(password).unwrap(),
        finance,
    };
    // The ledger blocks: off the async workers.
    tokio::task::spawn_blocking(move || ledger.add_user(&user))
        .await
        .unwrap()
        .unwrap();
}

pub async fn spawn_app() -> TestApp {
    spawn_app_with(Options::default()).await
}

pub async fn spawn_app_with(mut options: Options) -> TestApp {
    let data_dir = tempfile::tempdir().unwrap();
    if options.finance.ledger.is_none() {
        // The ledger's API blocks: not on this runtime's thread.
        let path = data_dir.path().join("ledger.sqlite3");
        let opened = tokio::task::spawn_blocking(move || ledger::Ledger::open_sqlite(&path));
        options.finance.ledger = Some(opened.await.unwrap().unwrap());
    }
    let store = Store::open(
        data_dir.path(),
        StoreOptions {
            max_upload_bytes: options.max_upload_bytes,
        },
    )
    .unwrap();
    let state = AppState::new(
        store,
        options.defaults,
        options.sse,
        options.documents,
        options.finance,
        options.screenshots,
    )
    .with_body_limits(options.bodies)
    .with_auth(options.auth);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = reimburse_http_api::serve(listener, state.clone(), Some(2)).unwrap();
    tokio::spawn(server);
    TestApp {
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::builder()
            .timeout(Duration::from_secs(60))
            .build()
            .unwrap(),
        state,
        data_dir,
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Signs in through `POST /api/auth/login`; the `Cookie` header value that carries it.
    pub async fn sign_in(&self, username: &str, password: &str) -> String {
        let response = self
            .client
            .post(self.url("/api/auth/login"))
            .json(&serde_json::json!({"username": username, "password": password}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200, "sign-in of {username}");
        let set_cookie = response.headers()["set-cookie"].to_str().unwrap();
        let pair = set_cookie.split(';').next().unwrap();
        assert!(pair.starts_with("reimburse_login="), "{set_cookie}");
        pair.to_owned()
    }

    /// A new session owned by whoever `cookie` signs in.
    pub async fn create_session_as(&self, cookie: &str) -> String {
        self.new_session(Some(cookie)).await
    }

    async fn new_session(&self, cookie: Option<&str>) -> String {
        let mut request = self.client.post(self.url("/api/session"));
        if let Some(cookie) = cookie {
            request = request.header("Cookie", cookie);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200);
        let body: serde_json::Value = response.json().await.unwrap();
        body["session_id"].as_str().unwrap().to_owned()
    }

    pub async fn create_session(&self) -> String {
        self.new_session(None).await
    }

    pub fn session(&self, id: &str) -> Session {
        self.state.store.session(id).unwrap()
    }

    pub fn session_dir(&self, id: &str) -> PathBuf {
        self.data_dir.path().join("sessions").join(id)
    }

    /// Posts one `file` part to /api/upload (or /api/mobile-upload).
    pub async fn upload_to(
        &self,
        endpoint: &str,
        id: &str,
        name: &str,
        bytes: Vec<u8>,
    ) -> reqwest::Response {
        let form = Form::new().part("file", Part::bytes(bytes).file_name(name.to_owned()));
        self.client
            .post(self.url(&format!("/api/{endpoint}/{id}")))
            .multipart(form)
            .send()
            .await
            .unwrap()
    }

    pub async fn upload(&self, id: &str, name: &str, bytes: Vec<u8>) -> reqwest::Response {
        self.upload_to("upload", id, name, bytes).await
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    /// Opens the SSE stream as a browser's EventSource would.
    pub async fn open_stream(&self, id: &str, last_event_id: Option<&str>) -> SseReader {
        let mut request = self
            .client
            .get(self.url(&format!("/api/logs/{id}")))
            .header("Accept", "text/event-stream");
        if let Some(last) = last_event_id {
            request = request.header("Last-Event-ID", last);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 200);
        assert!(
            response.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/event-stream"),
            "{:?}",
            response.headers()
        );
        SseReader {
            body: Box::pin(response.bytes_stream()),
            buffer: Vec::new(),
        }
    }
}

/// An SSE event as a client sees it.
#[derive(Debug, Clone)]
pub struct SseEvent {
    pub id: Option<String>,
    pub data: serde_json::Value,
}

pub struct SseReader {
    body: std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Send>>,
    /// Raw bytes: a network chunk may end inside a UTF-8 character.
    buffer: Vec<u8>,
}

impl SseReader {
    /// The next event with data, per the SSE parsing rules: frames end at a blank line; `:`
    /// lines are comments; `data:` lines are joined. `None` when the server closed the stream.
    pub async fn next_event(&mut self) -> Option<SseEvent> {
        loop {
            if let Some(end) = self.buffer.windows(2).position(|w| w == b"\n\n") {
                let frame: Vec<u8> = self.buffer.drain(..end + 2).collect();
                let frame = String::from_utf8(frame).expect("frames are UTF-8");
                let mut id = None;
                let mut data = Vec::new();
                for line in frame.lines() {
                    if let Some(value) = line.strip_prefix("data:") {
                        data.push(value.strip_prefix(' ').unwrap_or(value).to_owned());
                    } else if let Some(value) = line.strip_prefix("id:") {
                        id = Some(value.trim().to_owned());
                    }
                }
                if data.is_empty() {
                    continue;
                }
                let data = serde_json::from_str(&data.join("\n")).expect("every data line is JSON");
                return Some(SseEvent { id, data });
            }
            let chunk = tokio::time::timeout(Duration::from_secs(20), self.body.next())
                .await
                .expect("an SSE frame within 20 s")?;
            self.buffer.extend_from_slice(&chunk.unwrap());
        }
    }

    /// Reads events until the stream closes; panics if it does not end within 20 s.
    pub async fn collect_until_closed(&mut self) -> Vec<SseEvent> {
        let mut events = Vec::new();
        while let Some(event) = self.next_event().await {
            events.push(event);
        }
        events
    }
}

/// A small but real PDF file.
pub fn tiny_pdf() -> Vec<u8> {
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n".to_vec()
}

/// The first bytes of a PNG (enough for the magic-byte check).
pub fn tiny_png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend_from_slice(&[0u8; 64]);
    bytes
}

/// Deterministic pseudo-random bytes (xorshift), so failures reproduce.
pub fn noise(len: usize, mut seed: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(len);
    while out.len() < len {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        out.extend_from_slice(&seed.to_le_bytes());
    }
    out.truncate(len);
    out
}

/// Chromium and chromedriver, which the submission tests drive.
pub fn browser_available() -> bool {
    Path::new("/usr/bin/chromium").is_file() && Path::new("/usr/bin/chromedriver").is_file()
}

pub fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/invoices")
            .join(name),
    )
    .unwrap()
}

pub struct Portal {
    pub thread: demo_portal::PortalThread,
}

impl Portal {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        Self {
            thread: demo_portal::spawn(listener, demo_portal::PortalConfig::default()).unwrap(),
        }
    }

    pub async fn claims(&self) -> Vec<Value> {
        let body: Value = reqwest::get(format!("{}/api/claims", self.thread.base_url()))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        body["claims"].as_array().unwrap().clone()
    }
}
