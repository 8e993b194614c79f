//! The pages in real headless Chromium over WebDriver, read as a person reads them (visible
//! text): upload from the desktop and from the phone page at 375 px, the phone's file on the
//! desktop without a reload, the agent asking, a text supplement, the claim number; the table
//! edited and saved; hostile names shown as text; the portal's captcha asked and answered; the
//! history of claims listed, filtered, opened and voided; a row already claimed marked; with
//! sign-in on, the sign-in page (a wrong password refused), the whole flow in the person's name
//! with the phone's expiring link, their claim in the history, and signing out.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{
    Options, Portal, TestApp, add_user, browser_available, local_sign_in, spawn_app_with,
};
use finance_bot::{Browser, Challenge, WebDriverTarget};
use ledger::{ClaimDraft, ClaimId, InvoiceEntry};
use serde_json::json;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use thirtyfour::prelude::*;

fn fixture_path(dir: &str, name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(dir)
        .join(name)
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

async fn browser() -> Browser {
    assert!(
        browser_available(),
        "cargo xtask install installs chromium and chromedriver"
    );
    Browser::start(
        &WebDriverTarget::default(),
        true,
        None,
        Duration::from_secs(30),
        Duration::from_secs(30),
    )
    .await
    .unwrap()
}

/// Saves a PNG of the page as it stands when `REIMBURSE_SCREENSHOTS_DIR` is set
/// (`cargo xtask screenshots`); does nothing otherwise.
async fn snap(driver: &WebDriver, name: &str) {
    if let Some(dir) = std::env::var_os("REIMBURSE_SCREENSHOTS_DIR") {
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).unwrap();
        driver
            .screenshot(&dir.join(format!("{name}.png")))
            .await
            .unwrap();
    }
}

/// Types `value` into the element, replacing what it held.
async fn fill(driver: &WebDriver, css: &str, value: &str) {
    let input = driver.find(By::Css(css)).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(value).await.unwrap();
}

/// Fills the configuration form.
async fn fill_config(driver: &WebDriver, fields: &[(&str, &str)]) {
    for (name, value) in fields {
        fill(driver, &format!("#config [name={name}]"), value).await;
    }
}

/// Clicks the element with this id.
async fn click(driver: &WebDriver, id: &str) {
    driver
        .find(By::Id(id))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Waits until the element's visible text satisfies `wanted`; returns the text.
async fn wait_text(driver: &WebDriver, css: &str, wanted: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = String::new();
    while Instant::now() < deadline {
        if let Ok(element) = driver.find(By::Css(css)).await
            && let Ok(text) = element.text().await
        {
            if wanted(&text) {
                return text;
            }
            last = text;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("{css} never showed what was wanted; last: {last:?}");
}

/// On a fresh desktop page: uploads the invoice fixture `name`, fills the configuration and
/// runs the extraction until its result shows.
async fn extract_one(driver: &WebDriver, app: &TestApp, name: &str, config: &[(&str, &str)]) {
    driver.goto(format!("{}/", app.base)).await.unwrap();
    wait_text(driver, "#session-id", |t| t.len() == 36).await;
    driver
        .find(By::Id("file-input"))
        .await
        .unwrap()
        .send_keys(fixture_path("invoices", name))
        .await
        .unwrap();
    wait_text(driver, "#files", |t| t.contains(name)).await;
    fill_config(driver, config).await;
    click(driver, "run-extract").await;
    wait_text(driver, "#result", |t| t.contains("共 1 张发票")).await;
}

async fn app_and_portal() -> (TestApp, Portal) {
    let portal = Portal::start();
    let app = spawn_app_with(Options {
        finance: common::finance(Some(portal.thread.base_url())),
        ..Options::default()
    })
    .await;
    (app, portal)
}

/// GETs `path` as the browser would: with its sign-in cookie, when it has one.
async fn get_as(app: &TestApp, driver: &WebDriver, path: &str) -> reqwest::Response {
    let mut request = app.client.get(app.url(path));
    if let Ok(cookie) = driver.get_named_cookie(LOGIN_COOKIE).await {
        request = request.header("Cookie", format!("{LOGIN_COOKIE}={}", cookie.value));
    }
    request.send().await.unwrap()
}

const LOGIN_COOKIE: &str = "reimburse_login";

/// The whole flow on a desktop page that has just opened a session: an upload from the
/// desktop; one from the phone page at 375 px, opened at the link the page shows, which
/// appears on the desktop without a reload; the agent asking, answered as text; the claim
/// number shown; the table edited and saved. Returns the session id and the claim number.
async fn the_whole_flow(app: &TestApp, portal: &Portal, desktop: &WebDriver) -> (String, String) {
    let id = wait_text(desktop, "#session-id", |t| t.len() == 36).await;
    snap(desktop, "1-empty").await;
    // Reported, not asserted (performance is measured, never a test's verdict).
    let timing = desktop
        .execute(
            "const n = performance.getEntriesByType('navigation')[0]; \
             return [n.domInteractive, n.loadEventEnd, n.transferSize];",
            Vec::new(),
        )
        .await
        .unwrap();
    eprintln!(
        "desktop page: domInteractive, loadEventEnd (ms), transfer: {:?}",
        timing.json()
    );

    // Desktop upload, with the server's answer per file.
    desktop
        .find(By::Id("file-input"))
        .await
        .unwrap()
        .send_keys(fixture_path("invoices", "railway_ticket.pdf"))
        .await
        .unwrap();
    snap(desktop, "2-uploading").await;
    wait_text(desktop, "#uploads", |t| {
        t.contains("已上传：railway_ticket.pdf")
    })
    .await;
    wait_text(desktop, "#files", |t| t.contains("railway_ticket.pdf")).await;

    // The phone page at 375 px, at the link under the QR code (with sign-in on, it carries
    // the upload token: the phone is not signed in); its upload appears on the desktop
    // without a reload.
    let link = wait_text(desktop, "#mobile-link", |t| {
        t.contains(&format!("/mobile/{id}"))
    })
    .await;
    let phone_browser = browser().await;
    let phone = phone_browser.driver().unwrap();
    phone.set_window_rect(0, 0, 375, 800).await.unwrap();
    phone.goto(link).await.unwrap();
    wait_text(phone, "h1", |t| t == "手机上传").await;
    phone
        .find(By::Id("pick"))
        .await
        .unwrap()
        .send_keys(fixture_path("screenshots", "alipay_bill_01.png"))
        .await
        .unwrap();
    wait_text(phone, "#uploads", |t| {
        t.contains("已上传：alipay_bill_01.png")
    })
    .await;
    wait_text(phone, "#files", |t| t.contains("alipay_bill_01.png")).await;
    snap(phone, "8-mobile").await;
    wait_text(desktop, "#files", |t| t.contains("alipay_bill_01.png")).await;
    phone_browser.close().await;

    // The agent flow asks; the answer goes in as text; the claim number shows.
    fill_config(
        desktop,
        &[
            ("username", "100001"),
            ("password", "demo123"),
            ("default_name", "张三"),
        ],
    )
    .await;
    click(desktop, "run-agent").await;
    snap(desktop, "3-processing").await;
    wait_text(desktop, "#agent-request", |t| t.contains("出差事由")).await;
    wait_text(desktop, "#log", |t| t.contains("需要补充")).await;
    wait_text(desktop, "#file-progress", |t| {
        t.contains("railway_ticket.pdf")
    })
    .await;
    wait_text(desktop, "#result", |t| t.contains("请在上方补充信息")).await;
    snap(desktop, "5-agent-asking").await;
    desktop
        .find(By::Id("supplement-text"))
        .await
        .unwrap()
        .send_keys("出差事由：参加学术会议\n返回日期：2025-03-30\n人员姓名：赵晓岚")
        .await
        .unwrap();
    desktop
        .find(By::Css("#supplement-form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let result = wait_text(desktop, "#result", |t| t.contains("报销单号")).await;
    snap(desktop, "6-submitted").await;
    let claims = portal.claims().await;
    assert_eq!(claims.len(), 1);
    let claim_no = claims[0]["claim_no"].as_str().unwrap().to_owned();
    assert!(result.contains(&claim_no), "{result}");

    // The table: edit a cell, save, the document regenerates (travel: none is due).
    fill(desktop, "input[aria-label='第 1 行 备注']", "已报销").await;
    click(desktop, "save").await;
    wait_text(desktop, "#save-result", |t| t.contains("已保存")).await;
    let data: serde_json::Value = get_as(app, desktop, &format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(data["data"][0]["备注"], "已报销");
    (id, claim_no)
}

#[tokio::test]
async fn the_whole_flow_in_the_browser() {
    let (app, portal) = app_and_portal().await;
    let desktop_browser = browser().await;
    let desktop = desktop_browser.driver().unwrap();
    desktop.goto(format!("{}/", app.base)).await.unwrap();
    let (id, _) = the_whole_flow(&app, &portal, desktop).await;
    assert!(desktop.current_url().await.unwrap().as_str().contains(&id));
    // Sign-in off: no name and no way out; the phone's link carries no token and no expiry.
    assert!(!displayed(desktop, "user-line").await);
    assert!(!displayed(desktop, "qr-expiry").await);
    let link = desktop.find(By::Id("mobile-link")).await.unwrap();
    assert!(!link.text().await.unwrap().contains("?t="));
    desktop_browser.close().await;
}

/// Waits until the page's address has this path (a redirection, a navigation by the page).
async fn wait_path(driver: &WebDriver, path: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut last = String::new();
    while Instant::now() < deadline {
        let url = driver.current_url().await.unwrap();
        if url.path() == path {
            return;
        }
        last = url.to_string();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the page never reached {path}; last: {last}");
}

/// The attribute of the element with this id ("" when it has none).
async fn attribute(driver: &WebDriver, id: &str, name: &str) -> String {
    let element = driver.find(By::Id(id)).await.unwrap();
    element.attr(name).await.unwrap().unwrap_or_default()
}

/// On the sign-in page, as a person does: the name, the password, the button.
async fn sign_in_on_page(driver: &WebDriver, username: &str, password: &str) {
    fill(driver, "#login-username", username).await;
    fill(driver, "#login-password", password).await;
    click(driver, "login-submit").await;
}

#[tokio::test]
async fn signed_in_the_whole_flow_then_signed_out() {
    let portal = Portal::start();
    let app = spawn_app_with(Options {
        finance: common::finance(Some(portal.thread.base_url())),
        auth: local_sign_in(),
        ..Options::default()
    })
    .await;
    add_user(&app, "zhangsan", "张三", "zhangsan-password", false).await;
    let desktop_browser = browser().await;
    let desktop = desktop_browser.driver().unwrap();

    // A fresh browser opening the desktop page lands on the sign-in page, which logs no error.
    desktop.goto(format!("{}/", app.base)).await.unwrap();
    wait_path(desktop, "/login").await;
    wait_text(desktop, "#login-title", |t| t == "登录").await;
    snap(desktop, "14-sign-in").await;
    let errors = console_errors(desktop).await;
    assert!(errors.is_empty(), "console errors: {errors:#?}");

    // A wrong password: the page says so and stays, the password field emptied.
    sign_in_on_page(desktop, "zhangsan", "wrong-password").await;
    wait_text(desktop, "#login-error", |t| t == "用户名或密码错误").await;
    snap(desktop, "15-sign-in-refused").await;
    assert_eq!(desktop.current_url().await.unwrap().path(), "/login");
    let password = desktop.find(By::Id("login-password")).await.unwrap();
    assert_eq!(password.value().await.unwrap().as_deref(), Some(""));
    // The one error the browser recorded is the refused sign-in (HTTP 401).
    let errors = console_errors(desktop).await;
    assert!(
        errors.len() == 1 && errors[0].contains("/api/auth/login") && errors[0].contains("401"),
        "console errors: {errors:#?}"
    );

    // The right one opens the desktop page in the person's name.
    sign_in_on_page(desktop, "zhangsan", "zhangsan-password").await;
    wait_path(desktop, "/").await;
    wait_text(desktop, "#user-line", |t| t.contains("已登录：张三")).await;

    // The whole flow, signed in; the phone through the link's upload token.
    let (id, claim_no) = the_whole_flow(&app, &portal, desktop).await;

    // The phone's link expires: the page says until when, and renews it on request.
    let expiry = wait_text(desktop, "#qr-expiry", |t| t.contains("前有效")).await;
    assert!(expiry.contains("刷新二维码"), "{expiry}");
    let before = attribute(desktop, "qr", "src").await;
    click(desktop, "qr-renew").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    while attribute(desktop, "qr", "src").await == before {
        assert!(
            Instant::now() < deadline,
            "刷新二维码 did not renew the code"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let link = wait_text(desktop, "#mobile-link", |t| t.contains("?t=")).await;
    assert!(link.contains(&format!("/mobile/{id}?t=")), "{link}");
    wait_text(desktop, "#qr-expiry", |t| t.contains("前有效")).await;
    snap(desktop, "16-signed-in").await;

    // 历史报销 lists the claim.
    click(desktop, "tab-history").await;
    wait_text(desktop, "#claims", |t| t.contains(&claim_no)).await;
    wait_text(desktop, "#history-count", |t| t == "共 1 张报销单").await;

    // 退出登录 ends the sign-in, in the browser and on the server; `/` sends to sign in again.
    let cookie = desktop.get_named_cookie(LOGIN_COOKIE).await.unwrap().value;
    click(desktop, "logout").await;
    wait_path(desktop, "/login").await;
    let me: serde_json::Value = app
        .client
        .get(app.url("/api/auth/me"))
        .header("Cookie", format!("{LOGIN_COOKIE}={cookie}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        me["signed_in"], false,
        "the old cookie still signs in: {me}"
    );
    desktop.goto(format!("{}/", app.base)).await.unwrap();
    wait_path(desktop, "/login").await;
    wait_text(desktop, "#login-title", |t| t == "登录").await;
    desktop_browser.close().await;
}

#[tokio::test]
async fn extraction_only_a_portal_error_and_a_force_submit() {
    let (app, portal) = app_and_portal().await;
    let session = browser().await;
    let driver = session.driver().unwrap();
    // Extraction only: progress, then the table with its totals and downloads.
    extract_one(
        driver,
        &app,
        "digital_normal_single.pdf",
        &[
            ("username", "100001"),
            ("password", "wrong"),
            ("default_name", "张三"),
        ],
    )
    .await;
    wait_text(driver, "#file-progress", |t| t.contains("完成")).await;
    wait_text(driver, "#totals", |t| t.contains("共 1 行")).await;
    wait_text(driver, "#downloads", |t| t.contains("invoice_summary.csv")).await;
    snap(driver, "4-table").await;
    // An edit saved regenerates the outbound-stock document of this general invoice.
    let remark = driver
        .find(By::Css("input[aria-label='第 1 行 备注']"))
        .await
        .unwrap();
    remark.send_keys("（已核对）").await.unwrap();
    click(driver, "save").await;
    wait_text(driver, "#save-result", |t| t.contains("出库单已重新生成")).await;
    // The portal refuses the wrong password: its message shows.
    click(driver, "submit").await;
    let error = wait_text(driver, "#result", |t| t.contains("提交失败")).await;
    assert!(error.contains("密码"), "{error}");
    snap(driver, "7-error").await;
    assert!(portal.claims().await.is_empty());
    // The agent asks (no storage location); a force submit behind its confirmation.
    fill_config(
        driver,
        &[("consumable_storage", ""), ("password", "demo123")],
    )
    .await;
    click(driver, "run-agent").await;
    wait_text(driver, "#agent-request", |t| t.contains("存放地点")).await;
    click(driver, "force-submit").await;
    driver.accept_alert().await.unwrap();
    let result = wait_text(driver, "#result", |t| t.contains("报销单号")).await;
    assert_eq!(portal.claims().await.len(), 1, "{result}");
    session.close().await;
}

#[tokio::test]
async fn hostile_names_render_as_text() {
    let (app, _portal) = app_and_portal().await;
    let id = app.create_session().await;
    let hostile = "<img src=x onerror=alert(1)>";
    let saved = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv", "data": [
            {"序号": "1", "发票号码": "12345678", "开票日期": "2025/03/11", "项目名称": "*运输服务*客运",
             "价税合计": "10.00", "销售方名称": hostile}]}))
        .send()
        .await
        .unwrap();
    assert_eq!(saved.status(), 200);
    assert_eq!(
        app.upload(
            &id,
            &format!("{hostile}.pdf"),
            common::fixture("railway_ticket.pdf")
        )
        .await
        .status(),
        200
    );
    let session = browser().await;
    let driver = session.driver().unwrap();
    driver.goto(format!("{}/#s={id}", app.base)).await.unwrap();
    wait_text(driver, "#files", |t| t.contains("onerror")).await;
    wait_text(driver, "#totals", |t| t.contains("共 1 行")).await;
    let seller = driver
        .find(By::Css("input[aria-label='第 1 行 销售方名称']"))
        .await
        .unwrap();
    assert_eq!(seller.value().await.unwrap().as_deref(), Some(hostile));
    let injected = driver.find_all(By::Css("img[src='x']")).await.unwrap();
    assert!(injected.is_empty(), "a name became markup");
    session.close().await;
}

/// The page's errors the browser recorded (failed loads, uncaught exceptions).
async fn console_errors(driver: &WebDriver) -> Vec<String> {
    driver
        .browser_log()
        .await
        .unwrap()
        .into_iter()
        .filter(|entry| entry.level == "SEVERE")
        .map(|entry| entry.message)
        .collect()
}

#[tokio::test]
async fn a_fresh_page_shows_no_error_and_offers_only_documents_that_exist() {
    let (app, _portal) = app_and_portal().await;
    let head = app.client.head(app.url("/")).send().await.unwrap();
    assert_eq!(head.status(), 200, "HEAD /");
    let session = browser().await;
    let driver = session.driver().unwrap();

    // A general invoice: upload, run, save; the console stays clean throughout.
    let config = [("username", "100001"), ("default_name", "张三")];
    extract_one(driver, &app, "digital_normal_single.pdf", &config).await;
    let downloads = wait_text(driver, "#downloads", |t| t.contains("出库单")).await;
    assert!(downloads.contains("invoice_summary.csv"), "{downloads}");
    click(driver, "save").await;
    wait_text(driver, "#save-result", |t| t.contains("出库单已重新生成")).await;
    // A reload finds the table and the document again, without asking for what is not there.
    driver.refresh().await.unwrap();
    wait_text(driver, "#downloads", |t| t.contains("出库单")).await;
    let errors = console_errors(driver).await;
    assert!(errors.is_empty(), "console errors: {errors:#?}");

    // A travel-only session: no document is due, and none is offered.
    extract_one(driver, &app, "railway_ticket.pdf", &config).await;
    let downloads = wait_text(driver, "#downloads", |t| t.contains(".csv")).await;
    assert!(!downloads.contains("出库单"), "{downloads}");
    let errors = console_errors(driver).await;
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    session.close().await;
}

/// The width the page's preview picture loaded at (0 until it has loaded).
async fn preview_width(driver: &WebDriver) -> i64 {
    driver
        .execute(
            "const img = document.getElementById('package-preview'); \
             return img && img.complete ? img.naturalWidth : 0;",
            Vec::new(),
        )
        .await
        .unwrap()
        .json()
        .as_i64()
        .unwrap_or(0)
}

async fn wait_preview(driver: &WebDriver) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while preview_width(driver).await == 0 {
        assert!(Instant::now() < deadline, "the preview never loaded");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test]
async fn the_printed_claim_is_offered_with_a_picture_of_its_first_page() {
    let (app, _portal) = app_and_portal().await;
    let session = browser().await;
    let driver = session.driver().unwrap();
    // A travel-only session has no outbound-stock document, but has its printed claim.
    let config = [("username", "100001"), ("default_name", "张三")];
    extract_one(driver, &app, "railway_ticket.pdf", &config).await;
    let downloads = wait_text(driver, "#downloads", |t| t.contains("报销材料.pdf")).await;
    assert!(!downloads.contains("出库单"), "{downloads}");
    wait_preview(driver).await;
    let preview = driver.find(By::Id("package-preview")).await.unwrap();
    assert_eq!(
        preview.attr("alt").await.unwrap().as_deref(),
        Some("报销材料第 1 页预览")
    );
    let link = driver
        .find(By::XPath("//p[@id='downloads']/a[text()='报销材料.pdf']"))
        .await
        .unwrap();
    let href = link.attr("href").await.unwrap().unwrap();
    let pdf = app.get(&href).await;
    assert_eq!(pdf.status(), 200);
    assert!(pdf.bytes().await.unwrap().starts_with(b"%PDF"));
    snap(driver, "package-preview").await;

    // A save makes it again, and the picture shown is the new one.
    let before = preview.attr("src").await.unwrap().unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    click(driver, "save").await;
    wait_text(driver, "#save-result", |t| t.contains("报销材料已重新生成")).await;
    wait_preview(driver).await;
    let after = driver
        .find(By::Id("package-preview"))
        .await
        .unwrap()
        .attr("src")
        .await
        .unwrap()
        .unwrap();
    assert_ne!(before, after);
    // A reload finds it again from the last run's result.
    driver.refresh().await.unwrap();
    wait_text(driver, "#downloads", |t| t.contains("报销材料.pdf")).await;
    wait_preview(driver).await;
    let errors = console_errors(driver).await;
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    session.close().await;
}

/// Waits until the element with this id is not displayed (`hidden`, or gone).
async fn wait_hidden(driver: &WebDriver, id: &str, within: Duration) {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        match driver.find(By::Id(id)).await {
            Ok(element) if element.is_displayed().await.unwrap() => {}
            _ => return,
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("#{id} still shows after {within:?}");
}

/// A small real PNG, striped like a captcha picture: 40 × 16 pixels.
fn captcha_png() -> Vec<u8> {
    let picture = image::RgbImage::from_fn(40, 16, |x, y| {
        if (x + y) % 8 < 4 {
            image::Rgb([30, 30, 120])
        } else {
            image::Rgb([240, 240, 240])
        }
    });
    let mut png = std::io::Cursor::new(Vec::new());
    picture.write_to(&mut png, image::ImageFormat::Png).unwrap();
    png.into_inner()
}

fn captcha(prompt: &str, image: bool, attempt: u32, refusal: Option<&str>, wait: u64) -> Challenge {
    Challenge {
        prompt: prompt.to_owned(),
        image_png: image.then(captcha_png),
        attempt,
        attempts: 3,
        refusal: refusal.map(str::to_owned),
        wait: Duration::from_secs(wait),
    }
}

#[tokio::test]
async fn the_portals_captcha_shows_on_the_page_and_the_typed_answer_reaches_the_submission() {
    let finance = common::finance(None);
    let challenges = finance.challenges.clone();
    let app = spawn_app_with(Options {
        finance,
        ..Options::default()
    })
    .await;
    let id = app.create_session().await;
    let person = challenges.person(&app.session(&id));
    let ask = |challenge: Challenge| {
        let person = Arc::clone(&person);
        tokio::spawn(async move { person.ask(challenge).await })
    };
    let session = browser().await;
    let driver = session.driver().unwrap();

    // The page on the session while nothing waits: no panel.
    driver.goto(format!("{}/#s={id}", app.base)).await.unwrap();
    wait_text(driver, "#session-id", |t| t == id).await;
    assert!(
        !driver
            .find(By::Id("challenge"))
            .await
            .unwrap()
            .is_displayed()
            .await
            .unwrap()
    );

    // The submission asks; the page, reloaded, finds the question waiting.
    let first = ask(captcha("请输入图片中的验证码", true, 1, None, 60));
    while challenges.waiting(&id).is_none() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    driver.refresh().await.unwrap();
    let panel = wait_text(driver, "#challenge", |t| t.contains("请输入图片中的验证码")).await;
    assert!(panel.contains("财务系统需要验证"), "{panel}");
    assert!(!panel.contains("门户提示"), "{panel}");
    let countdown = wait_text(driver, "#challenge-countdown", |t| t.starts_with("剩余 ")).await;
    let seconds: u64 = countdown
        .trim_start_matches("剩余 ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((40..=60).contains(&seconds), "{countdown}");
    let picture = driver.find(By::Css("#challenge img")).await.unwrap();
    assert!(picture.is_displayed().await.unwrap());
    let src = picture.attr("src").await.unwrap().unwrap();
    assert!(src.starts_with("data:image/png;base64,"), "{src}");
    // Decoded, not refused (the page's Content-Security-Policy lets data: images in).
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let width = driver
            .execute(
                "return document.querySelector('#challenge img').naturalWidth;",
                Vec::new(),
            )
            .await
            .unwrap();
        if width.json() == &json!(40) {
            break;
        }
        assert!(Instant::now() < deadline, "the picture was not decoded");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    wait_text(driver, "#log", |t| t.contains("等待输入验证码")).await;
    snap(driver, "9-captcha").await;
    // Typed as a person types: the cursor is already in the answer box, Enter sends.
    driver
        .active_element()
        .await
        .unwrap()
        .send_keys("4821" + Key::Enter)
        .await
        .unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(10), first)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(answer.as_deref(), Some("4821"));
    wait_hidden(driver, "challenge", Duration::from_secs(10)).await;

    // The portal refused: asked again with its words, over the stream the page now follows.
    let second = ask(captcha(
        "请输入图片中的验证码",
        true,
        2,
        Some("验证码错误"),
        60,
    ));
    let panel = wait_text(driver, "#challenge", |t| t.contains("验证码错误")).await;
    assert!(
        panel.contains("门户提示：验证码错误，请重新输入"),
        "{panel}"
    );
    wait_text(driver, "#challenge-countdown", |t| t.contains("第 2/3 次")).await;
    // An empty answer is refused in the server's words, and the question stays.
    click(driver, "challenge-send").await;
    wait_text(driver, "#challenge-error", |t| t == "请输入验证码").await;
    fill(driver, "#challenge-answer", "5930").await;
    click(driver, "challenge-send").await;
    let answer = tokio::time::timeout(Duration::from_secs(10), second)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(answer.as_deref(), Some("5930"));
    wait_hidden(driver, "challenge", Duration::from_secs(10)).await;

    // Nobody answers in time: the question goes, and the log says so.
    let third = ask(captcha("请输入短信验证码", false, 1, None, 2));
    wait_text(driver, "#challenge", |t| t.contains("请输入短信验证码")).await;
    assert!(
        !driver
            .find(By::Id("challenge-image"))
            .await
            .unwrap()
            .is_displayed()
            .await
            .unwrap()
    );
    let answer = tokio::time::timeout(Duration::from_secs(10), third)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(answer, None);
    wait_hidden(driver, "challenge", Duration::from_secs(3)).await;
    wait_text(driver, "#log", |t| t.contains("已超时")).await;
    // The one error the browser recorded is the empty answer's refusal (HTTP 400).
    let errors = console_errors(driver).await;
    assert!(
        errors.len() == 1
            && errors[0].contains("/api/submit-challenge/")
            && errors[0].contains("400"),
        "console errors: {errors:#?}"
    );
    session.close().await;
}

/// A whole claim into the campus portal, whose login has a captcha: the person starts the
/// submission on the page, the captcha shows there, they type what the picture says (the test
/// reads it through the portal's test hook), and the claim number shows.
#[tokio::test]
async fn a_campus_claim_through_the_page_with_the_captcha_typed_by_the_person() {
    let portal = campus_portal::spawn(
        std::net::TcpListener::bind("127.0.0.1:0").unwrap(),
        campus_portal::CampusConfig::default(),
    )
    .unwrap();
    let mut finance = common::finance(Some(portal.base_url().to_owned()));
    finance.flow = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../flows/campus-portal.toml");
    let app = spawn_app_with(Options {
        finance,
        ..Options::default()
    })
    .await;
    let session = browser().await;
    let driver = session.driver().unwrap();
    extract_one(
        driver,
        &app,
        "digital_normal_single.pdf",
        &[
            ("username", "200001"),
            ("password", "campus123"),
            ("default_name", "李四"),
        ],
    )
    .await;
    click(driver, "submit").await;
    let panel = wait_text(driver, "#challenge", |t| t.contains("验证码")).await;
    assert!(panel.contains("财务系统需要验证"), "{panel}");
    let picture = driver.find(By::Css("#challenge img")).await.unwrap();
    assert!(picture.is_displayed().await.unwrap());
    let code = reqwest::get(format!("{}/test/captcha", portal.base_url()))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    driver
        .active_element()
        .await
        .unwrap()
        .send_keys(code + Key::Enter)
        .await
        .unwrap();
    let result = wait_text(driver, "#result", |t| {
        t.contains("报销单号") || t.contains("提交失败")
    })
    .await;
    let claims: serde_json::Value = reqwest::get(format!("{}/api/claims", portal.base_url()))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let claim_no = claims[0]["claim_no"]
        .as_str()
        .unwrap_or_else(|| panic!("{result}"));
    assert!(result.contains(claim_no), "{result}");
    assert!(!result.contains("单据号："), "the number alone: {result}");
    wait_hidden(driver, "challenge", Duration::from_secs(10)).await;
    session.close().await;
}

/// An invoice of a seeded claim, keyed as a 数电 invoice (a 20-digit number, no code).
fn ledger_invoice(number: &str, date: &str, amount_cents: i64, seller: &str) -> InvoiceEntry {
    InvoiceEntry {
        key: ledger::invoice_key("", number),
        number: number.to_owned(),
        code: String::new(),
        date: date.to_owned(),
        amount_cents,
        seller: seller.to_owned(),
        sha256: String::new(),
    }
}

/// Records in the app's ledger a claim the portal accepted as `claim_no`, stamped at `at` (UTC),
/// as a submission would have.
async fn seed_claim(
    app: &TestApp,
    at: &str,
    claim_no: &str,
    (kind, staff_no, claimant, session_id): (&str, &str, &str, &str),
    invoices: Vec<InvoiceEntry>,
) -> ClaimId {
    let ledger = app.state.finance.ledger.clone().unwrap();
    let draft = ClaimDraft {
        portal: "demo-portal".to_owned(),
        kind: kind.to_owned(),
        staff_no: staff_no.to_owned(),
        claimant: claimant.to_owned(),
        session_id: session_id.to_owned(),
        total_cents: invoices.iter().map(|i| i.amount_cents).sum(),
        invoices,
        owner: String::new(),
    };
    let (at, claim_no) = (at.to_owned(), claim_no.to_owned());
    // The ledger blocks: off the async workers.
    tokio::task::spawn_blocking(move || {
        ledger.set_clock_for_tests(Some(&at)).unwrap();
        let id = ledger.reserve(&draft).unwrap();
        ledger.accept(id, &claim_no).unwrap();
        ledger.set_clock_for_tests(None).unwrap();
        id
    })
    .await
    .unwrap()
}

/// Whether the element with this id is displayed.
async fn displayed(driver: &WebDriver, id: &str) -> bool {
    driver
        .find(By::Id(id))
        .await
        .unwrap()
        .is_displayed()
        .await
        .unwrap()
}

#[tokio::test]
async fn the_history_lists_filters_opens_and_voids_claims() {
    let app = spawn_app_with(Options::default()).await;
    // The travel claim's session is still here, with its file; the other's is gone.
    let session_id = app.create_session().await;
    let uploaded = app
        .upload(
            &session_id,
            "railway_ticket.pdf",
            common::fixture("railway_ticket.pdf"),
        )
        .await;
    assert_eq!(uploaded.status(), 200);
    seed_claim(
        &app,
        "2026-11-02T02:00:00Z",
        "BX20261102-0003",
        ("general", "100001", "张三", "a-session-long-gone"),
        vec![
            ledger_invoice(
                "25442000000116575693",
                "2026-10-30",
                15_500,
                "长沙市示例文具店",
            ),
            ledger_invoice(
                "25442000000116575694",
                "2026-10-31",
                10_000,
                "长沙市示例文具店",
            ),
        ],
    )
    .await;
    let travel = seed_claim(
        &app,
        "2026-11-20T03:00:00Z",
        "BX20261120-0001",
        ("travel", "100002", "李四", &session_id),
        vec![ledger_invoice(
            "25442000000116575695",
            "2026-11-18",
            128_050,
            "中国铁路示例客运段",
        )],
    )
    .await;

    let session = browser().await;
    let driver = session.driver().unwrap();
    driver.goto(format!("{}/", app.base)).await.unwrap();
    wait_text(driver, "#session-id", |t| t.len() == 36).await;
    // Closed, the history is neither shown nor asked for.
    assert!(!displayed(driver, "history").await);
    let asked = driver
        .execute(
            "return performance.getEntriesByType('resource')\
               .filter((e) => e.name.includes('/api/claims')).length;",
            Vec::new(),
        )
        .await
        .unwrap();
    assert_eq!(asked.json(), &json!(0), "the history was fetched unopened");

    // Opened: both claims, newest first, as a person reads them.
    let tab = driver.find(By::Id("tab-history")).await.unwrap();
    assert_eq!(tab.text().await.unwrap(), "历史报销");
    tab.click().await.unwrap();
    let list = wait_text(driver, "#claims", |t| {
        t.contains("BX20261102-0003") && t.contains("BX20261120-0001")
    })
    .await;
    for shown in [
        "2026-11-02",
        "2026-11-20",
        "日常",
        "差旅",
        "张三（100001）",
        "李四（100002）",
        "255.00",
        "1280.50",
        "已报销",
    ] {
        assert!(list.contains(shown), "{shown} in {list}");
    }
    assert!(
        list.find("BX20261120-0001") < list.find("BX20261102-0003"),
        "newest first: {list}"
    );
    assert!(!displayed(driver, "work").await, "the session's work hides");
    wait_text(driver, "#history-count", |t| t == "共 2 张报销单").await;
    snap(driver, "10-history").await;

    // Filtered by text: one remains, and the exports follow the filter.
    fill(driver, "#history-q", "李四").await;
    click(driver, "history-search").await;
    wait_text(driver, "#claims", |t| {
        t.contains("BX20261120-0001") && !t.contains("BX20261102-0003")
    })
    .await;
    for (id, ext) in [("export-csv", "csv"), ("export-xlsx", "xlsx")] {
        let link = driver.find(By::Id(id)).await.unwrap();
        let href = link.attr("href").await.unwrap().unwrap();
        assert!(
            href.starts_with(&format!("/api/claims/export.{ext}?")) && href.contains("q="),
            "{href}"
        );
        let export = app.get(&href).await;
        assert_eq!(export.status(), 200, "{href}");
        if ext == "csv" {
            let csv = export.text().await.unwrap();
            assert!(
                csv.contains("BX20261120-0001") && !csv.contains("BX20261102-0003"),
                "{csv}"
            );
        }
    }

    // Its details: the summary, the invoice, the session's file.
    driver
        .find(By::Css("#claims tbody button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let detail = wait_text(driver, "#claim-detail", |t| {
        t.contains("25442000000116575695")
    })
    .await;
    for shown in [
        "报销单 BX20261120-0001",
        "2026-11-18",
        "1280.50",
        "中国铁路示例客运段",
        "差旅",
        "李四（100002）",
        "已报销",
    ] {
        assert!(detail.contains(shown), "{shown} in {detail}");
    }
    wait_text(driver, "#claim-files", |t| t.contains("railway_ticket.pdf")).await;
    snap(driver, "11-claim").await;

    // Voided without a reason: refused in the server's words; then with one.
    click(driver, "void-send").await;
    wait_text(driver, "#void-error", |t| t == "请填写作废原因").await;
    fill(driver, "#void-reason", "行程取消，退回重报").await;
    fill(driver, "#void-by", "王会计").await;
    click(driver, "void-send").await;
    let detail = wait_text(driver, "#claim-detail", |t| t.contains("已作废")).await;
    assert!(
        detail.contains("行程取消，退回重报") && detail.contains("王会计"),
        "{detail}"
    );
    assert!(
        !displayed(driver, "void-form").await,
        "voided: no second void"
    );
    wait_text(driver, "#claims", |t| t.contains("已作废")).await;
    snap(driver, "12-voided").await;

    let claim: serde_json::Value = app
        .get(&format!("/api/claims/{travel}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(claim["summary"]["status"], "voided", "{claim}");
    assert_eq!(claim["voided"]["reason"], "行程取消，退回重报", "{claim}");
    assert_eq!(claim["voided"]["by"], "王会计", "{claim}");
    // The one error the browser recorded is the refusal of the empty reason (HTTP 400).
    let errors = console_errors(driver).await;
    assert!(
        errors.len() == 1 && errors[0].contains("/void") && errors[0].contains("400"),
        "console errors: {errors:#?}"
    );
    session.close().await;
}

#[tokio::test]
async fn a_table_row_already_in_the_ledger_is_marked_with_the_ledgers_words() {
    let app = spawn_app_with(Options::default()).await;
    // The fixture's invoice (fixtures/invoices/digital_normal_single.json), already claimed;
    // and another invoice of the same seller, amount and date in a third person's claim.
    const NUMBER: &str = "25335400968681583673";
    const SELLER: &str = "长沙市岳麓区示例湘菜馆";
    seed_claim(
        &app,
        "2026-11-02T02:00:00Z",
        "BX20261102-0003",
        ("general", "100001", "张三", "an-earlier-session"),
        vec![ledger_invoice(NUMBER, "2025-03-14", 29_000, SELLER)],
    )
    .await;
    seed_claim(
        &app,
        "2026-11-05T02:00:00Z",
        "BX20261105-0002",
        ("general", "100003", "王五", "another-session"),
        vec![ledger_invoice(
            "25335400968681580000",
            "2025-03-14",
            29_000,
            SELLER,
        )],
    )
    .await;

    let session = browser().await;
    let driver = session.driver().unwrap();
    extract_one(
        driver,
        &app,
        "digital_normal_single.pdf",
        &[("username", "100001"), ("default_name", "张三")],
    )
    .await;
    let number = driver
        .find(By::Css("input[aria-label='第 1 行 发票号码']"))
        .await
        .unwrap()
        .value()
        .await
        .unwrap();
    assert_eq!(number.as_deref(), Some(NUMBER), "the fixture's invoice");

    let warnings = wait_text(driver, "#ledger-warnings", |t| t.contains("第 1 行")).await;
    let claimed = driver
        .find(By::Css("#ledger-warnings li.error"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        claimed, "第 1 行：该发票已于 2026-11-02 在报销单 BX20261102-0003 中报销（张三）",
        "{warnings}"
    );
    let near = driver
        .find(By::Css("#ledger-warnings li.warn"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        near.starts_with("第 1 行（疑似重复）：") && near.contains("BX20261105-0002"),
        "{warnings}"
    );
    // The row itself is marked, and says why when pointed at.
    let row = driver.find(By::Css("#table tbody tr")).await.unwrap();
    assert_eq!(row.attr("class").await.unwrap().as_deref(), Some("claimed"));
    let title = row.attr("title").await.unwrap().unwrap_or_default();
    assert!(title.contains("BX20261102-0003"), "{title}");
    driver
        .find(By::Id("ledger-warnings"))
        .await
        .unwrap()
        .scroll_into_view()
        .await
        .unwrap();
    snap(driver, "13-claimed-row").await;
    let errors = console_errors(driver).await;
    assert!(errors.is_empty(), "console errors: {errors:#?}");
    session.close().await;
}
