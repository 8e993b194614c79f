//! Payment screenshots in /api/process: offline OCR, the vision model through a scripted
//! OpenAI-compatible server (its stream reaching the SSE client in order), matching, and
//! payment_records.csv read first by /api/data.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Options, TestApp, spawn_app, spawn_app_with};
use llm::testing::{ScriptedReply, ScriptedServer};
use pipeline::ScreenshotSettings;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;

fn fixture(dir: &str, name: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures")
            .join(dir)
            .join(name),
    )
    .unwrap()
}

async fn process(app: &TestApp, id: &str) -> Vec<Value> {
    let response = app
        .client
        .post(app.url(&format!("/api/process/{id}")))
        .json(&json!({"default_card_no": "6217000011112222", "default_name": "张三"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    app.open_stream(id, None)
        .await
        .collect_until_closed()
        .await
        .into_iter()
        .map(|e| e.data)
        .collect()
}

fn ocr_models_installed() -> bool {
    pp_ocr_models_dir().is_some()
}

/// The models' folder as the service finds it (`models/pp-ocr` in an ancestor of the
/// working directory).
fn pp_ocr_models_dir() -> Option<std::path::PathBuf> {
    std::env::current_dir()
        .ok()?
        .ancestors()
        .map(|a| a.join("models/pp-ocr"))
        .find(|p| p.join("rec.onnx").is_file())
}

#[tokio::test]
async fn screenshots_are_read_offline_and_unmatched_ones_are_reported() {
    assert!(
        ocr_models_installed(),
        "PP-OCR models missing: cargo xtask install fetches them"
    );
    let app = spawn_app().await;
    let id = app.create_session().await;
    app.upload(
        &id,
        "发票.pdf",
        fixture("invoices", "digital_normal_single.pdf"),
    )
    .await;
    app.upload(
        &id,
        "支付宝.png",
        fixture("screenshots", "alipay_bill_01.png"),
    )
    .await;
    let events = process(&app, &id).await;
    let result = &events.last().unwrap()["result"];
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["payment_count"], 1);
    assert_eq!(
        result["unmatched_payments"],
        json!(["支付宝.png"]),
        "a payment of another amount is never forced"
    );
    let expected: Value =
        serde_json::from_slice(&fixture("screenshots", "alipay_bill_01.json")).unwrap();
    let done = events
        .iter()
        .find(|e| {
            e["type"] == "file_progress" && e["file"] == "支付宝.png" && e["status"] == "done"
        })
        .unwrap();
    let summary = done["summary"].as_str().unwrap();
    assert!(
        summary.contains(expected["amount"].as_str().unwrap()),
        "{summary}"
    );
    assert!(
        summary.contains(expected["date"].as_str().unwrap()),
        "{summary}"
    );
    let data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(data["csv_filename"], "payment_records.csv");
    assert_eq!(data["data"][0]["刷卡金额"], "");
}

/// The vision model's answer for a screenshot of the invoice's own payment.
fn answer() -> Value {
    json!({
        "amount": "290.00", "date": "2025/03/14", "time": "12:30:05", "card_last4": "1237",
        "card_number": "6222020000001237", "card_bank": "工商银行", "merchant": "长沙市岳麓区示例湘菜馆",
        "channel": "微信支付", "order_no": "4200002025031412300501", "status": "成功", "no_payment": false
    })
}

async fn app_with_model(server: &ScriptedServer) -> TestApp {
    let client = llm::Client::new(server.config()).unwrap();
    spawn_app_with(Options {
        screenshots: ScreenshotSettings {
            llm: Some(Arc::new(client)),
        },
        ..Options::default()
    })
    .await
}

#[tokio::test]
async fn the_vision_model_fills_the_payment_columns_and_streams_in_order() {
    let text = answer().to_string();
    let (head, tail) = text.split_at(text.len() / 2);
    let server = ScriptedServer::start(vec![ScriptedReply::reasoned(
        &["先找金额", "再找卡号"],
        &[head, tail],
    )])
    .unwrap();
    let app = app_with_model(&server).await;
    let id = app.create_session().await;
    app.upload(
        &id,
        "发票.pdf",
        fixture("invoices", "digital_normal_single.pdf"),
    )
    .await;
    app.upload(
        &id,
        "微信.png",
        fixture("screenshots", "alipay_bill_01.png"),
    )
    .await;
    let events = process(&app, &id).await;
    let result = &events.last().unwrap()["result"];
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["matched"], 1, "{result}");

    let stream: Vec<(String, String)> = events
        .iter()
        .filter(|e| e["type"] == "llm_stream")
        .map(|e| {
            (
                e["phase"].as_str().unwrap().to_owned(),
                e["text"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let phases: Vec<&str> = stream.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        phases,
        ["start", "reasoning", "reasoning", "chunk", "chunk", "end"],
        "{stream:?}"
    );
    assert_eq!(stream[1].1, "先找金额");
    assert_eq!(format!("{}{}", stream[3].1, stream[4].1), text);

    let request = &server.requests()[0];
    assert!(
        request.has_images,
        "the screenshot is sent to the vision model"
    );
    assert_eq!(request.model, Some(server.config().vision_model));

    let data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(data["csv_filename"], "payment_records.csv");
    let row = &data["data"][0];
    assert_eq!(row["刷卡金额"], "290.00");
    assert_eq!(row["刷卡日期"], "2025/03/14");
    assert_eq!(
        row["公务卡号"], "6222020000001237",
        "the full number on the screenshot wins"
    );
    assert_eq!(row["人员姓名"], "张三");
    let summary: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(summary["data"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_failing_model_is_reported_and_ocr_takes_over() {
    let server =
        ScriptedServer::start(vec![ScriptedReply::Malformed, ScriptedReply::Malformed]).unwrap();
    let app = app_with_model(&server).await;
    let id = app.create_session().await;
    app.upload(
        &id,
        "发票.pdf",
        fixture("invoices", "digital_normal_single.pdf"),
    )
    .await;
    app.upload(
        &id,
        "截图.png",
        fixture("screenshots", "alipay_bill_01.png"),
    )
    .await;
    let events = process(&app, &id).await;
    let result = &events.last().unwrap()["result"];
    assert_eq!(result["ok"], true, "{result}");
    let errors: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "llm_stream" && e["phase"] == "error")
        .collect();
    assert!(!errors.is_empty(), "the failure reaches the client");
    assert!(
        errors.last().unwrap()["text"]
            .as_str()
            .unwrap()
            .contains("OCR")
    );
    assert_eq!(
        server.requests().len(),
        2,
        "one corrective retry, then give up"
    );
}

#[tokio::test]
async fn several_screenshots_keep_upload_order_and_a_rerun_takes_them_from_the_cache() {
    assert!(
        ocr_models_installed(),
        "PP-OCR models missing: cargo xtask install fetches them"
    );
    let app = spawn_app().await;
    let id = app.create_session().await;
    app.upload(
        &id,
        "发票.pdf",
        fixture("invoices", "digital_normal_single.pdf"),
    )
    .await;
    let shots = [
        "wechat_success_01",
        "bank_card_01",
        "no_payment_01",
        "unionpay_01",
        "alipay_bill_02",
    ];
    for (i, stem) in shots.iter().enumerate() {
        let name = format!("{i}-{stem}.png");
        app.upload(&id, &name, fixture("screenshots", &format!("{stem}.png")))
            .await;
    }
    let payments = || async {
        let body: Value = app
            .get(&format!("/api/download/{id}/payments.json"))
            .await
            .json()
            .await
            .unwrap();
        body["payments"].as_array().unwrap().clone()
    };

    let first = process(&app, &id).await;
    assert_eq!(first.last().unwrap()["result"]["payment_count"], 5);
    let read = payments().await;
    let files: Vec<&str> = read.iter().map(|p| p["file"].as_str().unwrap()).collect();
    let expected_files: Vec<String> = shots
        .iter()
        .enumerate()
        .map(|(i, stem)| format!("{i}-{stem}.png"))
        .collect();
    assert_eq!(files, expected_files, "records come back in upload order");
    for (record, stem) in read.iter().zip(shots) {
        let expected: Value =
            serde_json::from_slice(&fixture("screenshots", &format!("{stem}.json"))).unwrap();
        for field in ["amount", "date", "card_last4", "no_payment"] {
            assert_eq!(record[field], expected[field], "{stem} {field}");
        }
    }
    let done = |events: &[Value], status: &str| {
        events
            .iter()
            .filter(|e| {
                e["type"] == "file_progress"
                    && e["status"] == status
                    && e["file"].as_str().unwrap().ends_with(".png")
            })
            .count()
    };
    assert_eq!(done(&first, "done"), 5);

    let second = process(&app, &id).await;
    assert_eq!(
        done(&second, "cached"),
        5,
        "the same bytes are not read twice"
    );
    assert_eq!(done(&second, "done"), 0);
    assert_eq!(payments().await, read);
}
