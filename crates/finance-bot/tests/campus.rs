//! The shipped campus flow against crates/campus-portal, a portal written without the bot in
//! view, in real Chromium: the login captcha answered by a person (played by the test, who
//! reads the code through the portal's test hook as a person reads the picture), a wrong
//! answer asked again, no answer, read-only dates, the `confirm()` on submit, an `alert()`
//! refusal, and the claim number taken out of its sentence.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use campus_portal::{CampusConfig, CampusThread, PriorInvoice};
use common::{browser_lock, config, pdf, require_browser, row, write_file};
use reimburse_finance_bot::{
    AnswerFuture, Bot, BotOptions, Challenge, ClaimKind, ErrorKind, FlowFile, Person, Submission,
    WebDriverTarget,
};
use serde_json::Value;
use std::io::Write;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn campus(config: CampusConfig) -> CampusThread {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    campus_portal::spawn(listener, config).unwrap()
}

fn flow() -> FlowFile {
    FlowFile::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../flows/campus-portal.toml"))
        .unwrap()
}

/// The person at the screen: looks at the captcha (through the test hook), answers wrongly
/// `wrong` times first, or never answers.
#[derive(Debug)]
struct Player {
    base: String,
    wrong: Mutex<usize>,
    silent: bool,
    asked: Mutex<Vec<Challenge>>,
}

impl Player {
    fn new(base: &str, wrong: usize) -> Arc<Self> {
        Arc::new(Self {
            base: base.to_owned(),
            wrong: Mutex::new(wrong),
            silent: false,
            asked: Mutex::new(Vec::new()),
        })
    }

    fn silent(base: &str) -> Arc<Self> {
        Arc::new(Self {
            silent: true,
            ..Arc::into_inner(Self::new(base, 0)).unwrap()
        })
    }

    fn asked(&self) -> Vec<Challenge> {
        self.asked.lock().unwrap().clone()
    }
}

impl Person for Player {
    fn ask(&self, challenge: Challenge) -> AnswerFuture<'_> {
        Box::pin(async move {
            self.asked.lock().unwrap().push(challenge);
            if self.silent {
                return None;
            }
            let code = reqwest::get(format!("{}/test/captcha", self.base))
                .await
                .unwrap()
                .text()
                .await
                .unwrap();
            let mut wrong = self.wrong.lock().unwrap();
            if *wrong > 0 {
                *wrong -= 1;
                // Each digit moved by one: never the right code.
                return Some(
                    code.chars()
                        .map(|c| char::from(b'0' + (c as u8 - b'0' + 1) % 10))
                        .collect(),
                );
            }
            Some(code)
        })
    }
}

fn options(portal: &CampusThread, dir: &Path, person: Arc<Player>) -> BotOptions {
    BotOptions {
        webdriver: WebDriverTarget::Local {
            chromedriver_path: common::CHROMEDRIVER.into(),
            chromium_path: common::CHROMIUM.into(),
        },
        screenshot_dir: dir.join("screenshots"),
        step_timeout: Duration::from_secs(10),
        overall_timeout: Duration::from_secs(120),
        startup_timeout: Duration::from_secs(30),
        headless: true,
        base_url: Some(portal.base_url().to_owned()),
        work_dir: Some(dir.join("work")),
        person: Some(person),
        on_read: None,
        before_final_submit: None,
    }
}

/// A general claim of two invoices for the campus account.
fn submission(dir: &Path, numbers: [&str; 2]) -> (Submission, Vec<PathBuf>) {
    let mut config = config("campus123");
    config.username = "200001".into();
    let mut s = Submission::new(ClaimKind::General, config);
    s.rows = vec![
        row(&[
            ("序号", "1"),
            ("发票号码", numbers[0]),
            ("开票日期", "2025/03/11"),
            ("项目名称", "*纸制品*A4复印纸"),
            ("价税合计", "255.00"),
            ("销售方名称", "某某文具店"),
        ]),
        row(&[
            ("序号", "2"),
            ("发票号码", numbers[1]),
            ("开票日期", "2025/3/2"),
            ("项目名称", "*实验耗材*移液枪头"),
            ("价税合计", "1,020.5"),
            ("销售方名称", "广州某某生物科技有限公司"),
        ]),
    ];
    let files = vec![
        write_file(dir, "发票1.pdf", &pdf("one")),
        write_file(dir, "发票2.pdf", &pdf("two")),
    ];
    s.files.invoices = files.clone();
    s.extra.insert("purpose".into(), "购买实验耗材".into());
    (s, files)
}

fn claims(portal: &CampusThread) -> Vec<Value> {
    let url = format!("{}/api/claims", portal.base_url());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let json: Value = reqwest::get(url).await.unwrap().json().await.unwrap();
        json.as_array().unwrap().clone()
    })
}

/// Today in Beijing, `YYYY-MM-DD`.
fn today_in_china() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    domain::format_civil_date(domain::china_day(secs)).replace('/', "-")
}

#[test]
fn a_claim_lands_past_the_captcha_with_dates_in_read_only_fields_and_a_bare_number() {
    require_browser();
    let _lock = browser_lock();
    let portal = campus(CampusConfig::default());
    let dir = tempfile::tempdir().unwrap();
    let (submission, _) = submission(dir.path(), ["25442000000116575693", "12345678"]);
    let person = Player::new(portal.base_url(), 0);
    let read = Arc::new(Mutex::new(Vec::new()));
    let mut options = options(&portal, dir.path(), Arc::clone(&person));
    options.on_read = Some(reimburse_finance_bot::OnRead(Arc::new({
        let read = Arc::clone(&read);
        move |key: &str, value: &str| {
            read.lock()
                .unwrap()
                .push((key.to_owned(), value.to_owned()))
        }
    })));
    let outcome = Bot::submit(&flow(), &submission, &options).unwrap_or_else(|e| panic!("{e}"));

    let claim_no = outcome.claim_no.unwrap();
    assert_eq!(
        *read.lock().unwrap(),
        [("claim_no".to_owned(), claim_no.clone())],
        "told as read"
    );
    assert!(
        claim_no.len() == 12 && claim_no.starts_with("CW"),
        "the number alone: {claim_no}"
    );
    let asked = person.asked();
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert!(
        asked[0]
            .image_png
            .as_ref()
            .is_some_and(|png| png.starts_with(b"\x89PNG")),
        "the captcha's picture is shown: {asked:?}"
    );
    assert_eq!(asked[0].refusal, None);

    let filed = claims(&portal);
    assert_eq!(filed.len(), 1, "{filed:?}");
    let claim = &filed[0];
    assert_eq!(claim["claim_no"], claim_no.as_str());
    assert_eq!(claim["staff_no"], "200001");
    assert_eq!(claim["department"], "计算机科学与技术学院");
    assert_eq!(claim["reason"], "购买实验耗材");
    assert_eq!(claim["claim_date"], today_in_china().as_str());
    let rows: Vec<(String, String, String, String)> = claim["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap().to_owned();
            (s("invoice_no"), s("invoice_date"), s("item"), s("amount"))
        })
        .collect();
    assert_eq!(
        rows,
        [
            (
                "25442000000116575693".into(),
                "2025-03-11".into(),
                "*纸制品*A4复印纸".into(),
                "255.00".into()
            ),
            (
                "12345678".into(),
                "2025-03-02".into(),
                "*实验耗材*移液枪头".into(),
                "1020.50".into()
            ),
        ]
    );
    assert_eq!(claim["attachments"].as_array().unwrap().len(), 2);
}

#[test]
fn a_wrong_answer_is_asked_again_with_the_portals_words() {
    require_browser();
    let _lock = browser_lock();
    let portal = campus(CampusConfig::default());
    let dir = tempfile::tempdir().unwrap();
    let (submission, _) = submission(dir.path(), ["87654321", "12345678"]);
    let person = Player::new(portal.base_url(), 1);
    let outcome = Bot::submit(
        &flow(),
        &submission,
        &options(&portal, dir.path(), Arc::clone(&person)),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(outcome.claim_no.is_some());
    let asked = person.asked();
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert_eq!((asked[1].attempt, asked[1].attempts), (2, 3));
    assert_eq!(asked[1].refusal.as_deref(), Some("验证码错误"));
    assert_ne!(asked[0].image_png, asked[1].image_png, "a new picture");
    assert_eq!(claims(&portal).len(), 1);
}

#[test]
fn always_wrong_answers_end_after_the_attempts_and_no_answer_ends_cleanly() {
    require_browser();
    let _lock = browser_lock();
    let portal = campus(CampusConfig::default());
    let dir = tempfile::tempdir().unwrap();
    let (submission, _) = submission(dir.path(), ["87654321", "12345678"]);

    let person = Player::new(portal.base_url(), 10);
    let error = Bot::submit(
        &flow(),
        &submission,
        &options(&portal, dir.path(), Arc::clone(&person)),
    )
    .unwrap_err();
    assert_eq!(error.kind, ErrorKind::Rejected, "{error}");
    assert!(
        error.message.contains("连续3次输入都未通过：验证码错误"),
        "{error}"
    );
    assert_eq!(person.asked().len(), 3);

    let started = Instant::now();
    let person = Player::silent(portal.base_url());
    let error = Bot::submit(
        &flow(),
        &submission,
        &options(&portal, dir.path(), Arc::clone(&person)),
    )
    .unwrap_err();
    assert_eq!(error.kind, ErrorKind::NoAnswer, "{error}");
    assert!(error.message.contains("「登录」失败"), "{error}");
    assert!(
        error
            .message
            .contains("没有收到输入（限时180秒），提交已停止"),
        "{error}"
    );
    assert!(started.elapsed() < Duration::from_secs(60));
    assert!(claims(&portal).is_empty());
}

/// Log lines as they are written, each with the instant it came.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<(Instant, String)>>>);

impl Write for Lines {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf).into_owned();
        self.0.lock().unwrap().push((Instant::now(), text));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Lines {
    fn when(&self, needle: &str) -> Instant {
        let lines = self.0.lock().unwrap();
        lines
            .iter()
            .find(|(_, l)| l.contains(needle))
            .map(|(at, _)| *at)
            .unwrap_or_else(|| panic!("no log line with {needle}: {lines:?}"))
    }
}

#[test]
fn an_alert_refusal_reaches_the_caller_verbatim_within_two_seconds_of_the_click() {
    require_browser();
    let _lock = browser_lock();
    let portal = campus(CampusConfig {
        prior_invoices: vec![PriorInvoice {
            invoice_no: "12345678".into(),
            claim_no: "CW2026000003".into(),
        }],
        ..CampusConfig::default()
    });
    let dir = tempfile::tempdir().unwrap();
    let (submission, _) = submission(dir.path(), ["87654321", "12345678"]);
    let person = Player::new(portal.base_url(), 0);
    let lines = Lines::default();
    let writer = lines.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let error = tracing::subscriber::with_default(subscriber, || {
        Bot::submit(&flow(), &submission, &options(&portal, dir.path(), person))
    })
    .unwrap_err();
    assert_eq!(error.kind, ErrorKind::Rejected, "{error}");
    assert!(
        error.message.ends_with(
            "「提交报销单」失败：发票号码 12345678 已在单据 CW2026000003 中报销，不能重复报销"
        ),
        "{error}"
    );
    let clicked = lines.when("「提交」");
    let told = lines.when("提交失败：");
    assert!(
        told.duration_since(clicked) < Duration::from_secs(2),
        "the refusal came {:?} after the click",
        told.duration_since(clicked)
    );
    assert!(claims(&portal).is_empty());
}
