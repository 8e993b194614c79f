//! Flow validation needs no browser: problems in the flow or the data are reported before
//! anything starts, all at once, in Chinese.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests fail by panicking"
)]

mod common;

use common::*;
use reimburse_finance_bot::{
    Bot, BotOptions, ClaimKind, ErrorKind, FlowFile, Submission, WebDriverTarget,
};
use std::time::{Duration, Instant};

/// Options whose chromedriver does not exist: any attempt to start a browser would fail with
/// `ErrorKind::Browser`, so `InvalidFlow` proves nothing was started.
fn no_browser_options(dir: &std::path::Path) -> BotOptions {
    BotOptions {
        webdriver: WebDriverTarget::Local {
            chromedriver_path: dir.join("no-such-chromedriver"),
            chromium_path: dir.join("no-such-chromium"),
        },
        screenshot_dir: dir.join("screenshots"),
        base_url: Some("http://127.0.0.1:9".into()),
        ..BotOptions::default()
    }
}

fn valid_general(dir: &std::path::Path) -> Submission {
    let pdf_path = write_file(dir, "a.pdf", &pdf("a"));
    general_submission(PASSWORD, 2, vec![pdf_path])
}

#[test]
fn the_shipped_flow_accepts_a_complete_submission() {
    let dir = tempfile::tempdir().unwrap();
    Bot::validate(
        &shipped_flow(),
        &valid_general(dir.path()),
        &no_browser_options(dir.path()),
    )
    .unwrap();
}

#[test]
fn an_unknown_variable_fails_before_any_browser_starts() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(flow_path()).unwrap();
    let text = text.replacen("{{claim.purpose}}", "{{claim.reason_for_claim}}", 1);
    let flow = FlowFile::from_toml_str(&text).unwrap();

    let started = Instant::now();
    let error = Bot::submit(
        &flow,
        &valid_general(dir.path()),
        &no_browser_options(dir.path()),
    )
    .expect_err("unknown variable");
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(error.kind, ErrorKind::InvalidFlow, "{error}");
    assert_eq!(error.step_index, Some(13));
    assert_eq!(error.step_name.as_deref(), Some("填写报销事由"));
    assert_eq!(
        error.message,
        "流程校验失败（未启动浏览器）：第13步「填写报销事由」：未知变量 claim.reason_for_claim"
    );
    assert!(error.screenshot.is_none());
    assert!(!dir.path().join("screenshots").exists());
}

#[test]
fn missing_data_is_listed_all_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut submission = valid_general(dir.path());
    submission.extra.remove("purpose");
    for row in &mut submission.rows {
        row.remove("销售方名称");
    }
    submission
        .files
        .invoices
        .push(dir.path().join("missing.pdf"));
    submission.rows[1].insert("开票日期".into(), "下周一".into());
    let error = Bot::submit(
        &shipped_flow(),
        &submission,
        &no_browser_options(dir.path()),
    )
    .expect_err("invalid");
    let m = &error.message;
    assert_eq!(error.kind, ErrorKind::InvalidFlow);
    assert!(
        m.contains("第13步「填写报销事由」：未知变量 claim.purpose"),
        "{m}"
    );
    // Reported once although every row lacks it.
    assert_eq!(m.matches("未知变量 row.销售方名称").count(), 1, "{m}");
    assert!(m.contains("第14.6步（第1行）「填写销售方名称」"), "{m}");
    assert!(
        m.contains("第14.3步（第2行）「填写开票日期」：变量 row.开票日期 的值「下周一」无法用过滤器 date_dash 转换"),
        "{m}"
    );
    assert!(m.contains("文件不存在："), "{m}");
}

#[test]
fn travel_rows_need_an_expense_type() {
    let dir = tempfile::tempdir().unwrap();
    let mut submission = Submission::new(ClaimKind::Travel, config(PASSWORD));
    submission.rows = vec![row(&[("开票日期", "2026/11/10"), ("价税合计", "1")])];
    for (k, v) in [
        ("purpose", "开会"),
        ("origin", "北京"),
        ("destination", "上海"),
        ("depart_date", "2026-11-10"),
        ("return_date", "2026-11-12"),
    ] {
        submission.extra.insert(k.into(), v.into());
    }
    let error = Bot::validate(
        &shipped_flow(),
        &submission,
        &no_browser_options(dir.path()),
    )
    .expect_err("no expense type");
    assert!(
        error
            .message
            .contains("「选择费用类型」：未知变量 row.expense_type"),
        "{}",
        error.message
    );
    submission.rows[0].insert("kind".into(), "taxi".into());
    Bot::validate(
        &shipped_flow(),
        &submission,
        &no_browser_options(dir.path()),
    )
    .unwrap();
}

#[test]
fn the_password_never_shows_in_step_descriptions() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "Pa55-word-xyz";
    // A flow whose selector is built from the password and cannot be empty-checked: the
    // validation error quotes the template source, never the value.
    let flow = FlowFile::from_toml_str(
        "[portal]\nname = \"t\"\n[[flows.general]]\naction = \"fill\"\n\
         selector = \"#pw\"\nvalue = \"{{config.password | date_dash}}\"\n",
    )
    .unwrap();
    let submission = general_submission(secret, 1, Vec::new());
    let error = Bot::submit(&flow, &submission, &no_browser_options(dir.path()))
        .expect_err("password is not a date");
    let shown = format!("{error} {error:?}");
    assert!(!shown.contains(secret), "{shown}");
    assert!(shown.contains("***"), "{shown}");
    assert!(
        flow.steps(ClaimKind::General).unwrap()[0]
            .label()
            .contains("{{config.password | date_dash}}")
    );
}

#[tokio::test]
async fn the_blocking_submit_refuses_to_run_inside_a_runtime() {
    let dir = tempfile::tempdir().unwrap();
    let error = Bot::submit(
        &shipped_flow(),
        &valid_general(dir.path()),
        &no_browser_options(dir.path()),
    )
    .expect_err("inside a runtime");
    assert_eq!(error.kind, ErrorKind::Internal);
    assert!(error.message.contains("submit_async"), "{}", error.message);
}
