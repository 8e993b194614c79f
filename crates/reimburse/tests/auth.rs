//! Who may see what, against the real binary (docs/auth.md): `local` accounts made with
//! `reimburse user add` (signed out, ownership of sessions, the phone's expiring link, the
//! cookie, throttling, no password in clear anywhere, roles on the ledger, the audit trail,
//! sign-out, per-user defaults); `proxy` identity headers believed only from the proxy's
//! address; `none` mode's warning when it listens beyond loopback.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Server, fixture, start_with, workspace, write_config};
use ledger::{ClaimDraft, InvoiceEntry, Ledger, invoice_key};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Client, Method, StatusCode};
use serde_json::{Value, json};
use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tempfile::TempDir;

/// An account of the `local` tests, made with `reimburse user add`.
struct Account {
    name: &'static str,
    display: &'static str,
    password: &'static str,
    finance: bool,
}

const ALICE: Account = Account {
    name: "alice",
    display: "张三",
    password: "Alice-Pass-2024",
    finance: false,
};
const BOB: Account = Account {
    name: "bob",
    display: "李四",
    password: "Bob-Pass-2024!",
    finance: false,
};
const CAROL: Account = Account {
    name: "carol",
    display: "财务王五",
    password: "Carol-Pass-2024",
    finance: true,
};

/// The finance-portal password a user sends with a processing request: sealed, never stored
/// or logged in clear.
const FINANCE_SECRET: &str = "Fin-Secret-123";

/// The configuration of every test: no warm LibreOffice (no document is converted here: the
/// template is not found from the test's working directory, so documents fail at once).
const NO_OFFICE: &str = "[document]\nconvert_mode = \"cold\"\n";

const LOCAL: &str = "[auth]\nmode = \"local\"\nupload_link_secs = 3\n";

const PROXY: &str = "[auth]\nmode = \"proxy\"\nproxy_addresses = [\"127.0.0.2\"]\n\
                     user_header = \"X-Remote-User\"\ngroups_header = \"X-Remote-Groups\"\n\
                     finance_group = \"finance\"\n";

/// The proxy's address in the proxy tests (any 127/8 address is this machine on Linux).
const PROXY_ADDRESS: IpAddr = IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2));

/// A service on its own temporary data dir; the server is stopped before the dir goes.
struct Service {
    server: Server,
    data: PathBuf,
    _dir: TempDir,
}

/// Starts the binary with `auth` as its configuration, after making `accounts`.
fn service(auth: &str, accounts: &[&Account], extra: &[&str]) -> Service {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    write_config(&data, &format!("{auth}{NO_OFFICE}"));
    for account in accounts {
        add_user(&data, account);
    }
    let mut args = vec!["--no-portal"];
    args.extend_from_slice(extra);
    let server = start_with(dir.path(), &data, &args);
    Service {
        server,
        data,
        _dir: dir,
    }
}

fn local_service() -> Service {
    service(LOCAL, &[&ALICE, &BOB, &CAROL], &[])
}

/// `reimburse user add` as an administrator's script runs it: the password in the environment.
fn add_user(data: &Path, account: &Account) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_reimburse"));
    command.args(["user", "--data-dir"]).arg(data).args([
        "add",
        account.name,
        "--name",
        account.display,
    ]);
    if account.finance {
        command.arg("--finance");
    }
    let output = command
        .env("REIMBURSE_USER_PASSWORD", account.password)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "user add {}: {}",
        account.name,
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A client that sees redirects as they are (`GET /` → 303) and does not wait forever.
fn client_with(headers: HeaderMap, local_address: Option<IpAddr>) -> Client {
    Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(60))
        .default_headers(headers)
        .local_address(local_address)
        .build()
        .unwrap()
}

/// Nobody signed in: no cookie, no identity header.
fn anonymous() -> Client {
    client_with(HeaderMap::new(), None)
}

/// A client sending `cookie` (`reimburse_login=…`) with every request.
fn with_cookie(cookie: &str) -> Client {
    let mut headers = HeaderMap::new();
    headers.insert(
        reqwest::header::COOKIE,
        HeaderValue::from_str(cookie).unwrap(),
    );
    client_with(headers, None)
}

async fn login(server: &Server, username: &str, password: &str) -> reqwest::Response {
    anonymous()
        .post(server.url("/api/auth/login"))
        .json(&json!({"username": username, "password": password}))
        .send()
        .await
        .unwrap()
}

/// `name=value` of the sign-in cookie a login response sets.
fn login_cookie(response: &reqwest::Response) -> String {
    let set_cookie = response
        .headers()
        .get(reqwest::header::SET_COOKIE)
        .expect("the login sets a cookie")
        .to_str()
        .unwrap();
    let pair = set_cookie.split(';').next().unwrap().trim();
    assert!(pair.starts_with("reimburse_login="), "{set_cookie}");
    pair.to_owned()
}

/// A client signed in as `account`.
async fn sign_in(server: &Server, account: &Account) -> Client {
    let response = login(server, account.name, account.password).await;
    assert_eq!(response.status(), 200, "{} signs in", account.name);
    let cookie = login_cookie(&response);
    with_cookie(&cookie)
}

/// A client behind the proxy at `from`, naming `user` (in the finance group when `finance`).
fn via_proxy(from: IpAddr, user: &str, finance: bool) -> Client {
    let mut headers = HeaderMap::new();
    headers.insert("x-remote-user", HeaderValue::from_str(user).unwrap());
    if finance {
        headers.insert(
            "x-remote-groups",
            HeaderValue::from_static("staff, finance"),
        );
    }
    client_with(headers, Some(from))
}

/// What a request's answer is made of, for comparing two answers byte for byte.
#[derive(Debug, PartialEq, Eq)]
struct Answer {
    status: StatusCode,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&self.body)))
    }

    /// The JSON body, or null for another body (a page, a QR code, a file).
    fn json_or_null(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The answer is `status` with `{"error": message}`.
    fn assert_error(&self, status: u16, message: &str, what: &str) {
        assert_eq!(self.status, status, "{what}: {}", self.text());
        assert_eq!(self.json(), json!({ "error": message }), "{what}");
    }
}

/// A request's body.
#[derive(Debug, Clone, Copy)]
enum Body {
    None,
    Json(&'static str),
    /// A multipart upload of a small PNG with this file name.
    Image(&'static str),
}

/// One request: method, path, body.
#[derive(Debug, Clone)]
struct Call {
    method: Method,
    path: String,
    body: Body,
}

impl Call {
    fn get(path: String) -> Call {
        Call {
            method: Method::GET,
            path,
            body: Body::None,
        }
    }

    fn post(path: String, body: Body) -> Call {
        Call {
            method: Method::POST,
            path,
            body,
        }
    }
}

/// The session endpoints' GETs on session `id` (`file` for the download).
fn session_reads(id: &str, file: &str) -> Vec<Call> {
    [
        format!("/api/files/{id}"),
        format!("/api/config/{id}"),
        format!("/api/data/{id}"),
        format!("/api/logs/{id}"),
        format!("/api/agent/state/{id}"),
        format!("/api/submit-challenge/{id}"),
        format!("/api/qr/{id}"),
        format!("/api/mobile-url/{id}"),
        format!("/api/download/{id}/{file}"),
    ]
    .into_iter()
    .map(Call::get)
    .collect()
}

/// Every endpoint of session `id`, each with a body it would accept from the owner.
fn session_calls(id: &str, file: &str) -> Vec<Call> {
    let mut calls = session_reads(id, file);
    let posts = [
        ("/api/upload/", Body::Image("bob.png")),
        ("/api/mobile-upload/", Body::Image("bob.png")),
        ("/api/save/", Body::Json(r#"{"data":[]}"#)),
        ("/api/process/", Body::Json(r#"{"default_name":"冒名"}"#)),
        ("/api/submit-financial/", Body::None),
        ("/api/agent/process/", Body::Json("{}")),
        ("/api/agent/supplement/", Body::Json(r#"{"files":[]}"#)),
        (
            "/api/agent/user-supplement/",
            Body::Json(r#"{"text":"出差事由：开会"}"#),
        ),
        ("/api/agent/force-submit/", Body::None),
        ("/api/submit-challenge/", Body::Json(r#"{"answer":"1234"}"#)),
    ];
    calls.extend(
        posts
            .into_iter()
            .map(|(prefix, body)| Call::post(format!("{prefix}{id}"), body)),
    );
    calls
}

/// The prefixes of the product's table of session routes (the guard's own list), read from
/// its source so that a route added there and not here fails this test.
fn guarded_session_prefixes() -> Vec<String> {
    let table =
        std::fs::read_to_string(workspace().join("crates/http-api/src/access/routes_table.rs"))
            .unwrap();
    let start = table.find("SESSION_ROUTES").unwrap();
    let end = start + table[start..].find("];").unwrap();
    let prefixes: Vec<String> = table[start..end]
        .split('"')
        .filter(|piece| piece.starts_with("/api/"))
        .map(str::to_owned)
        .collect();
    assert!(prefixes.len() >= 18, "{prefixes:?}");
    prefixes
}

#[test]
fn the_session_calls_cover_every_guarded_session_route() {
    let calls = session_calls("ID", "f");
    for prefix in guarded_session_prefixes() {
        assert!(
            calls.iter().any(|call| call.path.starts_with(&prefix)),
            "{prefix} is not tried"
        );
    }
}

/// A tiny PNG, a valid image for the upload's content check.
fn png() -> Vec<u8> {
    let mut bytes = Vec::new();
    image::RgbImage::from_pixel(8, 8, image::Rgb([200, 40, 40]))
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .unwrap();
    bytes
}

/// A well-formed session id nobody was given: 122 random bits, as the service's ids.
fn unknown_session_id() -> String {
    use std::hash::{BuildHasher, Hasher};
    let random = || {
        std::collections::hash_map::RandomState::new()
            .build_hasher()
            .finish()
    };
    let (a, b) = (random(), random());
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | ((b >> 48) & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

/// `call` by `client` to `server`, `query` (`?t=…` or "") appended. An event stream that was
/// let through is not read to its end: its status says enough.
async fn answer(client: &Client, server: &Server, call: &Call, query: &str) -> Answer {
    let url = server.url(&format!("{}{query}", call.path));
    let request = client.request(call.method.clone(), url);
    let request = match call.body {
        Body::None => request,
        Body::Json(text) => request
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(text),
        Body::Image(name) => {
            let part = reqwest::multipart::Part::bytes(png()).file_name(name);
            request.multipart(reqwest::multipart::Form::new().part("file", part))
        }
    };
    let response = request.send().await.unwrap();
    let status = response.status();
    let streaming = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
    let body = if streaming {
        Vec::new()
    } else {
        response.bytes().await.unwrap().to_vec()
    };
    Answer { status, body }
}

async fn get(client: &Client, server: &Server, path: &str) -> Answer {
    answer(client, server, &Call::get(path.to_owned()), "").await
}

async fn post_json(client: &Client, server: &Server, path: &str, body: &Value) -> Answer {
    let response = client
        .post(server.url(path))
        .json(body)
        .send()
        .await
        .unwrap();
    Answer {
        status: response.status(),
        body: response.bytes().await.unwrap().to_vec(),
    }
}

async fn create_session(client: &Client, server: &Server) -> String {
    let created = answer(
        client,
        server,
        &Call::post("/api/session".into(), Body::None),
        "",
    )
    .await;
    assert_eq!(created.status, 200, "{}", created.text());
    created.json()["session_id"].as_str().unwrap().to_owned()
}

/// The names `/api/files/<id>` lists.
fn file_names(files: &Answer) -> Vec<String> {
    assert_eq!(files.status, 200, "{}", files.text());
    files.json()["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Every endpoint of `owner`'s session `id`, asked by `other`, answers exactly as the same
/// request on a session that does not exist; nothing `other` sent changed the session.
async fn assert_foreign_session_looks_unknown(
    server: &Server,
    owner: &Client,
    other: &Client,
    id: &str,
    calls: fn(&str, &str) -> Vec<Call>,
) {
    let before = get(owner, server, &format!("/api/files/{id}")).await;
    let unknown = unknown_session_id();
    let mut compared = 0;
    for (theirs, nobodys) in calls(id, "invoice.pdf")
        .iter()
        .zip(calls(&unknown, "invoice.pdf"))
    {
        let foreign = answer(other, server, theirs, "").await;
        let missing = answer(other, server, &nobodys, "").await;
        assert_eq!(
            foreign, missing,
            "{} {}: another's session must look unknown",
            theirs.method, theirs.path
        );
        foreign.assert_error(404, "会话不存在", &theirs.path);
        compared += 1;
    }
    // The phone page of a session is HTML, but must not tell either.
    let page = get(other, server, &format!("/mobile/{id}")).await;
    assert_eq!(
        page,
        get(other, server, &format!("/mobile/{unknown}")).await
    );
    assert_eq!(page.status, 404);
    assert!(compared >= 8, "only {compared} endpoints compared");
    let after = get(owner, server, &format!("/api/files/{id}")).await;
    assert_eq!(before, after, "the other user's uploads did not land");
}

/// Starts processing `id` as `client` with the settings of [`processing_settings`] (张三).
async fn start_processing(client: &Client, server: &Server, id: &str) {
    let path = format!("/api/process/{id}");
    let started = post_json(client, server, &path, &processing_settings("张三")).await;
    assert_eq!(started.status, 200, "{}", started.text());
}

/// The finance-portal settings a user sends with a processing request.
fn processing_settings(default_name: &str) -> Value {
    json!({
        "username": "20240001",
        "password": FINANCE_SECRET,
        "default_name": default_name,
    })
}

/// Claims as a submission leaves them in the running service's ledger, one accepted for
/// alice and one for bob: their ids.
async fn seed_claims(data: &Path) -> (i64, i64) {
    let path = data.join("ledger.sqlite3");
    // The ledger blocks on its own runtime: never on this test's async thread.
    tokio::task::spawn_blocking(move || {
        let ledger = Ledger::open_sqlite(&path).unwrap();
        let claim = |owner: &str, claimant: &str, number: &str, claim_no: &str| {
            let draft = ClaimDraft {
                portal: "demo".into(),
                kind: "general".into(),
                staff_no: format!("{owner}-001"),
                claimant: claimant.into(),
                session_id: unknown_session_id(),
                total_cents: 12_300,
                invoices: vec![InvoiceEntry {
                    key: invoice_key("", number),
                    number: number.into(),
                    code: String::new(),
                    date: "2026-03-01".into(),
                    amount_cents: 12_300,
                    seller: "某某文具店".into(),
                    sha256: String::new(),
                }],
                owner: owner.into(),
            };
            let id = ledger.reserve(&draft).unwrap();
            ledger.accept(id, claim_no).unwrap();
            id.0
        };
        (
            claim("alice", "张三", "26110000000000000001", "BX20260301-0001"),
            claim("bob", "李四", "26110000000000000002", "BX20260301-0002"),
        )
    })
    .await
    .unwrap()
}

/// The ids `GET /api/claims` lists for `client`.
async fn listed_claims(client: &Client, server: &Server) -> Vec<i64> {
    let list = get(client, server, "/api/claims").await;
    assert_eq!(list.status, 200, "{}", list.text());
    let mut ids: Vec<i64> = list.json()["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    ids
}

/// A staff user's view of the ledger: their own claim only, and no voiding.
async fn assert_staff_sees_only_their_claim(
    staff: &Client,
    server: &Server,
    own: i64,
    others: i64,
) {
    assert_eq!(listed_claims(staff, server).await, vec![own]);
    assert_eq!(
        get(staff, server, &format!("/api/claims/{own}"))
            .await
            .status,
        200
    );
    get(staff, server, &format!("/api/claims/{others}"))
        .await
        .assert_error(404, "报销台账中没有这张报销单", "another's claim");
    let export = get(staff, server, "/api/claims/export.csv").await;
    assert_eq!(export.status, 200);
    assert!(
        export.text().contains("BX20260301-0001"),
        "{}",
        export.text()
    );
    assert!(
        !export.text().contains("BX20260301-0002"),
        "{}",
        export.text()
    );
    post_json(
        staff,
        server,
        &format!("/api/claims/{own}/void"),
        &json!({"reason": "填错了"}),
    )
    .await
    .assert_error(403, "只有财务人员可以作废报销单", "staff voids");
    get(staff, server, "/api/audit").await.assert_error(
        403,
        "只有财务人员可以查看",
        "staff reads the audit trail",
    );
}

/// A finance user's view: every claim, both in the export, and voiding in their own name.
async fn assert_finance_sees_all_and_voids(
    finance: &Client,
    server: &Server,
    claims: (i64, i64),
    voider: &str,
) {
    assert_eq!(
        listed_claims(finance, server).await,
        vec![claims.0, claims.1]
    );
    let export = get(finance, server, "/api/claims/export.csv").await;
    assert_eq!(export.status, 200);
    for claim_no in ["BX20260301-0001", "BX20260301-0002"] {
        assert!(export.text().contains(claim_no), "{}", export.text());
    }
    let voided = post_json(
        finance,
        server,
        &format!("/api/claims/{}/void", claims.1),
        &json!({"reason": "财务处退回：附件不全", "by": "冒名顶替"}),
    )
    .await;
    assert_eq!(voided.status, 200, "{}", voided.text());
    let detail = get(finance, server, &format!("/api/claims/{}", claims.1))
        .await
        .json();
    assert_eq!(detail["summary"]["status"], "voided", "{detail}");
    assert_eq!(detail["voided"]["by"], voider, "signed as who signed in");
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle.as_bytes())
}

/// Seconds since the epoch.
fn now_unix() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

/// The upload token of session `id`'s phone link, from its owner's `/api/mobile-url`.
async fn phone_token(owner: &Client, server: &Server, id: &str) -> String {
    let phone = get(owner, server, &format!("/api/mobile-url/{id}")).await;
    assert_eq!(phone.status, 200, "{}", phone.text());
    let phone = phone.json();
    let url = phone["url"].as_str().unwrap();
    assert!(url.contains(&format!("/mobile/{id}?t=")), "{phone}");
    assert_eq!(phone["expires_in"], 3, "{phone}");
    url.split("?t=").nth(1).unwrap().to_owned()
}

// ---------------------------------------------------------------------------------------
// local

#[tokio::test]
async fn signed_out_nothing_but_the_sign_in_page_answers() {
    let service = local_service();
    let server = &service.server;
    let alice = sign_in(server, &ALICE).await;
    let id = create_session(&alice, server).await;
    let nobody = anonymous();

    let front = get(&nobody, server, "/").await;
    assert_eq!(front.status, 303);
    let to_login = nobody.get(server.url("/")).send().await.unwrap();
    assert_eq!(to_login.headers()[reqwest::header::LOCATION], "/login");
    for public in ["/login", "/assets/app.css", "/favicon.ico"] {
        assert_eq!(get(&nobody, server, public).await.status, 200, "{public}");
    }
    let me = get(&nobody, server, "/api/auth/me").await.json();
    assert_eq!(me["mode"], "local", "{me}");
    assert_eq!(me["signed_in"], false, "{me}");

    // Whatever the id, a real one or not: the same 401, so ids cannot be probed either.
    let unknown = unknown_session_id();
    let mut calls = session_calls(&id, "invoice.pdf");
    calls.extend(session_calls(&unknown, "invoice.pdf"));
    calls.extend([
        Call::post("/api/session".into(), Body::None),
        Call::get("/api/claims".into()),
        Call::get("/api/claims/1".into()),
        Call::get("/api/claims/export.csv".into()),
        Call::get("/api/claims/export.xlsx".into()),
        Call::post("/api/claims/1/void".into(), Body::Json(r#"{"reason":"x"}"#)),
        Call::get("/api/audit".into()),
        Call::get("/api/audit/export.csv".into()),
        Call::get("/no/such/path".into()),
    ]);
    for call in &calls {
        answer(&nobody, server, call, "").await.assert_error(
            401,
            "请先登录",
            &format!("{} {}", call.method, call.path),
        );
    }
    // The phone page without its token is the page of a link that no longer works, alike for
    // a real session and an unknown one.
    let page = get(&nobody, server, &format!("/mobile/{id}")).await;
    assert_eq!(
        page,
        get(&nobody, server, &format!("/mobile/{unknown}")).await
    );
    assert_eq!(page.status, 404);
}

#[tokio::test]
async fn the_sign_in_cookie_is_http_only_and_same_site_strict() {
    let service = local_service();
    let server = &service.server;
    let response = login(server, ALICE.name, ALICE.password).await;
    assert_eq!(response.status(), 200);
    let set_cookie = response.headers()[reqwest::header::SET_COOKIE]
        .to_str()
        .unwrap()
        .to_owned();
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body,
        json!({"ok": true, "username": "alice", "display_name": "张三", "finance": false})
    );
    let attributes: Vec<String> = set_cookie
        .split(';')
        .map(|a| a.trim().to_ascii_lowercase())
        .collect();
    for wanted in ["httponly", "samesite=strict", "path=/"] {
        assert!(
            attributes.iter().any(|a| a == wanted),
            "{wanted} missing: {set_cookie}"
        );
    }
    let wrong = login(server, ALICE.name, "not-her-password").await;
    assert_eq!(wrong.status(), 401);
    assert!(wrong.headers().get(reqwest::header::SET_COOKIE).is_none());
}

#[tokio::test]
async fn another_users_session_answers_as_an_unknown_one() {
    let service = local_service();
    let server = &service.server;
    let alice = sign_in(server, &ALICE).await;
    let bob = sign_in(server, &BOB).await;
    let id = create_session(&alice, server).await;
    server
        .upload(
            &alice,
            &id,
            "invoice.pdf",
            fixture("digital_normal_single.pdf"),
        )
        .await;
    server.upload(&alice, &id, "payment.png", png()).await;

    assert_foreign_session_looks_unknown(server, &alice, &bob, &id, session_calls).await;

    // The owner is answered: not one of her reads looks like an unknown session.
    for call in session_reads(&id, "invoice.pdf") {
        let own = answer(&alice, server, &call, "").await;
        assert_ne!(
            own.json_or_null()["error"],
            "会话不存在",
            "{}: {}",
            call.path,
            own.text()
        );
        assert_ne!(own.status, 401, "{}", call.path);
    }
    let files = file_names(&get(&alice, server, &format!("/api/files/{id}")).await);
    assert_eq!(files, ["invoice.pdf", "payment.png"]);
    let download = get(&alice, server, &format!("/api/download/{id}/invoice.pdf")).await;
    assert_eq!(download.body, fixture("digital_normal_single.pdf"));
    let config = get(&alice, server, &format!("/api/config/{id}"))
        .await
        .json();
    assert_ne!(
        config["default_name"], "冒名",
        "bob's processing did not reach it"
    );
}

#[tokio::test]
async fn the_phone_link_opens_one_session_until_it_expires() {
    let service = local_service();
    let server = &service.server;
    let alice = sign_in(server, &ALICE).await;
    let bob = sign_in(server, &BOB).await;
    let id = create_session(&alice, server).await;
    let bobs = create_session(&bob, server).await;
    let phone = anonymous();

    // Fresh tokens for the steps that must succeed: the link lives only 3 s here.
    let token = phone_token(&alice, server, &id).await;
    let t = format!("?t={token}");
    let page = answer(&phone, server, &Call::get(format!("/mobile/{id}")), &t).await;
    assert_eq!(page.status, 200, "{}", page.text());
    let upload = Call::post(
        format!("/api/mobile-upload/{id}"),
        Body::Image("receipt.png"),
    );
    let uploaded = answer(&phone, server, &upload, &t).await;
    assert_eq!(uploaded.status, 200, "{}", uploaded.text());
    let files = Call::get(format!("/api/files/{id}"));
    let listed = answer(&phone, server, &files, &t).await;
    assert_eq!(file_names(&listed), ["receipt.png"]);
    // The header works as the query does.
    let by_header = phone
        .get(server.url(&format!("/api/files/{id}")))
        .header("x-upload-token", &token)
        .send()
        .await
        .unwrap();
    assert_eq!(by_header.status(), 200);

    // Another session with this token: unknown. Not a phone route: not signed in.
    for call in [
        Call::get(format!("/api/files/{bobs}")),
        Call::post(format!("/api/mobile-upload/{bobs}"), Body::Image("x.png")),
    ] {
        answer(&phone, server, &call, &t)
            .await
            .assert_error(404, "会话不存在", &call.path);
    }
    let bobs_page = answer(&phone, server, &Call::get(format!("/mobile/{bobs}")), &t).await;
    assert_eq!(bobs_page.status, 404);
    for path in [
        format!("/api/data/{id}"),
        format!("/api/config/{id}"),
        format!("/api/download/{id}/receipt.png"),
        format!("/api/logs/{id}"),
    ] {
        answer(&phone, server, &Call::get(path.clone()), &t)
            .await
            .assert_error(401, "请先登录", &path);
    }
    let other_upload = Call::post(format!("/api/upload/{id}"), Body::Image("x.png"));
    answer(&phone, server, &other_upload, &t)
        .await
        .assert_error(401, "请先登录", "the desktop upload");
    let bobs_files = file_names(&get(&bob, server, &format!("/api/files/{bobs}")).await);
    assert!(bobs_files.is_empty(), "{bobs_files:?}");

    // Expired: the token says until when (`<expiry>.<tag>`).
    let expires: u64 = token.split('.').next().unwrap().parse().unwrap();
    while now_unix() < expires {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let expired = "上传链接已过期，请在电脑上刷新二维码";
    answer(&phone, server, &upload, &t)
        .await
        .assert_error(403, expired, "upload after expiry");
    answer(&phone, server, &files, &t)
        .await
        .assert_error(403, expired, "files after expiry");
    let page = answer(&phone, server, &Call::get(format!("/mobile/{id}")), &t).await;
    assert_eq!(page.status, 403);
    assert!(page.text().contains("上传链接已过期"), "{}", page.text());
    // A fresh link works again.
    let fresh = format!("?t={}", phone_token(&alice, server, &id).await);
    assert_eq!(answer(&phone, server, &files, &fresh).await.status, 200);
}

#[tokio::test]
async fn failed_sign_ins_slow_the_account_not_the_colleagues() {
    let service = local_service();
    let server = &service.server;
    let mut statuses = Vec::new();
    for attempt in 0..20 {
        let response = login(server, ALICE.name, &format!("wrong-guess-{attempt}")).await;
        let status = response.status();
        let error: Value = response.json().await.unwrap();
        match status.as_u16() {
            401 => assert_eq!(error, json!({"error": "用户名或密码错误"})),
            429 => {
                let text = error["error"].as_str().unwrap();
                assert!(text.starts_with("登录失败次数过多"), "{text}");
            }
            other => panic!("attempt {attempt}: {other} {error}"),
        }
        statuses.push(status.as_u16());
    }
    // The allowance of 5, then waits (an attempt that comes after a wait counts again).
    assert_eq!(statuses[..5], [401; 5], "{statuses:?}");
    assert_eq!(statuses[5], 429, "{statuses:?}");
    assert_eq!(statuses[19], 429, "{statuses:?}");

    let right = login(server, ALICE.name, ALICE.password).await;
    assert_eq!(right.status(), 429, "even the right password waits");
    let retry_after: u64 = right.headers()[reqwest::header::RETRY_AFTER]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry_after >= 1, "{retry_after}");
    assert!(right.headers().get(reqwest::header::SET_COOKIE).is_none());

    let colleague = login(server, BOB.name, BOB.password).await;
    assert_eq!(colleague.status(), 200, "same address, another account");
}

#[tokio::test]
async fn no_password_is_kept_or_logged_in_clear() {
    let service = local_service();
    let server = &service.server;
    let wrong_guess = "Wrong-Guess-999";
    assert_eq!(login(server, ALICE.name, wrong_guess).await.status(), 401);
    let alice = sign_in(server, &ALICE).await;
    sign_in(server, &BOB).await;
    sign_in(server, &CAROL).await;
    let id = create_session(&alice, server).await;
    server
        .upload(
            &alice,
            &id,
            "invoice.pdf",
            fixture("digital_normal_single.pdf"),
        )
        .await;
    start_processing(&alice, server, &id).await;
    // The run's end: everything it writes (config, table, logs) is written.
    let events = common::events_until_done_as(&alice, &server.base, &id).await;
    assert_eq!(events.last().unwrap()["type"], "done");
    // A new session starts from her sealed defaults: read back, still without the password.
    let next = create_session(&alice, server).await;
    let config = get(&alice, server, &format!("/api/config/{next}"))
        .await
        .json();
    assert_eq!(config["password"], "", "{config}");

    let path = service.data.join("ledger.sqlite3");
    let users =
        tokio::task::spawn_blocking(move || Ledger::open_sqlite(&path).unwrap().users().unwrap())
            .await
            .unwrap();
    assert_eq!(users.len(), 3);
    for user in &users {
        assert!(
            user.password_hash.starts_with("$argon2id$"),
            "{}: {}",
            user.username,
            user.password_hash
        );
    }

    let secrets = [
        ALICE.password,
        BOB.password,
        CAROL.password,
        wrong_guess,
        FINANCE_SECRET,
    ];
    let files = files_under(&service.data);
    assert!(
        files.iter().any(|f| f.ends_with("ledger.sqlite3")),
        "{files:?}"
    );
    // The scan sees what was written: the accounts' names are there, in clear.
    let everything: Vec<u8> = files
        .iter()
        .flat_map(|file| std::fs::read(file).unwrap())
        .collect();
    assert!(
        contains(&everything, "财务王五"),
        "the scan reads the database"
    );
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        for secret in secrets {
            assert!(!contains(&bytes, secret), "{secret} in {}", file.display());
        }
    }
    let log = server.log.lock().unwrap().clone();
    assert!(log.contains("sign-in"), "the log is kept: {log}");
    for secret in secrets {
        assert!(!log.contains(secret), "{secret} in the service's log");
    }
}

#[tokio::test]
async fn staff_see_their_own_claims_and_finance_all_with_the_audit_trail() {
    let service = local_service();
    let server = &service.server;
    assert_eq!(
        login(server, BOB.name, "not-bobs-password").await.status(),
        401
    );
    let alice = sign_in(server, &ALICE).await;
    let carol = sign_in(server, &CAROL).await;
    let id = create_session(&alice, server).await;
    start_processing(&alice, server, &id).await;
    let claims = seed_claims(&service.data).await;

    assert_staff_sees_only_their_claim(&alice, server, claims.0, claims.1).await;
    assert_finance_sees_all_and_voids(&carol, server, claims, CAROL.display).await;

    let trail = get(&carol, server, "/api/audit").await;
    assert_eq!(trail.status, 200, "{}", trail.text());
    let entries = trail.json()["entries"].as_array().unwrap().clone();
    // Newest first: the entry of `action` by `user`.
    let find = |action: &str, user: &str| {
        entries
            .iter()
            .find(|e| e["action"] == action && e["username"] == user)
            .unwrap_or_else(|| panic!("no {action} by {user} in {entries:?}"))
            .clone()
    };
    for user in ["alice", "carol"] {
        assert_eq!(find("sign_in", user)["address"], "127.0.0.1");
    }
    find("sign_in_failed", "bob");
    assert_eq!(find("session_created", "alice")["session_id"], id.as_str());
    assert_eq!(find("process_started", "alice")["session_id"], id.as_str());
    let changed = find("config_changed", "alice");
    let detail = changed["detail"].as_str().unwrap();
    for field in ["username", "password", "default_name"] {
        assert!(detail.contains(field), "{changed}");
    }
    for value in [FINANCE_SECRET, "20240001", "张三"] {
        assert!(!detail.contains(value), "a value in the trail: {changed}");
    }
    // Written by the ledger itself, in the owner's name.
    assert_eq!(
        find("claim_accepted", "alice")["detail"],
        "BX20260301-0001",
        "{entries:?}"
    );
    let voided = find("claim_voided", "carol");
    assert!(
        voided["detail"].as_str().unwrap().contains("附件不全"),
        "{voided}"
    );
    assert!(!trail.text().contains(FINANCE_SECRET), "{}", trail.text());

    let export = get(&carol, server, "/api/audit/export.csv").await;
    assert_eq!(export.status, 200);
    assert!(export.text().contains("claim_voided"), "{}", export.text());
    get(&alice, server, "/api/audit/export.csv")
        .await
        .assert_error(403, "只有财务人员可以查看", "staff exports the trail");
}

#[tokio::test]
async fn signing_out_ends_the_sign_in_on_the_server() {
    let service = local_service();
    let server = &service.server;
    let response = login(server, ALICE.name, ALICE.password).await;
    let cookie = login_cookie(&response);
    let alice = with_cookie(&cookie);
    let me = get(&alice, server, "/api/auth/me").await.json();
    assert_eq!(me["signed_in"], true, "{me}");
    assert_eq!(me["display_name"], "张三", "{me}");

    let out = alice
        .post(server.url("/api/auth/logout"))
        .send()
        .await
        .unwrap();
    assert_eq!(out.status(), 200);
    let cleared = out.headers()[reqwest::header::SET_COOKIE]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(cleared.starts_with("reimburse_login=;"), "{cleared}");

    // The old value, kept by whoever copied it, no longer opens anything.
    let old = with_cookie(&cookie);
    answer(
        &old,
        server,
        &Call::post("/api/session".into(), Body::None),
        "",
    )
    .await
    .assert_error(401, "请先登录", "the old cookie");
    let me = get(&old, server, "/api/auth/me").await.json();
    assert_eq!(me["signed_in"], false, "{me}");
}

#[tokio::test]
async fn a_new_session_starts_from_its_users_own_defaults() {
    let service = local_service();
    let server = &service.server;
    let alice = sign_in(server, &ALICE).await;
    let bob = sign_in(server, &BOB).await;
    let first = create_session(&alice, server).await;
    start_processing(&alice, server, &first).await;

    let next = create_session(&alice, server).await;
    let hers = get(&alice, server, &format!("/api/config/{next}"))
        .await
        .json();
    assert_eq!(hers["default_name"], "张三", "{hers}");
    assert_eq!(hers["username"], "20240001", "{hers}");
    assert_eq!(hers["password"], "", "{hers}");

    let bobs = create_session(&bob, server).await;
    let his = get(&bob, server, &format!("/api/config/{bobs}"))
        .await
        .json();
    assert_eq!(his["default_name"], "", "{his}");
    assert_eq!(his["username"], "", "{his}");
}

// ---------------------------------------------------------------------------------------
// proxy

#[tokio::test]
async fn behind_the_proxy_its_header_names_the_user() {
    let service = service(PROXY, &[], &[]);
    let server = &service.server;
    let alice = via_proxy(PROXY_ADDRESS, "alice", false);
    let bob = via_proxy(PROXY_ADDRESS, "bob", false);
    let carol = via_proxy(PROXY_ADDRESS, "carol", true);
    let me = get(&carol, server, "/api/auth/me").await.json();
    assert_eq!(me["mode"], "proxy", "{me}");
    assert_eq!(me["username"], "carol", "{me}");
    assert_eq!(me["finance"], true, "{me}");

    let id = create_session(&alice, server).await;
    server
        .upload(
            &alice,
            &id,
            "invoice.pdf",
            fixture("digital_normal_single.pdf"),
        )
        .await;
    // A representative set: reads, the stream, the download, an upload and a job start.
    let representative = |id: &str, file: &str| -> Vec<Call> {
        session_calls(id, file)
            .into_iter()
            .filter(|call| {
                [
                    "/api/files/",
                    "/api/config/",
                    "/api/data/",
                    "/api/logs/",
                    "/api/download/",
                    "/api/mobile-url/",
                    "/api/upload/",
                    "/api/mobile-upload/",
                    "/api/process/",
                    "/api/agent/force-submit/",
                ]
                .iter()
                .any(|prefix| call.path.starts_with(prefix))
            })
            .collect()
    };
    assert_foreign_session_looks_unknown(server, &alice, &bob, &id, representative).await;
    let files = file_names(&get(&alice, server, &format!("/api/files/{id}")).await);
    assert_eq!(files, ["invoice.pdf"]);

    let claims = seed_claims(&service.data).await;
    assert_staff_sees_only_their_claim(&alice, server, claims.0, claims.1).await;
    // Without sign-in accounts, the name shown is the one the proxy gave: the user's.
    assert_finance_sees_all_and_voids(&carol, server, claims, "carol").await;
    assert_eq!(get(&carol, server, "/api/audit").await.status, 200);
}

#[tokio::test]
async fn the_identity_header_from_anyone_but_the_proxy_is_refused() {
    let service = service(PROXY, &[], &[]);
    let server = &service.server;
    let alice = via_proxy(PROXY_ADDRESS, "alice", false);
    let id = create_session(&alice, server).await;
    server
        .upload(
            &alice,
            &id,
            "invoice.pdf",
            fixture("digital_normal_single.pdf"),
        )
        .await;
    let loopback = IpAddr::V4(Ipv4Addr::LOCALHOST);

    // Straight to the service, naming alice (and claiming finance): every kind of endpoint,
    // her own session's included, refuses it.
    let forger = via_proxy(loopback, "alice", true);
    let mut calls = session_calls(&id, "invoice.pdf");
    calls.extend([
        Call::get("/".into()),
        Call::get(format!("/mobile/{id}")),
        Call::get("/login".into()),
        Call::get("/api/auth/me".into()),
        Call::post("/api/session".into(), Body::None),
        Call::get("/api/claims".into()),
        Call::get("/api/claims/export.csv".into()),
        Call::get("/api/audit".into()),
        Call::get(format!("/api/files/{}", unknown_session_id())),
    ]);
    for call in &calls {
        answer(&forger, server, call, "").await.assert_error(
            403,
            "身份头只接受来自反向代理的请求",
            &format!("{} {}", call.method, call.path),
        );
    }
    let files = file_names(&get(&alice, server, &format!("/api/files/{id}")).await);
    assert_eq!(files, ["invoice.pdf"], "the forged uploads did not land");

    // From the proxy, without a user: nobody signed in.
    let unnamed = client_with(HeaderMap::new(), Some(PROXY_ADDRESS));
    for call in [
        Call::post("/api/session".into(), Body::None),
        Call::get("/api/claims".into()),
        Call::get(format!("/api/files/{id}")),
    ] {
        answer(&unnamed, server, &call, "")
            .await
            .assert_error(401, "请先登录", &call.path);
    }
    assert_eq!(get(&unnamed, server, "/").await.status, 303);
    let header = HeaderName::from_static("x-remote-user");
    let blank = unnamed
        .post(server.url("/api/session"))
        .header(header, "  ")
        .send()
        .await
        .unwrap();
    assert_eq!(blank.status(), 401, "a blank name is nobody");
}

// ---------------------------------------------------------------------------------------
// none

/// `/api/auth/me` of a service in the default mode started with `extra`, asked on loopback.
async fn me_in_none_mode(extra: &[&str]) -> (Value, String) {
    let service = service("", &[], extra);
    let port = service.server.base.rsplit(':').next().unwrap().to_owned();
    let me = common::json_of(anonymous().get(format!("http://127.0.0.1:{port}/api/auth/me"))).await;
    let log = service.server.log.lock().unwrap().clone();
    (me, log)
}

#[tokio::test]
async fn without_sign_in_the_service_warns_only_beyond_loopback() {
    let (me, log) = me_in_none_mode(&[]).await;
    assert_eq!(me["mode"], "none", "{me}");
    assert_eq!(me["signed_in"], false, "{me}");
    assert_eq!(me["warning"], Value::Null, "{me}");
    assert!(!log.contains("sign-in is off"), "{log}");

    let (me, log) = me_in_none_mode(&["--addr", "0.0.0.0:0"]).await;
    assert_eq!(me["mode"], "none", "{me}");
    let warning = me["warning"].as_str().unwrap_or_default();
    assert!(warning.contains("mode = none"), "{me}");
    assert!(log.contains("sign-in is off"), "{log}");
}
