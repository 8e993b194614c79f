//! POST /api/submit-financial end to end: the service drives real headless Chromium through the
//! shipped flow into the demo portal, whose /api/claims shows exactly what arrived.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Options, Portal, TestApp, browser_available, fixture, spawn_app, spawn_app_with};
use serde_json::{Value, json};

async fn app_for(portal: &Portal) -> TestApp {
    spawn_app_with(Options {
        finance: common::finance(Some(portal.thread.base_url())),
        ..Options::default()
    })
    .await
}

/// Uploads fixtures and processes them with the portal's demo credentials.
async fn processed_session(app: &TestApp, files: &[&str], password: &str) -> String {
    let id = app.create_session().await;
    for name in files {
        assert_eq!(app.upload(&id, name, fixture(name)).await.status(), 200);
    }
    let response = app
        .client
        .post(app.url(&format!("/api/process/{id}")))
        .json(&json!({"username": "100001", "password": password, "default_name": "张三", "consumable_storage": "实验楼 301"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let events = app
        .open_stream(&id, None)
        .await
        .collect_until_closed()
        .await;
    assert_eq!(events.last().unwrap().data["result"]["ok"], true);
    id
}

async fn submit(app: &TestApp, id: &str) -> Value {
    let response = app
        .client
        .post(app.url(&format!("/api/submit-financial/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"status": "started"})
    );
    let events = app.open_stream(id, None).await.collect_until_closed().await;
    assert!(
        events.iter().any(|e| e.data["type"] == "log"
            && (e.data["module"] == "bot" || e.data["module"] == "ledger"))
    );
    events.last().unwrap().data["result"].clone()
}

#[tokio::test]
async fn preconditions_are_checked_before_anything_starts() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let response = app
        .client
        .post(app.url(&format!("/api/submit-financial/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400, "no config.json");
    assert!(
        response.json::<Value>().await.unwrap()["error"]
            .as_str()
            .unwrap()
            .contains("config.json")
    );
    app.session(&id)
        .write_config(&domain::SessionConfig::default())
        .unwrap();
    let response = app
        .client
        .post(app.url(&format!("/api/submit-financial/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400, "no table");
    let unknown = app
        .client
        .post(app.url("/api/submit-financial/00000000-0000-4000-8000-000000000000"))
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);
}

#[tokio::test]
async fn a_general_claim_arrives_exactly_and_is_not_filed_twice() {
    assert!(
        browser_available(),
        "chromium or chromedriver missing: cargo xtask install installs it"
    );
    let portal = Portal::start();
    let app = app_for(&portal).await;
    let id = processed_session(
        &app,
        &["digital_normal_multi.pdf", "digital_normal_single.pdf"],
        "demo123",
    )
    .await;
    let result = submit(&app, &id).await;
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["submit_ok"], true, "{result}");
    assert!(result["submit_error"].is_null());
    assert_eq!(result["flow"], "general");
    let claim_no = result["claim_no"].as_str().unwrap();
    assert!(claim_no.starts_with("BX"), "{claim_no}");
    // The printed claim was made again after the portal accepted it, with its number.
    assert_eq!(result["package_ok"], true, "{result}");
    let package = app.session_dir(&id).join("报销材料.pdf");
    let page_one = std::process::Command::new("pdftotext")
        .args(["-f", "1", "-l", "1"])
        .arg(&package)
        .arg("-")
        .output()
        .unwrap();
    let page_one = String::from_utf8_lossy(&page_one.stdout).into_owned();
    assert!(
        page_one.contains(claim_no),
        "{claim_no} not on page 1:\n{page_one}"
    );
    assert!(!page_one.contains("待提交"), "{page_one}");

    let claims = portal.claims().await;
    assert_eq!(claims.len(), 1);
    let claim = &claims[0];
    assert_eq!(claim["claim_no"], claim_no);
    assert_eq!(claim["type"], "general");
    assert_eq!(claim["claimant"], "张三");
    let data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    let rows = claim["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    for (sent, table_row) in rows.iter().zip(data["data"].as_array().unwrap()) {
        let sent_text = sent.to_string();
        for column in ["发票号码", "价税合计", "销售方名称", "项目名称"] {
            let value = table_row[column].as_str().unwrap();
            assert!(
                sent_text.contains(value),
                "{column} {value} missing from {sent_text}"
            );
        }
    }
    let attachments: Vec<&str> = claim["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert!(
        attachments.contains(&"digital_normal_multi.pdf"),
        "{attachments:?}"
    );
    assert!(
        attachments.contains(&"digital_normal_single.pdf"),
        "{attachments:?}"
    );
    let multi = claim["attachments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "digital_normal_multi.pdf")
        .unwrap();
    assert_eq!(multi["size"], fixture("digital_normal_multi.pdf").len());

    // The same table again: refused here, before any browser starts.
    let again = submit(&app, &id).await;
    assert_eq!(again["submit_ok"], false);
    assert!(
        again["submit_error"]
            .as_str()
            .unwrap()
            .contains("不再重复提交"),
        "{again}"
    );
    assert!(again["submit_error"].as_str().unwrap().contains(claim_no));
    assert_eq!(portal.claims().await.len(), 1);

    // An edited table is a new submission; the ledger, and after a void the portal, refuse the
    // already claimed invoices, and the portal's own message, the failing step and a
    // screenshot reach the user.
    let mut rows = data["data"].clone();
    rows[0]["备注"] = json!("改过");
    let saved: Value = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": data["csv_filename"], "data": rows}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(saved["ok"], true);
    // The claims ledger refuses first: the invoices are in an accepted claim.
    let refused = submit(&app, &id).await;
    let error = refused["submit_error"].as_str().unwrap();
    assert!(
        error.contains("不能重复报销，未提交") && error.contains(claim_no),
        "{error}"
    );
    // Voided in the ledger (sent back by the office, say), the portal still has it.
    let listed: Value = app.get("/api/claims").await.json().await.unwrap();
    let ledger_id = listed["claims"][0]["id"].as_i64().unwrap();
    let voided = app
        .client
        .post(app.url(&format!("/api/claims/{ledger_id}/void")))
        .json(&json!({"reason": "测试：门户自己的查重"}))
        .send()
        .await
        .unwrap();
    assert_eq!(voided.status(), 200);
    let rejected = submit(&app, &id).await;
    assert_eq!(rejected["submit_ok"], false, "{rejected}");
    let error = rejected["submit_error"].as_str().unwrap();
    assert!(error.contains("已报销过"), "{error}");
    assert!(error.contains('步'), "the failing step is named: {error}");
    let screenshot = rejected["screenshot"].as_str().unwrap();
    assert!(error.contains(screenshot));
    let png = app.get(&format!("/api/download/{id}/{screenshot}")).await;
    assert_eq!(png.status(), 200);
    assert!(png.bytes().await.unwrap().starts_with(b"\x89PNG"));
    let listing: Value = app
        .get(&format!("/api/files/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        listing["images"],
        json!([]),
        "failure screenshots are not uploads"
    );
    assert_eq!(portal.claims().await.len(), 1);
}

#[tokio::test]
async fn a_travel_only_session_uses_the_travel_flow() {
    assert!(
        browser_available(),
        "chromium or chromedriver missing: cargo xtask install installs it"
    );
    let portal = Portal::start();
    let app = app_for(&portal).await;
    let id = processed_session(&app, &["railway_ticket.pdf", "toll.pdf"], "demo123").await;
    let result = submit(&app, &id).await;
    assert_eq!(result["submit_ok"], true, "{result}");
    assert_eq!(result["flow"], "travel");
    let claims = portal.claims().await;
    assert_eq!(claims[0]["type"], "travel");
    let types: Vec<&str> = claims[0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["expense_type"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(types, ["train", "toll"], "{}", claims[0]);
}

#[tokio::test]
async fn a_wrong_password_is_reported_with_the_portal_message() {
    assert!(
        browser_available(),
        "chromium or chromedriver missing: cargo xtask install installs it"
    );
    let portal = Portal::start();
    let app = app_for(&portal).await;
    let id = processed_session(&app, &["digital_normal_single.pdf"], "wrong-password").await;
    let result = submit(&app, &id).await;
    assert_eq!(result["submit_ok"], false);
    let error = result["submit_error"].as_str().unwrap();
    assert!(error.contains("用户名或密码错误"), "{error}");
    assert!(
        !error.contains("wrong-password"),
        "the password never appears"
    );
    assert!(portal.claims().await.is_empty());
}
