//! The browser against the real binary: the finance password never reaches a file, a
//! `kill -9` during a submission leaves no browser, no browser folder and no hung agent state
//! once the service is back, parallel submissions share a bounded pool of browsers, and OFD
//! and XML invoices reach the portal as attachments.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Server, fixture, start_with};
use demo_portal::{Account, DEMO_DISPLAY_NAME, DEMO_EMPLOYEE_NO, PortalConfig, PortalThread};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::ffi::OsString;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The message a cut-off run ends with (session-store's `INTERRUPTED_MESSAGE`).
const INTERRUPTED: &str = "服务已重启，上次任务被中断，请重新开始";

fn start_portal(password: &str) -> PortalThread {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let config = PortalConfig {
        accounts: vec![Account::new(DEMO_EMPLOYEE_NO, password, DEMO_DISPLAY_NAME)],
        ..PortalConfig::default()
    };
    demo_portal::spawn(listener, config).unwrap()
}

/// A data dir whose service submits to `portal`, with `finance_extra` lines in `[finance]`.
fn data_dir(root: &Path, portal: &PortalThread, finance_extra: &str) -> PathBuf {
    common::configured_data_dir(
        root,
        &format!("base_url = {:?}\n{finance_extra}", portal.base_url()),
    )
}

fn start(data: &Path) -> Server {
    start_with(data, data, &["--no-portal"])
}

fn config(password: &str) -> Value {
    json!({"username": DEMO_EMPLOYEE_NO, "password": password, "default_name": "张三",
           "consumable_storage": "实验楼 301"})
}

async fn post(server: &Server, path: &str, body: Value) {
    let response = reqwest::Client::new()
        .post(server.url(path))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
}

async fn get_json(url: &str) -> Value {
    reqwest::get(url).await.unwrap().json().await.unwrap()
}

/// Build caches (a cargo target dir, marked by the standard `CACHEDIR.TAG`) and git stores
/// are not where a running service writes; a clone's target dir under /tmp would make every
/// scan take minutes.
fn is_cache(dir: &Path) -> bool {
    dir.join("CACHEDIR.TAG").is_file() || dir.file_name().is_some_and(|n| n == ".git")
}

/// Files under `roots` holding `secret` (as UTF-8 or UTF-16LE, the way Chromium stores some
/// strings), and problems with the chromedriver logs met on the way.
#[derive(Debug, Default)]
struct Scan {
    holding_secret: Vec<PathBuf>,
    driver_logs: Vec<PathBuf>,
    bad_driver_logs: Vec<String>,
}

fn scan(roots: &[&Path], secret: &str, typed: &[&str]) -> Scan {
    let utf16: Vec<u8> = secret.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let needles = [secret.as_bytes().to_vec(), utf16];
    let mut found = Scan::default();
    let mut stack: Vec<PathBuf> = roots.iter().map(|r| r.to_path_buf()).collect();
    while let Some(path) = stack.pop() {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            if is_cache(&path) {
                continue;
            }
            if let Ok(entries) = std::fs::read_dir(&path) {
                stack.extend(entries.flatten().map(|e| e.path()));
            }
            continue;
        }
        // Regular files only (a FIFO would block), and nothing huge.
        if !meta.is_file() || meta.len() > 256 * 1024 * 1024 {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let holds = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
        if needles.iter().any(|n| holds(n)) {
            found.holding_secret.push(path.clone());
        }
        if path.file_name().is_some_and(|n| n == "chromedriver.log") {
            let mode = meta.permissions().mode() & 0o777;
            if mode != 0o600 {
                found
                    .bad_driver_logs
                    .push(format!("{} has mode {mode:o}", path.display()));
            }
            for text in typed.iter().filter(|t| holds(t.as_bytes())) {
                found
                    .bad_driver_logs
                    .push(format!("{} holds typed text {text}", path.display()));
            }
            found.driver_logs.push(path);
        }
    }
    found
}

/// Scans over and over on a thread of its own until stopped, so that the test's own timing
/// does not wait on the scans; keeps what any round found.
struct Scanner {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<(Scan, usize)>,
}

impl Scanner {
    fn start(roots: Vec<PathBuf>, secret: String) -> Self {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopping = std::sync::Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let roots: Vec<&Path> = roots.iter().map(PathBuf::as_path).collect();
            let mut all = Scan::default();
            let mut rounds = 0;
            while !stopping.load(std::sync::atomic::Ordering::SeqCst) {
                let found = scan(&roots, &secret, &TYPED);
                all.holding_secret.extend(found.holding_secret);
                all.driver_logs.extend(found.driver_logs);
                all.bad_driver_logs.extend(found.bad_driver_logs);
                rounds += 1;
            }
            (all, rounds)
        });
        Self { stop, thread }
    }

    fn finish(self) -> (Scan, usize) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        self.thread.join().unwrap()
    }
}

/// Text the bot types besides the password.
const TYPED: [&str; 2] = [DEMO_EMPLOYEE_NO, "张三"];

/// Processes of browsers started for `data` (their command line or environment names a run
/// folder under its work dir), zombies aside.
fn browser_processes(data: &Path) -> Vec<(u32, String)> {
    let marker = data.join("tmp/finance-bot-").display().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let read = |file: &str| std::fs::read(entry.path().join(file)).unwrap_or_default();
        let carries = |bytes: &[u8]| String::from_utf8_lossy(bytes).contains(&marker);
        let cmdline = read("cmdline");
        let zombie = String::from_utf8_lossy(&read("stat"))
            .rsplit(") ")
            .next()
            .is_some_and(|s| s.starts_with('Z'));
        if !zombie && (carries(&cmdline) || carries(&read("environ"))) {
            found.push((pid, String::from_utf8_lossy(&cmdline).replace('\0', " ")));
        }
    }
    found
}

/// Browsers running: the run folders that Chromium main processes (helpers carry `--type=`)
/// use. By folder, not by process: a loaded machine can make chromedriver launch a slow
/// Chromium a second time within one session.
fn running_browsers(data: &Path) -> usize {
    let folders: HashSet<String> = browser_processes(data)
        .iter()
        .filter(|(_, cmdline)| cmdline.contains("--user-data-dir=") && !cmdline.contains("--type="))
        .filter_map(|(_, cmdline)| {
            let start = cmdline.find("finance-bot-")?;
            Some(cmdline[start..].chars().take_while(|c| *c != '/').collect())
        })
        .collect();
    folders.len()
}

fn tmp_entries() -> HashSet<OsString> {
    std::fs::read_dir("/tmp")
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect()
}

/// What a browser would leave directly in /tmp: its run folder, Chromium's and chromedriver's
/// temporary files.
fn is_browser_leftover(name: &OsString) -> bool {
    let name = name.to_string_lossy();
    [
        "finance-bot-",
        ".org.chromium.",
        ".com.google.Chrome",
        "scoped_dir",
    ]
    .iter()
    .any(|prefix| name.starts_with(prefix))
}

fn session_log(data: &Path, id: &str) -> String {
    std::fs::read_to_string(data.join("sessions").join(id).join("session.log")).unwrap_or_default()
}

fn assert_clean(what: &str, scan: &Scan, logs: &str, secret: &str) {
    assert!(
        scan.holding_secret.is_empty(),
        "{what}: the password is in {:?}",
        scan.holding_secret
    );
    assert!(
        scan.bad_driver_logs.is_empty(),
        "{what}: {:?}",
        scan.bad_driver_logs
    );
    assert!(
        !logs.contains(secret),
        "{what}: the password is in the service's log"
    );
}

#[tokio::test]
async fn the_password_never_reaches_a_file_and_a_crash_leaves_no_browser_behind() {
    let password = format!(
        "Pw{}q{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    );
    let portal = start_portal(&password);
    let dir = tempfile::tempdir().unwrap();
    let data = data_dir(dir.path(), &portal, "");
    let tmp_before = tmp_entries();
    let roots = [Path::new("/tmp"), data.as_path()];
    let scanner = Scanner::start(
        roots.iter().map(|r| r.to_path_buf()).collect(),
        password.clone(),
    );

    // One claim submitted whole.
    let mut server = start(&data);
    let client = reqwest::Client::new();
    let id = server.create_session(&client).await;
    server
        .upload(
            &client,
            &id,
            "发票.pdf",
            fixture("digital_normal_single.pdf"),
        )
        .await;
    post(
        &server,
        &format!("/api/agent/process/{id}"),
        config(&password),
    )
    .await;
    let result = server.events_until_done(&id).await.last().unwrap()["result"].clone();
    assert_eq!(result["submit_ok"], true, "{result}");

    // Another, killed while the portal is slow to show its form (logged in, password typed).
    let hooks = json!({"delays": [{"page": "general_form", "ms": 15000}], "reject_all_with": null});
    let response = client
        .put(format!("{}/api/hooks", portal.base_url()))
        .json(&hooks)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let id = server.create_session(&client).await;
    server
        .upload(
            &client,
            &id,
            "发票.pdf",
            fixture("digital_normal_multi.pdf"),
        )
        .await;
    post(
        &server,
        &format!("/api/agent/process/{id}"),
        config(&password),
    )
    .await;
    let deadline = Instant::now() + Duration::from_secs(120);
    while !(session_log(&data, &id).contains("开始提交") && running_browsers(&data) > 0) {
        assert!(
            Instant::now() < deadline,
            "no submission started: {}",
            session_log(&data, &id)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Long enough to log in; the form then takes 15 s to come.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let state = get_json(&server.url(&format!("/api/agent/state/{id}"))).await;
    assert_eq!(
        state["state"],
        "submitting",
        "{state}\n{}",
        session_log(&data, &id)
    );
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    let old_log = server.log.lock().unwrap().clone();
    assert!(
        !old_log.contains(&password),
        "the password is in the service's log"
    );
    let (during, rounds) = scanner.finish();
    assert!(rounds >= 2, "only {rounds} scans ran");
    assert!(
        !during.driver_logs.is_empty(),
        "the scans never met a chromedriver log"
    );
    assert_clean("during the submissions", &during, "", &password);
    let found = scan(&roots, &password, &TYPED);
    assert_clean("after the kill", &found, "", &password);
    // chromedriver dies with the service and Chromium with chromedriver, restart or not.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !browser_processes(&data).is_empty() {
        assert!(
            Instant::now() < deadline,
            "browsers outlive the killed service: {:?}",
            browser_processes(&data)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    let restarted = start(&data);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !browser_processes(&data).is_empty() {
        assert!(
            Instant::now() < deadline,
            "browsers of the killed service still run: {:?}",
            browser_processes(&data)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let left: Vec<_> = std::fs::read_dir(data.join("tmp"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("finance-bot-"))
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "browser folders left: {left:?}");
    let new_in_tmp: Vec<_> = tmp_entries()
        .difference(&tmp_before)
        .filter(|name| is_browser_leftover(name))
        .cloned()
        .collect();
    assert!(
        new_in_tmp.is_empty(),
        "browser files in /tmp: {new_in_tmp:?}"
    );
    let state = get_json(&restarted.url(&format!("/api/agent/state/{id}"))).await;
    assert_eq!(state["state"], "error", "{state}");
    assert_eq!(state["error_message"], INTERRUPTED, "{state}");
    let found = scan(&roots, &password, &TYPED);
    assert_clean(
        "after the restart",
        &found,
        &restarted.log.lock().unwrap(),
        &password,
    );
}

/// General invoices with numbers of their own, so the portal files each claim.
const GENERAL_INVOICES: [&str; 10] = [
    "digital_normal_single.pdf",
    "digital_normal_multi.pdf",
    "digital_normal_discount.pdf",
    "digital_normal_spaced.pdf",
    "digital_normal_two_pages.pdf",
    "digital_normal_wrapped.pdf",
    "digital_special_kangxi.pdf",
    "general_machine.pdf",
    "shenzhen_blockchain.pdf",
    "vat_e_normal.pdf",
];

#[tokio::test]
async fn parallel_submissions_take_turns_for_the_pool_of_browsers() {
    let portal = start_portal(demo_portal::DEMO_PASSWORD);
    let dir = tempfile::tempdir().unwrap();
    let data = data_dir(dir.path(), &portal, "max_browsers = 2");
    let server = start(&data);
    let client = reqwest::Client::new();
    let mut ids = Vec::new();
    for name in GENERAL_INVOICES {
        let id = server.create_session(&client).await;
        server.upload(&client, &id, name, fixture(name)).await;
        post(
            &server,
            &format!("/api/process/{id}"),
            config(demo_portal::DEMO_PASSWORD),
        )
        .await;
        let result = server.events_until_done(&id).await.last().unwrap()["result"].clone();
        assert_eq!(result["ok"], true, "{name}: {result}");
        ids.push(id);
    }
    // The portal is slowed a little so that the submissions overlap.
    let hooks = json!({"delays": [{"page": "general_form", "ms": 1000}], "reject_all_with": null});
    client
        .put(format!("{}/api/hooks", portal.base_url()))
        .json(&hooks)
        .send()
        .await
        .unwrap();
    for id in &ids {
        post(&server, &format!("/api/submit-financial/{id}"), json!({})).await;
    }
    let streams: Vec<_> = ids
        .iter()
        .map(|id| {
            let (base, id) = (server.base.clone(), id.clone());
            tokio::spawn(async move { common::events_until_done_at(&base, &id).await })
        })
        .collect();
    let mut peak = 0;
    while streams.iter().any(|s| !s.is_finished()) {
        peak = peak.max(running_browsers(&data));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(peak <= 2, "{peak} browsers ran at once with a pool of 2");
    assert!(peak >= 1, "no browser was ever seen");
    let mut waited = 0;
    for (stream, name) in streams.into_iter().zip(GENERAL_INVOICES) {
        let events = stream.await.unwrap();
        let result = &events.last().unwrap()["result"];
        assert_eq!(result["submit_ok"], true, "{name}: {result}");
        let said_wait = events.iter().any(|e| {
            e["type"] == "log"
                && e["message"]
                    .as_str()
                    .unwrap_or_default()
                    .contains("排队等待")
        });
        waited += usize::from(said_wait);
    }
    assert!(waited >= 1, "no submission said it waited its turn");
    let claims = get_json(&format!("{}/api/claims", portal.base_url())).await;
    assert_eq!(claims["claims"].as_array().unwrap().len(), 10);
}

#[tokio::test]
async fn ofd_and_xml_invoices_are_attached_to_the_claim() {
    let portal = start_portal(demo_portal::DEMO_PASSWORD);
    let dir = tempfile::tempdir().unwrap();
    let data = data_dir(dir.path(), &portal, "");
    let server = start(&data);
    let client = reqwest::Client::new();
    let id = server.create_session(&client).await;
    let files = [
        "digital_normal_single.pdf",
        "digital_special_ofd.ofd",
        "digital_normal_xml.xml",
    ];
    for name in files {
        server.upload(&client, &id, name, fixture(name)).await;
    }
    post(
        &server,
        &format!("/api/process/{id}"),
        config(demo_portal::DEMO_PASSWORD),
    )
    .await;
    let result = server.events_until_done(&id).await.last().unwrap()["result"].clone();
    assert_eq!(result["ok"], true, "{result}");
    post(&server, &format!("/api/submit-financial/{id}"), json!({})).await;
    let result = server.events_until_done(&id).await.last().unwrap()["result"].clone();
    assert_eq!(result["submit_ok"], true, "{result}");
    let claims = get_json(&format!("{}/api/claims", portal.base_url())).await;
    let attachments: Vec<&str> = claims["claims"][0]["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["field"] == "invoice-files")
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    for name in files {
        assert!(
            attachments.contains(&name),
            "{name} not attached: {attachments:?}"
        );
    }
}
