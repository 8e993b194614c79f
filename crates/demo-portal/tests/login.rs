//! Login, logout, sessions and the pages that require them.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{no_redirects, spawn, spawn_with};
use reimburse_demo_portal::{Account, PortalConfig};

#[tokio::test]
async fn the_login_page_has_the_documented_form() {
    let portal = spawn().await;
    let page = portal.get("/").await;
    assert_eq!(page.path, "/login");
    assert_eq!(page.status, 200);
    for needle in [
        "id=\"login-form\"",
        "id=\"username\" name=\"username\"",
        "id=\"password\" name=\"password\"",
        "id=\"login-button\"",
        ">登录</button>",
        "示例大学 财务综合服务平台 (演示)",
        "<meta charset=\"utf-8\">",
    ] {
        assert!(page.body.contains(needle), "missing {needle}");
    }
    assert!(!page.body.contains("login-error"));
}

#[tokio::test]
async fn logging_in_opens_the_home_page_with_menu_and_iframe() {
    let portal = spawn().await;
    let home = portal.login().await;
    assert_eq!(home.status, 200);
    for needle in [
        "<iframe id=\"main-frame\" name=\"main-frame\" src=\"/portal/frame/welcome\"",
        "id=\"menu-general\" href=\"/portal/frame/general\" target=\"main-frame\">日常报销",
        "id=\"menu-travel\" href=\"/portal/frame/travel\" target=\"main-frame\">差旅报销",
        "id=\"menu-claims\" href=\"/portal/frame/claims\" target=\"main-frame\">我的报销单",
        "id=\"menu-logout\" href=\"/logout\"",
        ">退出</a>",
    ] {
        assert!(home.body.contains(needle), "missing {needle}");
    }
    assert_eq!(home.text_of("current-user").as_deref(), Some("张三"));
    let welcome = portal.get("/portal/frame/welcome").await;
    assert!(welcome.body.contains("张三老师，您好"));
    // The root now leads home.
    assert_eq!(portal.get("/").await.path, "/portal/home");
}

#[tokio::test]
async fn a_wrong_password_shows_the_error_and_stays_on_the_login_page() {
    let portal = spawn().await;
    let page = portal.login_as("100001", "wrong").await;
    assert_eq!(page.path, "/login");
    assert_eq!(page.status, 401);
    assert_eq!(
        page.text_of("login-error").as_deref(),
        Some("用户名或密码错误")
    );
    assert!(
        page.body
            .contains("id=\"username\" name=\"username\" value=\"100001\"")
    );
    assert!(page.body.contains("id=\"login-form\""));
    // Still not logged in.
    assert_eq!(portal.get("/portal/home").await.path, "/login");

    let unknown = portal.login_as("999999", "demo123").await;
    assert_eq!(
        unknown.text_of("login-error").as_deref(),
        Some("用户名或密码错误")
    );
    let empty = portal.login_as("", "").await;
    assert_eq!(
        empty.text_of("login-error").as_deref(),
        Some("请输入工号和密码")
    );
}

#[tokio::test]
async fn the_user_name_is_escaped_on_the_login_page() {
    let portal = spawn().await;
    let page = portal.login_as("\"><script>alert(1)</script>", "x").await;
    assert!(!page.body.contains("<script>alert(1)"));
    assert!(
        page.body
            .contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;")
    );
}

#[tokio::test]
async fn every_portal_page_redirects_to_login_without_a_session() {
    let portal = spawn().await;
    let client = no_redirects();
    for path in [
        "/portal/home",
        "/portal/frame/welcome",
        "/portal/frame/general",
        "/portal/frame/travel",
        "/portal/frame/claims",
        "/portal/frame/claims/BX20261121-0001",
    ] {
        let response = client.get(portal.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 303, "{path}");
        assert_eq!(response.headers()["location"], "/login", "{path}");
    }
    for path in ["/portal/frame/general", "/portal/frame/travel"] {
        let response = client
            .post(portal.url(path))
            .multipart(common::general().form())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 303, "{path}");
        assert_eq!(response.headers()["location"], "/login", "{path}");
    }
    // A forged cookie is no session either.
    let response = client
        .get(portal.url("/portal/home"))
        .header("cookie", "demo_portal_session=00ff")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 303);
    assert!(portal.claims().await.is_empty());
}

#[tokio::test]
async fn the_session_cookie_is_http_only_and_random() {
    let portal = spawn().await;
    let client = no_redirects();
    let mut tokens = Vec::new();
    for _ in 0..2 {
        let response = client
            .post(portal.url("/login"))
            .form(&[("username", "100001"), ("password", "demo123")])
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 303);
        assert_eq!(response.headers()["location"], "/portal/home");
        let cookie = response.headers()["set-cookie"]
            .to_str()
            .unwrap()
            .to_owned();
        assert!(cookie.starts_with("demo_portal_session="), "{cookie}");
        assert!(cookie.contains("HttpOnly"));
        tokens.push(cookie);
    }
    assert_ne!(tokens[0], tokens[1]);
}

#[tokio::test]
async fn logout_ends_the_session() {
    let portal = spawn().await;
    portal.login().await;
    let page = portal.get("/logout").await;
    assert_eq!(page.path, "/login");
    assert_eq!(portal.get("/portal/frame/general").await.path, "/login");
}

#[tokio::test]
async fn configured_accounts_replace_the_demo_account() {
    let portal = spawn_with(PortalConfig {
        accounts: vec![Account::new("200002", "s3cret", "李四")],
        ..PortalConfig::default()
    })
    .await;
    let login_page = portal.get("/login").await;
    assert!(!login_page.body.contains("演示账号"));
    let refused = portal.login_as("100001", "demo123").await;
    assert_eq!(
        refused.text_of("login-error").as_deref(),
        Some("用户名或密码错误")
    );
    let home = portal.login_as("200002", "s3cret").await;
    assert_eq!(home.path, "/portal/home");
    assert_eq!(home.text_of("current-user").as_deref(), Some("李四"));
    let form = portal.get("/portal/frame/general").await;
    assert!(
        form.body
            .contains("id=\"claimant\" name=\"claimant\" value=\"李四\"")
    );
    assert!(
        form.body
            .contains("id=\"employee-no\" name=\"employee-no\" value=\"200002\"")
    );
}

#[tokio::test]
async fn unknown_paths_are_a_not_found_page() {
    let portal = spawn().await;
    let page = portal.get("/nope").await;
    assert_eq!(page.status, 404);
    assert!(page.body.contains("页面不存在"));
}
