//! Logging in through the captcha: the right code, a wrong one, none, a wrong password, and the
//! test hook's switch.

mod common;

use common::{Browser, config, start};

#[tokio::test]
async fn the_right_captcha_and_password_open_the_frame() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    let page = browser.text("/").await;
    assert!(page.contains("某某大学财务网上报销系统（测试）"));
    assert!(page.contains("name=\"userId\"") && page.contains("/captcha.png?t="));
    browser.log_in().await;
    let frame = browser.text("/main").await;
    assert!(frame.contains("李四"));
    assert!(frame.contains("<iframe name=\"main\""));
    for link in ["首页", "日常报销", "差旅报销", "我的单据"] {
        assert!(
            frame.contains(&format!("target=\"main\">{link}</a>")),
            "{link}"
        );
    }
    // A logged-in session going to the login page lands on the frame.
    assert_eq!(browser.get("/").await.headers()["location"], "/main");
}

#[tokio::test]
async fn a_wrong_captcha_is_refused_and_the_code_is_spent() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    let code = browser.load_login().await;
    let wrong = if code == "0000" { "1111" } else { "0000" };
    let response = browser.post_login("200001", "campus123", wrong).await;
    assert_eq!(response.status(), 200);
    let page = response.text().await.unwrap();
    assert!(page.contains("验证码错误"));
    assert!(page.contains("value=\"200001\""), "the 工号 is kept");
    // The code answered one attempt; typing it now is too late.
    let again = browser.post_login("200001", "campus123", &code).await;
    assert!(again.text().await.unwrap().contains("验证码已失效"));
    assert_eq!(browser.get("/main").await.headers()["location"], "/");
}

#[tokio::test]
async fn a_missing_captcha_and_a_wrong_password_have_their_messages() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    browser.load_login().await;
    let page = browser.post_login("200001", "campus123", "").await;
    assert!(page.text().await.unwrap().contains("请输入验证码"));
    let code = browser.load_login().await;
    let page = browser.post_login("200001", "wrong", &code).await;
    assert!(page.text().await.unwrap().contains("工号或密码错误"));
}

#[tokio::test]
async fn every_image_load_draws_a_new_code() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    let image = browser.get("/captcha.png").await.bytes().await.unwrap();
    assert!(image.starts_with(b"\x89PNG"));
    let session = browser.session.clone().unwrap();
    let hook = format!("/test/captcha?session={session}");
    let codes = codes_of_eight_loads(&mut browser, &hook).await;
    // Eight draws of a four-digit code all alike would be a broken generator.
    assert!(codes.len() > 1);
}

#[expect(
    clippy::unwrap_used,
    reason = "a helper of a test: a failed read fails the test"
)]
async fn codes_of_eight_loads(
    browser: &mut Browser,
    hook: &str,
) -> std::collections::HashSet<String> {
    let mut codes = std::collections::HashSet::new();
    for _ in 0..8 {
        browser.get("/captcha.png").await;
        let response = browser.get(hook).await;
        assert_eq!(response.headers()["x-test-hook"], "campus-portal");
        codes.insert(response.text().await.unwrap());
    }
    codes
}

#[tokio::test]
async fn the_test_hook_can_be_switched_off() {
    let portal = start(reimburse_campus_portal::CampusConfig {
        test_hooks: false,
        ..config()
    });
    let mut browser = Browser::new(&portal);
    browser.get("/captcha.png").await;
    let session = browser.session.clone().unwrap();
    let response = browser
        .get(&format!("/test/captcha?session={session}"))
        .await;
    assert_eq!(response.status(), 404);
}

#[tokio::test]
async fn pages_behind_login_send_the_browser_back() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    assert_eq!(browser.get("/main").await.headers()["location"], "/");
    let inner = browser.text("/claim/daily").await;
    assert!(inner.contains("登录已超时，请重新登录") && inner.contains("target=\"_top\""));
    let departments = browser.get("/api/departments").await;
    assert_eq!(departments.status(), 401);
}
