//! Test harness: the demo portal on 127.0.0.1:0 in a runtime of its own, the shipped flow file
//! pointed at it, real little PDFs, and a lock so only one browser runs at a time.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    dead_code,
    reason = "test harness: failing loudly is the point, and each test binary uses a part of it"
)]

use demo_portal::{PortalConfig, serve};
use domain::{Password, SessionConfig};
use reimburse_finance_bot::{BotOptions, ClaimKind, FlowFile, Submission, WebDriverTarget};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
pub const PASSWORD: &str = "demo123";

/// One browser at a time: the machine is small, and the leak checks look at all children.
static BROWSER_LOCK: Mutex<()> = Mutex::new(());

pub fn browser_lock() -> MutexGuard<'static, ()> {
    BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Fails the test when Chromium or chromedriver is missing: a browser test that cannot run is
/// a failure, not a pass.
pub fn require_browser() {
    let missing: Vec<&str> = [CHROMIUM, CHROMEDRIVER]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    assert!(
        missing.is_empty(),
        "{} missing: cargo xtask install installs chromium, chromium-driver and fonts-noto-cjk",
        missing.join(", ")
    );
}

/// The demo portal, served until dropped.
pub struct Portal {
    pub base: String,
    runtime: tokio::runtime::Runtime,
}

impl Portal {
    pub fn start() -> Self {
        Self::start_with(PortalConfig::default())
    }

    pub fn start_with(config: PortalConfig) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let server = {
            let _guard = runtime.enter();
            serve(listener, config).unwrap()
        };
        runtime.spawn(server);
        Self { base, runtime }
    }

    pub fn claims(&self) -> Vec<Value> {
        let url = format!("{}/api/claims", self.base);
        self.runtime.block_on(async {
            let json: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
            json["claims"].as_array().unwrap().clone()
        })
    }
}

/// The flow file the project ships.
pub fn shipped_flow() -> FlowFile {
    FlowFile::load(&flow_path()).unwrap()
}

pub fn flow_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../flows/demo-portal.toml")
}

/// Options for a headless run against `portal`, screenshots and profiles under `dir`.
pub fn options(portal: &Portal, dir: &Path) -> BotOptions {
    BotOptions {
        webdriver: WebDriverTarget::Local {
            chromedriver_path: CHROMEDRIVER.into(),
            chromium_path: CHROMIUM.into(),
        },
        screenshot_dir: dir.join("screenshots"),
        step_timeout: Duration::from_secs(10),
        overall_timeout: Duration::from_secs(120),
        startup_timeout: Duration::from_secs(30),
        headless: true,
        base_url: Some(portal.base.clone()),
        work_dir: Some(dir.join("work")),
        person: None,
        on_read: None,
        before_final_submit: None,
    }
}

pub fn config(password: &str) -> SessionConfig {
    SessionConfig {
        username: "100001".into(),
        password: Password::new(password),
        default_name: "李四".into(),
        default_card_no: "6217000011112222".into(),
        default_person_id: "100001".into(),
        consumable_storage: "物理楼301".into(),
    }
}

/// A small but real PDF whose bytes differ by `tag`.
pub fn pdf(tag: &str) -> Vec<u8> {
    format!(
        "%PDF-1.4\n% {tag}\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n\
         2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n\
         trailer << /Root 1 0 R >>\n%%EOF\n"
    )
    .into_bytes()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Writes `bytes` to `dir/name` and returns the absolute path.
pub fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A row of the invoice table: all 13 columns, the given ones set.
pub fn row(cells: &[(&str, &str)]) -> BTreeMap<String, String> {
    let mut row: BTreeMap<String, String> = domain::COLUMNS
        .iter()
        .map(|c| ((*c).to_owned(), String::new()))
        .collect();
    for (k, v) in cells {
        row.insert((*k).to_owned(), (*v).to_owned());
    }
    row
}

/// A general claim of `rows` invoices (numbers `base`, `base+1`, …) with the given files.
pub fn general_submission(password: &str, rows: usize, invoices: Vec<PathBuf>) -> Submission {
    let mut s = Submission::new(ClaimKind::General, config(password));
    s.rows = (0..rows)
        .map(|i| {
            let number = format!("2544200000012345{:04}", 6789 + i);
            let card = i % 2 == 0;
            row(&[
                ("序号", &(i + 1).to_string()),
                ("发票号码", &number),
                ("开票日期", &format!("2026/11/{:02}", i % 28 + 1)),
                ("项目名称", &format!("*实验耗材*移液枪头{i}")),
                ("价税合计", &format!("{}.50", 100 + i)),
                ("销售方名称", "广州某某生物科技有限公司"),
                ("刷卡日期", if card { "2026/11/03" } else { "" }),
                ("公务卡号", if card { "6217000011112222" } else { "" }),
                (
                    "刷卡金额",
                    &(if card {
                        format!("{}.50", 100 + i)
                    } else {
                        String::new()
                    }),
                ),
            ])
        })
        .collect();
    s.files.invoices = invoices;
    s.extra.insert("purpose".into(), "购买实验耗材".into());
    s.extra.insert("department".into(), "物理学院".into());
    s
}

/// Child processes of this test process whose name starts with `name`.
pub fn children_named(name: &str) -> Vec<i32> {
    let me = std::process::id().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid: i32 = e.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            // pid (comm) state ppid …; comm may hold spaces, so split after the last ')'.
            let (head, tail) = stat.rsplit_once(')')?;
            let comm = head.split_once('(')?.1;
            let ppid = tail.split_whitespace().nth(1)?;
            (ppid == me && comm.starts_with(name)).then_some(pid)
        })
        .collect()
}

/// Processes whose command line mentions `marker` (e.g. Chromium with a profile under it).
pub fn processes_mentioning(marker: &Path) -> Vec<i32> {
    let marker = marker.display().to_string();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let pid: i32 = e.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            String::from_utf8_lossy(&cmdline)
                .contains(&marker)
                .then_some(pid)
        })
        .collect()
}
