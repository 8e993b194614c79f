//! A portal's own ways, in real Chromium, on a small page served here (not the demo portal):
//! a read-only date field a JavaScript picker fills, set by script with its events; a
//! `confirm()` on submit, accepted; the claim number read out of a sentence; an `alert()`
//! refusal reported in the portal's own words at once, not after a step's timeout.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{browser_lock, config, require_browser};
use reimburse_finance_bot::{
    Bot, BotOptions, ClaimKind, ErrorKind, FlowFile, Submission, WebDriverTarget,
};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::{Duration, Instant};

const PAGE: &str = r#"<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"></head><body>
<label>报销日期 <input id="date" readonly placeholder="点击选择日期"></label>
<div id="echo"></div>
<button id="submit" onclick="if (confirm('确认提交该报销单吗？')) { document.getElementById('result').textContent = '提交成功，单据号：CW2026000101'; }">提交</button>
<button id="refuse" onclick="alert('发票号码 12345678 已在单据 CW2026000003 中报销，不能重复报销')">提交重复发票</button>
<div id="result"></div>
<script>
document.getElementById('date').addEventListener('change', e => {
  document.getElementById('echo').textContent = '已选 ' + e.target.value;
});
</script></body></html>"#;

/// Serves `PAGE` to every request on a thread of its own; the address.
fn serve_page() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                PAGE.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(PAGE.as_bytes());
        }
    });
    format!("http://{address}")
}

fn options(base: String, dir: &std::path::Path) -> BotOptions {
    BotOptions {
        webdriver: WebDriverTarget::Local {
            chromedriver_path: common::CHROMEDRIVER.into(),
            chromium_path: common::CHROMIUM.into(),
        },
        screenshot_dir: dir.join("screenshots"),
        step_timeout: Duration::from_secs(20),
        overall_timeout: Duration::from_secs(120),
        startup_timeout: Duration::from_secs(30),
        headless: true,
        base_url: Some(base),
        work_dir: Some(dir.join("work")),
        person: None,
        on_read: None,
        before_final_submit: None,
    }
}

fn flow(steps: &str) -> FlowFile {
    FlowFile::from_toml_str(&format!("[portal]\nname = \"对话框测试\"\n\n{steps}")).unwrap()
}

#[test]
fn a_read_only_date_a_confirm_and_a_claim_number_in_a_sentence() {
    require_browser();
    let _one = browser_lock();
    let dir = tempfile::tempdir().unwrap();
    let flow = flow(
        r##"
[[flows.general]]
action = "open"
url = "/"

[[flows.general]]
action = "fill"
selector = "#date"
value = "{{claim.today | date_dash}}"
method = "force"

[[flows.general]]
action = "wait_for_text"
selector = "#echo"
contains = "已选 20"

[[flows.general]]
action = "click"
selector = "#submit"

[[flows.general]]
action = "accept_dialog"
contains = "确认提交"

[[flows.general]]
action = "read_text"
selector = "#result"
into = "claim_no"
pattern = "单据号：(\\w+)"
"##,
    );
    let submission = Submission::new(ClaimKind::General, config("pw"));
    let outcome = Bot::submit(&flow, &submission, &options(serve_page(), dir.path())).unwrap();
    assert_eq!(outcome.claim_no.as_deref(), Some("CW2026000101"));
}

#[test]
fn an_alert_refusal_reaches_the_user_in_its_own_words_at_once() {
    require_browser();
    let _one = browser_lock();
    let dir = tempfile::tempdir().unwrap();
    let flow = flow(
        r##"
[[flows.general]]
action = "open"
url = "/"

[[flows.general]]
name = "提交报销单"
action = "click"
selector = "#refuse"

[[flows.general]]
action = "wait_for_text"
selector = "#result"
contains = "提交成功"
"##,
    );
    let submission = Submission::new(ClaimKind::General, config("pw"));
    let started = Instant::now();
    let error = Bot::submit(&flow, &submission, &options(serve_page(), dir.path())).unwrap_err();
    assert_eq!(error.kind, ErrorKind::Rejected, "{error:?}");
    assert!(
        error
            .message
            .contains("发票号码 12345678 已在单据 CW2026000003 中报销，不能重复报销"),
        "{}",
        error.message
    );
    // Not the 20 s of the waiting step: the dialog ends it (browser start included).
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
}
