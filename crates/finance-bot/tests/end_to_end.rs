//! End-to-end: the shipped flows/demo-portal.toml driven in real headless Chromium against the
//! demo portal, checking what the portal stored (or refused) and that no browser is left behind.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail by panicking"
)]

mod common;

use common::*;
use demo_portal::{Hooks, Page, PageDelay, PortalConfig};
use reimburse_finance_bot::{Bot, ClaimKind, ErrorKind, Submission, SubmitError};
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

/// What the portal should have stored for the rows of `submission` (general form).
fn expected_general_rows(submission: &Submission) -> Value {
    let dash = |d: &str| d.replace('/', "-");
    Value::Array(
        submission
            .rows
            .iter()
            .map(|r| {
                json!({
                    "invoice_number": r["发票号码"],
                    "invoice_date": dash(&r["开票日期"]),
                    "item_name": r["项目名称"],
                    "amount": r["价税合计"],
                    "seller_name": r["销售方名称"],
                    "card_date": dash(&r["刷卡日期"]),
                    "card_number": r["公务卡号"],
                    "card_amount": r["刷卡金额"],
                })
            })
            .collect(),
    )
}

fn attachment(field: &str, name: &str, bytes: &[u8]) -> Value {
    json!({"field": field, "name": name, "size": bytes.len(), "sha256": sha256_hex(bytes)})
}

/// A log sink for `tracing_subscriber::fmt().with_writer(..)`.
#[derive(Clone, Default)]
struct CapturedLogs(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl CapturedLogs {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl std::io::Write for CapturedLogs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for CapturedLogs {
    type Writer = Self;

    fn make_writer(&'a self) -> Self {
        self.clone()
    }
}

fn assert_screenshot(error: &SubmitError, dir: &Path) {
    let shot = error.screenshot.as_ref().expect("a screenshot");
    assert!(shot.starts_with(dir.join("screenshots")), "{shot:?}");
    let name = shot.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("submit-failure-") && name.ends_with(".png"),
        "{name}"
    );
    let bytes = std::fs::read(shot).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"), "not a PNG");
    assert!(error.to_string().contains(&shot.display().to_string()));
}

/// Nothing of the browser is left: no chromedriver child, no Chromium with our profile, and the
/// profile directory is gone.
fn assert_browser_gone(dir: &Path) {
    let work = dir.join("work");
    // Killed processes may take a moment to be reaped by init.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let drivers = children_named("chromedriver");
        let chromiums = processes_mentioning(&work);
        if drivers.is_empty() && chromiums.is_empty() {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "left over: chromedriver {drivers:?}, chromium {chromiums:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let leftovers: Vec<_> = std::fs::read_dir(&work)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(leftovers.is_empty(), "profile not removed: {leftovers:?}");
}

#[test]
fn general_claim_with_three_rows_and_attachments() {
    require_browser();
    let _lock = browser_lock();
    let portal = Portal::start();
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    let pdf1 = pdf("first");
    let pdf2 = pdf("second invoice");
    let doc = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1 outbound stock".to_vec();
    let mut submission = general_submission(
        PASSWORD,
        3,
        vec![
            write_file(&files, "发票1.pdf", &pdf1),
            write_file(&files, "invoice-2.pdf", &pdf2),
        ],
    );
    submission.files.outbound_doc = Some(write_file(&files, "出库单.doc", &doc));

    let started = Instant::now();
    let outcome = Bot::submit(&shipped_flow(), &submission, &options(&portal, dir.path()))
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("general, 3 rows: {:.2?}", started.elapsed());

    let claims = portal.claims();
    assert_eq!(claims.len(), 1, "{claims:#?}");
    let claim = &claims[0];
    assert_eq!(outcome.claim_no.as_deref(), claim["claim_no"].as_str());
    assert_eq!(outcome.values["claim_no"], claim["claim_no"]);
    assert_eq!(claim["type"], "general");
    assert_eq!(claim["submitted_by"], "100001");
    assert_eq!(claim["claimant"], "李四");
    assert_eq!(claim["employee_no"], "100001");
    assert_eq!(claim["department"], "物理学院");
    assert_eq!(claim["purpose"], "购买实验耗材");
    assert_eq!(claim["rows"], expected_general_rows(&submission));
    assert_eq!(claim["total"], "304.50");
    assert_eq!(
        claim["attachments"],
        json!([
            attachment("invoice-files", "发票1.pdf", &pdf1),
            attachment("invoice-files", "invoice-2.pdf", &pdf2),
            attachment("outbound-file", "出库单.doc", &doc),
        ])
    );
    assert_browser_gone(dir.path());
}

#[test]
fn travel_claim() {
    require_browser();
    let _lock = browser_lock();
    let portal = Portal::start();
    let dir = tempfile::tempdir().unwrap();
    let ticket = pdf("train ticket");
    let hotel = pdf("hotel");
    let mut submission = Submission::new(ClaimKind::Travel, config(PASSWORD));
    submission.rows = vec![
        row(&[
            ("发票号码", "26119000000012345678"),
            ("开票日期", "2026/11/10"),
            ("价税合计", "553.00"),
            ("备注", "G1 北京南-上海虹桥 二等座"),
            ("expense_type", "train"),
        ]),
        row(&[
            ("发票号码", "31000123"),
            ("开票日期", "2026/11/12"),
            ("价税合计", "900"),
            ("备注", "2晚"),
            ("kind", "hotel"),
        ]),
        row(&[
            ("开票日期", "2026-11-10"),
            ("价税合计", "46.5"),
            ("expense_type", "taxi"),
        ]),
    ];
    let files = dir.path().join("files");
    submission.files.invoices = vec![
        write_file(&files, "火车票.pdf", &ticket),
        write_file(&files, "住宿.pdf", &hotel),
    ];
    for (k, v) in [
        ("purpose", "参加学术会议"),
        ("origin", "北京"),
        ("destination", "上海"),
        ("depart_date", "2026/11/10"),
        ("return_date", "2026/11/12"),
    ] {
        submission.extra.insert(k.into(), v.into());
    }

    let started = Instant::now();
    let outcome = Bot::submit(&shipped_flow(), &submission, &options(&portal, dir.path()))
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("travel, 3 rows: {:.2?}", started.elapsed());

    let claims = portal.claims();
    assert_eq!(claims.len(), 1, "{claims:#?}");
    let claim = &claims[0];
    assert_eq!(outcome.claim_no.as_deref(), claim["claim_no"].as_str());
    assert_eq!(claim["type"], "travel");
    assert_eq!(claim["claimant"], "李四");
    assert_eq!(claim["purpose"], "参加学术会议");
    assert_eq!(claim["origin"], "北京");
    assert_eq!(claim["destination"], "上海");
    assert_eq!(claim["depart_date"], "2026-11-10");
    assert_eq!(claim["return_date"], "2026-11-12");
    assert_eq!(
        claim["rows"],
        json!([
            {"expense_type": "train", "invoice_number": "26119000000012345678",
             "date": "2026-11-10", "amount": "553.00", "note": "G1 北京南-上海虹桥 二等座"},
            {"expense_type": "hotel", "invoice_number": "31000123", "date": "2026-11-12",
             "amount": "900", "note": "2晚"},
            {"expense_type": "taxi", "invoice_number": "", "date": "2026-11-10",
             "amount": "46.5", "note": ""},
        ])
    );
    assert_eq!(
        claim["attachments"],
        json!([
            attachment("attachment-files", "火车票.pdf", &ticket),
            attachment("attachment-files", "住宿.pdf", &hotel),
        ])
    );
    assert_browser_gone(dir.path());
}

#[test]
fn wrong_password_names_the_login_step() {
    require_browser();
    let _lock = browser_lock();
    // A slow login answer: the check after the click must look at the answer, not at the
    // login page the click was made on.
    let portal = Portal::start_with(PortalConfig {
        hooks: Hooks {
            delays: vec![PageDelay {
                page: Page::Login,
                ms: 700,
            }],
            reject_all_with: None,
        },
        ..PortalConfig::default()
    });
    let dir = tempfile::tempdir().unwrap();
    let secret = "s3cret-Wrong-pw";
    let pdf_path = write_file(&dir.path().join("files"), "a.pdf", &pdf("a"));
    let submission = general_submission(secret, 1, vec![pdf_path]);

    // Everything logged at any level, WebDriver traffic included, is captured.
    let logs = CapturedLogs::default();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(logs.clone())
        .with_ansi(false)
        .finish();
    let error = tracing::subscriber::with_default(subscriber, || {
        Bot::submit(&shipped_flow(), &submission, &options(&portal, dir.path()))
    })
    .expect_err("login must fail");
    eprintln!("wrong password: {error}");
    let logged = logs.text();
    assert!(logged.contains("第3步「填写密码」"), "{logged}");
    assert!(
        !logged.contains(secret),
        "the password was logged:\n{logged}"
    );
    assert_eq!(error.kind, ErrorKind::Rejected);
    assert_eq!(error.step_name.as_deref(), Some("登录"));
    assert_eq!(error.step_index, Some(5));
    assert_eq!(error.message, "第5步「登录」失败：用户名或密码错误");
    assert_screenshot(&error, dir.path());
    assert!(!format!("{error:?}").contains(secret));
    assert!(portal.claims().is_empty());
    assert_browser_gone(dir.path());
}

#[test]
fn portal_refusal_is_reported_in_its_own_words() {
    require_browser();
    let _lock = browser_lock();
    let portal = Portal::start();
    let dir = tempfile::tempdir().unwrap();
    let pdf_path = write_file(&dir.path().join("files"), "a.pdf", &pdf("a"));
    let mut submission = general_submission(PASSWORD, 2, vec![pdf_path]);
    submission.rows[1].insert("发票号码".into(), "1234".into());

    let error = Bot::submit(&shipped_flow(), &submission, &options(&portal, dir.path()))
        .expect_err("the portal must refuse");
    eprintln!("refused: {error}");
    assert_eq!(error.kind, ErrorKind::Rejected);
    assert_eq!(error.step_name.as_deref(), Some("提交报销单"));
    assert!(
        error
            .message
            .ends_with("「提交报销单」失败：第2行：发票号码格式不正确（应为8位或20位数字）"),
        "{}",
        error.message
    );
    assert_screenshot(&error, dir.path());
    assert!(portal.claims().is_empty());
    assert_browser_gone(dir.path());
}

#[test]
fn a_hanging_submit_fails_within_the_step_timeout_and_leaves_nothing_running() {
    require_browser();
    let _lock = browser_lock();
    let portal = Portal::start_with(PortalConfig {
        hooks: Hooks::hang_on(Page::Submit),
        ..PortalConfig::default()
    });
    let dir = tempfile::tempdir().unwrap();
    let pdf_path = write_file(&dir.path().join("files"), "a.pdf", &pdf("a"));
    let submission = general_submission(PASSWORD, 1, vec![pdf_path]);
    let mut options = options(&portal, dir.path());
    options.step_timeout = Duration::from_secs(3);

    let started = Instant::now();
    let error = Bot::submit(&shipped_flow(), &submission, &options).expect_err("the submit hangs");
    let elapsed = started.elapsed();
    eprintln!("hang: {error} after {elapsed:.2?}");
    assert_eq!(error.kind, ErrorKind::Timeout);
    assert_eq!(error.step_name.as_deref(), Some("点击提交"));
    assert!(error.message.contains("没有响应"), "{}", error.message);
    // Start, login and form filling take a few seconds; the hang itself only the step timeout
    // (plus closing), far from the portal's one-day delay.
    assert!(elapsed < Duration::from_secs(25), "{elapsed:?}");
    assert_browser_gone(dir.path());
    assert!(portal.claims().is_empty());
}

#[test]
fn the_overall_timeout_cuts_a_hang_short_and_kills_the_browser() {
    require_browser();
    let _lock = browser_lock();
    let portal = Portal::start_with(PortalConfig {
        hooks: Hooks::hang_on(Page::Submit),
        ..PortalConfig::default()
    });
    let dir = tempfile::tempdir().unwrap();
    let pdf_path = write_file(&dir.path().join("files"), "a.pdf", &pdf("a"));
    let submission = general_submission(PASSWORD, 1, vec![pdf_path]);
    let mut options = options(&portal, dir.path());
    options.step_timeout = Duration::from_secs(60);
    options.overall_timeout = Duration::from_secs(9);

    let started = Instant::now();
    let error = Bot::submit(&shipped_flow(), &submission, &options).expect_err("the submit hangs");
    let elapsed = started.elapsed();
    eprintln!("overall timeout: {error} after {elapsed:.2?}");
    assert_eq!(error.kind, ErrorKind::Timeout);
    assert_eq!(error.step_name.as_deref(), Some("点击提交"));
    assert!(
        error.message.contains("整个提交超过了9秒的时限"),
        "{}",
        error.message
    );
    assert!(elapsed < Duration::from_secs(11), "{elapsed:?}");
    assert_browser_gone(dir.path());
}

#[test]
fn dropping_a_running_submission_kills_the_browser() {
    require_browser();
    let _lock = browser_lock();
    let portal = Portal::start_with(PortalConfig {
        hooks: Hooks::hang_on(Page::Submit),
        ..PortalConfig::default()
    });
    let dir = tempfile::tempdir().unwrap();
    let pdf_path = write_file(&dir.path().join("files"), "a.pdf", &pdf("a"));
    let submission = general_submission(PASSWORD, 1, vec![pdf_path]);
    let options = options(&portal, dir.path());
    let flow = shipped_flow();

    // A caller that gives up (or panics) drops the future wherever it is.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let outcome = runtime.block_on(async {
        tokio::time::timeout(
            Duration::from_secs(5),
            Bot::submit_async(&flow, &submission, &options),
        )
        .await
    });
    assert!(outcome.is_err(), "should still be running: {outcome:?}");
    assert_browser_gone(dir.path());
}

#[test]
fn a_remote_webdriver_is_used_as_is() {
    require_browser();
    let _lock = browser_lock();
    let portal = Portal::start();
    let dir = tempfile::tempdir().unwrap();
    // Our own chromedriver stands in for a Selenium Grid.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut grid = std::process::Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    let pdf_path = write_file(&dir.path().join("files"), "a.pdf", &pdf("a"));
    let submission = general_submission(PASSWORD, 1, vec![pdf_path]);
    let mut options = options(&portal, dir.path());
    options.webdriver = reimburse_finance_bot::WebDriverTarget::Remote {
        url: format!("http://127.0.0.1:{port}"),
    };

    let result = Bot::submit(&shipped_flow(), &submission, &options);
    let drivers = children_named("chromedriver");
    grid.kill().unwrap();
    grid.wait().unwrap();
    let outcome = result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(drivers, [grid.id() as i32], "no chromedriver of its own");
    assert_eq!(portal.claims().len(), 1);
    assert!(outcome.claim_no.is_some());
}

#[test]
fn an_option_the_portal_lacks_is_named_with_the_choices() {
    require_browser();
    let _lock = browser_lock();
    let portal = Portal::start();
    let dir = tempfile::tempdir().unwrap();
    let pdf_path = write_file(&dir.path().join("files"), "a.pdf", &pdf("a"));
    let mut submission = general_submission(PASSWORD, 1, vec![pdf_path]);
    submission
        .extra
        .insert("department".into(), "天文学院".into());
    let mut options = options(&portal, dir.path());
    options.step_timeout = Duration::from_secs(2);

    let error = Bot::submit(&shipped_flow(), &submission, &options).expect_err("no such option");
    eprintln!("option: {error}");
    assert_eq!(error.kind, ErrorKind::Step);
    assert_eq!(error.step_name.as_deref(), Some("选择部门"));
    assert!(
        error.message.contains(
            "下拉框 #department 中没有选项「天文学院」（可选：计算机科学与技术学院、电子信息工程学院、"
        ),
        "{}",
        error.message
    );
    assert!(portal.claims().is_empty());
    assert_browser_gone(dir.path());
}
