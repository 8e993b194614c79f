//! The agent flow end to end: HTTP, a real SSE client, the demo portal in headless Chromium.
//! Complete information submits by itself; incomplete information asks, and a text or file
//! supplement or a force submit finishes it; the round limit ends in error; nothing is filed
//! twice.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Options, Portal, TestApp, browser_available, fixture, spawn_app, spawn_app_with};
use llm::testing::{ScriptedReply, ScriptedServer};
use pipeline::ScreenshotSettings;
use serde_json::{Value, json};
use std::sync::Arc;

async fn app_for(portal: &Portal) -> TestApp {
    assert!(
        browser_available(),
        "chromium or chromedriver missing: cargo xtask install installs them"
    );
    spawn_app_with(Options {
        finance: common::finance(Some(portal.thread.base_url())),
        ..Options::default()
    })
    .await
}

fn config() -> Value {
    json!({"username": "100001", "password": "demo123", "default_name": "张三",
           "consumable_storage": "实验楼 301"})
}

async fn post(app: &TestApp, path: &str, body: Value) -> reqwest::Response {
    app.client
        .post(app.url(path))
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// Starts an agent request and returns the events of the run it started, `done` last.
async fn run(app: &TestApp, path: &str, body: Value) -> Vec<Value> {
    let response = post(app, path, body).await;
    assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
    let id = path.rsplit('/').next().unwrap();
    let mut stream = app.open_stream(id, None).await;
    let mut events = Vec::new();
    while let Some(event) = stream.next_event().await {
        events.push(event.data);
    }
    events
}

fn types(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| e["type"].as_str())
        .filter(|t| t.starts_with("agent_") || *t == "done")
        .collect()
}

fn done(events: &[Value]) -> &Value {
    let last = events.last().unwrap();
    assert_eq!(last["type"], "done", "{events:?}");
    &last["result"]
}

async fn session_with(app: &TestApp, files: &[&str]) -> String {
    let id = app.create_session().await;
    for name in files {
        assert_eq!(app.upload(&id, name, fixture(name)).await.status(), 200);
    }
    id
}

async fn agent_state(app: &TestApp, id: &str) -> Value {
    app.get(&format!("/api/agent/state/{id}"))
        .await
        .json()
        .await
        .unwrap()
}

#[tokio::test]
async fn complete_information_is_submitted_by_itself() {
    let portal = Portal::start();
    let app = app_for(&portal).await;
    let id = session_with(&app, &["digital_normal_single.pdf"]).await;
    let events = run(&app, &format!("/api/agent/process/{id}"), config()).await;
    assert_eq!(
        types(&events),
        [
            "agent_state_change",
            "agent_extract_status",
            "agent_state_change",
            "agent_ready",
            "agent_state_change",
            "agent_state_change",
            "done"
        ]
    );
    assert_eq!(
        events
            .iter()
            .find(|e| e["type"] == "agent_state_change")
            .unwrap()["state"],
        "extracting"
    );
    let result = done(&events);
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["agent_ready"], true);
    assert_eq!(result["submit_ok"], true, "{result}");
    assert_eq!(result["round"], 1);
    assert!(result["message"].is_string());
    let claims = portal.claims().await;
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0]["claim_no"], result["claim_no"]);
    // The agent's result shows the printed claim made after the submission, number filled in.
    assert_eq!(result["package_ok"], true, "{result}");
    assert!(result["package_url"].as_str().unwrap().ends_with(".pdf"));
    let page_one = std::process::Command::new("pdftotext")
        .args(["-f", "1", "-l", "1"])
        .arg(app.session_dir(&id).join("报销材料.pdf"))
        .arg("-")
        .output()
        .unwrap();
    let page_one = String::from_utf8_lossy(&page_one.stdout).into_owned();
    assert!(
        page_one.contains(result["claim_no"].as_str().unwrap()),
        "{page_one}"
    );
    let state = agent_state(&app, &id).await;
    assert_eq!(state["state"], "done");
    assert_eq!(state["max_rounds"], 5);
    assert_eq!(state["invoice_type"], "general");
    assert!(!state["validation_reports"].as_array().unwrap().is_empty());

    // Processing again files nothing twice: the ledger knows the invoice is claimed, so the
    // agent asks instead of submitting, and says which claim holds it.
    let again = run(&app, &format!("/api/agent/process/{id}"), config()).await;
    assert_ne!(done(&again)["submit_ok"], true, "{:?}", done(&again));
    let request = again
        .iter()
        .find(|e| e["type"] == "agent_request_supplement")
        .unwrap_or_else(|| panic!("{again:?}"));
    let claim_no = result["claim_no"].as_str().unwrap();
    assert!(
        request["semantic_issues"]
            .to_string()
            .contains(&format!("在报销单 {claim_no} 中报销")),
        "{request}"
    );
    assert_eq!(portal.claims().await.len(), 1);
}

#[tokio::test]
async fn a_travel_claim_asks_and_a_text_supplement_completes_it() {
    let portal = Portal::start();
    let app = app_for(&portal).await;
    let id = session_with(&app, &["railway_ticket.pdf"]).await;
    let events = run(&app, &format!("/api/agent/process/{id}"), config()).await;
    assert_eq!(
        types(&events),
        [
            "agent_state_change",
            "agent_extract_status",
            "agent_state_change",
            "agent_request_supplement",
            "done"
        ]
    );
    let request = events
        .iter()
        .find(|e| e["type"] == "agent_request_supplement")
        .unwrap();
    let missing = request["missing_fields"].to_string();
    assert!(missing.contains("出差事由"), "{request}");
    assert!(
        request["semantic_issues"].to_string().contains("赵晓岚"),
        "{request}"
    );
    assert!(!request["suggestion"].as_str().unwrap().is_empty());
    let mut result = done(&events).clone();
    // The interface's fields exactly, plus the printed claim's (an addition).
    assert_eq!(result["package_ok"], true, "{result}");
    result
        .as_object_mut()
        .unwrap()
        .retain(|key, _| !key.starts_with("package_"));
    assert_eq!(
        result,
        json!({"ok": true, "agent_ready": false, "agent_state": "awaiting_supplement", "round": 1, "waiting_for_supplement": true})
    );
    assert!(portal.claims().await.is_empty());

    // Refusals before anything starts.
    let blank = post(
        &app,
        &format!("/api/agent/user-supplement/{id}"),
        json!({"text": "  "}),
    )
    .await;
    assert_eq!(blank.status(), 400);
    assert_eq!(
        blank.json::<Value>().await.unwrap()["error"],
        "请输入补充信息"
    );

    let text = "出差事由：参加学术会议\n返回日期：2025-03-30\n人员姓名：赵晓岚";
    let events = run(
        &app,
        &format!("/api/agent/user-supplement/{id}"),
        json!({"text": text}),
    )
    .await;
    let result = done(&events);
    assert_eq!(result["submit_ok"], true, "{result} {events:?}");
    assert_eq!(result["round"], 2);
    let claims = portal.claims().await;
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0]["type"], "travel");
    assert_eq!(claims[0]["purpose"], "参加学术会议", "{}", claims[0]);
    let application: Value = app
        .get(&format!("/api/download/{id}/travel_applications.json"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(application["purpose"], "参加学术会议");
    assert_eq!(application["origin"], "宁波");
    assert_eq!(application["sources"]["出差事由"], "user");
}

#[tokio::test]
async fn force_submit_from_awaiting_supplement() {
    let portal = Portal::start();
    let app = app_for(&portal).await;
    let id = session_with(&app, &["railway_ticket.pdf"]).await;
    let events = run(&app, &format!("/api/agent/process/{id}"), config()).await;
    assert_eq!(done(&events)["waiting_for_supplement"], true);
    let events = run(&app, &format!("/api/agent/force-submit/{id}"), json!({})).await;
    assert_eq!(
        types(&events),
        [
            "agent_force_submit",
            "agent_state_change",
            "agent_state_change",
            "done"
        ]
    );
    let result = done(&events);
    assert_eq!(result["ok"], true);
    assert!(
        result.get("submit_ok").is_some() && result.get("submit_error").is_some(),
        "{result}"
    );
    // The portal itself refuses a trip without a return date, and says so.
    let state = agent_state(&app, &id).await;
    assert_eq!(state["state"], "done");
    // A second force submit is not allowed in `done`.
    let again = post(&app, &format!("/api/agent/force-submit/{id}"), json!({})).await;
    assert_eq!(again.status(), 409);
}

/// The vision model's reading of a screenshot of the invoice's own payment.
fn screenshot_answer() -> Value {
    json!({
        "amount": "290.00", "date": "2025/03/14", "time": "12:30:05", "card_last4": "1237",
        "card_number": "6222020000001237", "card_bank": "工商银行", "merchant": "长沙市岳麓区示例湘菜馆",
        "channel": "微信支付", "order_no": "4200002025031412300501", "status": "成功", "no_payment": false
    })
}

fn judgement(can_submit: bool, materials: &[&str]) -> Value {
    json!({"can_submit": can_submit, "missing_fields": [], "missing_materials": materials,
           "semantic_issues": [], "suggestion": if can_submit { "可以提交" } else { "请上传公务卡支付记录截图" }})
}

async fn app_with_model(portal: &Portal, server: &ScriptedServer) -> TestApp {
    let client = llm::Client::new(server.config()).unwrap();
    spawn_app_with(Options {
        finance: common::finance(Some(portal.thread.base_url())),
        screenshots: ScreenshotSettings {
            llm: Some(Arc::new(client)),
        },
        ..Options::default()
    })
    .await
}

#[tokio::test]
async fn a_payment_screenshot_supplied_as_a_file_fills_the_card_columns_and_submits() {
    assert!(browser_available(), "cargo xtask install installs chromium");
    let portal = Portal::start();
    // Round 1: the model asks for the card record. Round 2: it reads the screenshot, then
    // finds the claim complete.
    let server = ScriptedServer::start(vec![
        ScriptedReply::json(&judgement(false, &["请上传公务卡支付记录截图"])),
        ScriptedReply::json(&screenshot_answer()),
        ScriptedReply::json(&judgement(true, &[])),
    ])
    .unwrap();
    let app = app_with_model(&portal, &server).await;
    let id = session_with(&app, &["digital_normal_single.pdf"]).await;
    let events = run(&app, &format!("/api/agent/process/{id}"), config()).await;
    let request = events
        .iter()
        .find(|e| e["type"] == "agent_request_supplement")
        .unwrap_or_else(|| panic!("{events:?}"));
    assert_eq!(
        request["missing_materials"],
        json!(["请上传公务卡支付记录截图"])
    );
    assert!(
        events.iter().any(|e| e["type"] == "llm_stream"),
        "the judgement streams"
    );
    assert!(portal.claims().await.is_empty());

    let screenshot = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/screenshots/alipay_bill_01.png"),
    )
    .unwrap();
    assert_eq!(
        app.upload(&id, "公务卡.png", screenshot).await.status(),
        200
    );
    let missing = post(
        &app,
        &format!("/api/agent/supplement/{id}"),
        json!({"files": ["nowhere.png"]}),
    )
    .await;
    assert_eq!(missing.status(), 400);
    let events = run(
        &app,
        &format!("/api/agent/supplement/{id}"),
        json!({"files": ["公务卡.png"]}),
    )
    .await;
    let agent: Vec<&str> = types(&events);
    assert_eq!(agent[0], "agent_supplement_received", "{events:?}");
    let result = done(&events);
    assert_eq!(result["submit_ok"], true, "{result}");
    assert_eq!(result["round"], 2);
    let data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    let row = &data["data"][0];
    assert_eq!(row["刷卡金额"], "290.00", "{row}");
    assert_eq!(row["公务卡号"], "6222020000001237");
    let claims = portal.claims().await;
    assert_eq!(claims.len(), 1);
    assert!(
        claims[0].to_string().contains("6222020000001237"),
        "{}",
        claims[0]
    );
    let state = agent_state(&app, &id).await;
    assert_eq!(state["user_supplements"][0]["kind"], "files");
    assert_eq!(
        state["validation_reports"][1]["judgement"]["decided_by"],
        "model"
    );
    // The model was given the rules' findings and the previous round's analysis.
    let asked = server.requests();
    let last = &asked.last().unwrap().messages.last().unwrap().text;
    assert!(
        last.contains("previous_round") && last.contains("rule_findings"),
        "{last}"
    );
}

#[tokio::test]
async fn a_failing_model_leaves_the_judgement_to_the_rules() {
    let portal = Portal::start();
    // Malformed twice (the client's one corrective retry included), then nothing more.
    let server = ScriptedServer::start(vec![
        ScriptedReply::text("这不是 JSON"),
        ScriptedReply::text("仍然不是"),
    ])
    .unwrap();
    let app = app_with_model(&portal, &server).await;
    let id = session_with(&app, &["railway_ticket.pdf"]).await;
    let events = run(&app, &format!("/api/agent/process/{id}"), config()).await;
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "llm_stream" && e["phase"] == "error"),
        "{events:?}"
    );
    let request = events
        .iter()
        .find(|e| e["type"] == "agent_request_supplement")
        .unwrap();
    assert!(request["missing_fields"].to_string().contains("出差事由"));
    assert_eq!(done(&events)["waiting_for_supplement"], true);
    let state = agent_state(&app, &id).await;
    assert_eq!(
        state["validation_reports"][0]["judgement"]["decided_by"],
        "rules"
    );
}

#[tokio::test]
async fn requests_the_state_does_not_allow_are_refused() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let state = agent_state(&app, &id).await;
    assert_eq!(state["state"], "idle");
    assert_eq!(state["rounds"], 0);
    let response = post(
        &app,
        &format!("/api/agent/supplement/{id}"),
        json!({"files": ["a.pdf"]}),
    )
    .await;
    assert_eq!(response.status(), 404);
    assert_eq!(
        response.json::<Value>().await.unwrap()["error"],
        "未找到 Agent 状态"
    );
    let response = post(&app, &format!("/api/agent/force-submit/{id}"), json!({})).await;
    assert_eq!(response.status(), 404);
    let response = post(
        &app,
        &format!("/api/agent/user-supplement/{id}"),
        json!({"text": ""}),
    )
    .await;
    assert_eq!(response.status(), 400);
    // No invoice: the round fails with agent_error and `ok: false`.
    let events = run(&app, &format!("/api/agent/process/{id}"), config()).await;
    assert!(types(&events).contains(&"agent_error"), "{events:?}");
    assert_eq!(done(&events)["ok"], false);
    assert!(done(&events)["error"].is_string());
    let response = post(
        &app,
        &format!("/api/agent/supplement/{id}"),
        json!({"files": ["a.pdf"]}),
    )
    .await;
    assert_eq!(response.status(), 409);
}

#[tokio::test]
async fn the_round_limit_ends_in_error() {
    let app = spawn_app().await;
    let id = session_with(&app, &["railway_ticket.pdf"]).await;
    let events = run(&app, &format!("/api/agent/process/{id}"), config()).await;
    assert_eq!(done(&events)["round"], 1);
    for round in 2..=5 {
        let events = run(
            &app,
            &format!("/api/agent/user-supplement/{id}"),
            json!({"text": "目的地：杭州东"}),
        )
        .await;
        assert_eq!(done(&events)["round"], round, "{events:?}");
        assert_eq!(done(&events)["waiting_for_supplement"], true);
    }
    let events = run(
        &app,
        &format!("/api/agent/user-supplement/{id}"),
        json!({"text": "目的地：杭州"}),
    )
    .await;
    assert!(types(&events).contains(&"agent_max_rounds"), "{events:?}");
    assert_eq!(done(&events)["ok"], false);
    let state = agent_state(&app, &id).await;
    assert_eq!(state["state"], "error");
    assert_eq!(state["rounds"], 5);
}

#[tokio::test]
async fn a_model_reads_free_text_that_the_key_table_cannot() {
    let portal = Portal::start();
    let blank = |pairs: &[(&str, &str)]| {
        let mut answer = serde_json::Map::new();
        for key in [
            "出差事由",
            "出发地",
            "目的地",
            "出发日期",
            "返回日期",
            "出差人",
            "人员姓名",
            "公务卡号",
            "工号",
            "存放地点",
        ] {
            answer.insert(key.to_owned(), json!(""));
        }
        for (k, v) in pairs {
            answer.insert((*k).to_owned(), json!(v));
        }
        Value::Object(answer)
    };
    let server = ScriptedServer::start(vec![
        ScriptedReply::json(&judgement(false, &[])),
        ScriptedReply::json(&blank(&[
            ("出差事由", "参加学术会议"),
            ("返回日期", "2025/03/30"),
            ("人员姓名", "赵晓岚"),
        ])),
        ScriptedReply::json(&judgement(true, &[])),
    ])
    .unwrap();
    let app = app_with_model(&portal, &server).await;
    let id = session_with(&app, &["railway_ticket.pdf"]).await;
    let events = run(&app, &format!("/api/agent/process/{id}"), config()).await;
    assert_eq!(done(&events)["waiting_for_supplement"], true);
    let text = "我去杭州参加学术会议，3月30日回来，车票上的乘车人就是我赵晓岚";
    let events = run(
        &app,
        &format!("/api/agent/user-supplement/{id}"),
        json!({"text": text}),
    )
    .await;
    assert_eq!(done(&events)["submit_ok"], true, "{events:?}");
    let claims = portal.claims().await;
    assert_eq!(claims[0]["purpose"], "参加学术会议");
    assert!(
        server.requests()[1]
            .messages
            .last()
            .unwrap()
            .text
            .contains(text)
    );
}

#[tokio::test]
async fn a_model_that_never_answers_times_out_and_the_rules_decide() {
    let portal = Portal::start();
    let server = ScriptedServer::start(vec![ScriptedReply::Hang; 4]).unwrap();
    let app = app_with_model(&portal, &server).await;
    let id = session_with(&app, &["railway_ticket.pdf"]).await;
    let events = run(&app, &format!("/api/agent/process/{id}"), config()).await;
    assert!(
        events
            .iter()
            .any(|e| e["type"] == "llm_stream" && e["phase"] == "error"),
        "{events:?}"
    );
    assert_eq!(done(&events)["waiting_for_supplement"], true);
    let state = agent_state(&app, &id).await;
    assert_eq!(
        state["validation_reports"][0]["judgement"]["decided_by"],
        "rules"
    );
}
