//! The outbound-stock document on /api/process and /api/save: a genuine .doc with the items,
//! regenerated from edits, skipped for travel-only sessions, reported when it cannot be made.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Options, TestApp, spawn_app, spawn_app_with};
use domain::InvoiceRecord;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> (Vec<u8>, InvoiceRecord) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/invoices");
    let bytes = std::fs::read(dir.join(name)).unwrap();
    let golden = std::fs::read(dir.join(name).with_extension("json")).unwrap();
    (bytes, serde_json::from_slice(&golden).unwrap())
}

fn tool_available(name: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The .doc's text as an independent reader (catdoc) sees it.
fn doc_text(path: &Path) -> String {
    let output = Command::new("catdoc")
        .args(["-d", "utf-8"])
        .arg(path)
        .output()
        .unwrap();
    assert!(output.status.success(), "catdoc failed");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

async fn process(app: &TestApp, id: &str, files: &[&str]) -> Value {
    for name in files {
        let (bytes, _) = fixture(name);
        assert_eq!(app.upload(id, name, bytes).await.status(), 200);
    }
    let response = app
        .client
        .post(app.url(&format!("/api/process/{id}")))
        .json(&json!({"default_name": "李四", "consumable_storage": "实验楼 301 柜"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let events = app.open_stream(id, None).await.collect_until_closed().await;
    events.last().unwrap().data["result"].clone()
}

/// Amount plus tax, as the document prints each line (what was paid).
fn with_tax(item: &domain::LineItem) -> String {
    let cents = |text: &str| -> i64 {
        let negative = text.starts_with('-');
        let (yuan, fen) = text.trim_start_matches('-').split_once('.').unwrap();
        let magnitude = yuan.parse::<i64>().unwrap() * 100 + fen.parse::<i64>().unwrap();
        if negative { -magnitude } else { magnitude }
    };
    let total = cents(&item.amount) + cents(&item.tax);
    let sign = if total < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", total.abs() / 100, total.abs() % 100)
}

#[tokio::test]
async fn process_generates_a_genuine_word_97_document_with_every_item() {
    assert!(
        tool_available("soffice") || !tool_available("catdoc"),
        "LibreOffice or catdoc missing: cargo xtask install installs it"
    );
    let app = spawn_app().await;
    let id = app.create_session().await;
    let result = process(
        &app,
        &id,
        &["digital_normal_multi.pdf", "railway_ticket.pdf"],
    )
    .await;
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["doc_ok"], true, "{result}");
    assert_eq!(result["general_count"], 1);
    assert_eq!(result["travel_count"], 1);
    let doc_url = result["doc_url"].as_str().unwrap();
    let response = app.get(doc_url).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/msword");

    let path = app.session_dir(&id).join("易耗品、出库单.doc");
    assert_eq!(
        response.bytes().await.unwrap().as_ref(),
        std::fs::read(&path).unwrap()
    );
    let kind = Command::new("file").arg(&path).output().unwrap();
    assert!(String::from_utf8_lossy(&kind.stdout).contains("Composite Document File V2"));
    assert!(
        app.session_dir(&id).join("易耗品、出库单.docx").is_file(),
        "the .docx stays beside it"
    );

    let text = doc_text(&path);
    let (_, record) = fixture("digital_normal_multi.pdf");
    for item in &record.items {
        let goods = item.name.rsplit('*').next().unwrap();
        assert!(text.contains(goods), "{goods} missing from:\n{text}");
        assert!(text.contains(&item.spec), "{} missing", item.spec);
        assert!(text.contains(&item.quantity), "{} missing", item.quantity);
        assert!(text.contains(&with_tax(item)), "{} missing", with_tax(item));
    }
    assert!(text.contains("实验楼 301 柜"), "storage location missing");
    assert!(text.contains(&record.total_with_tax), "total missing");
    let (_, ticket) = fixture("railway_ticket.pdf");
    let train = ticket.railway.unwrap().train_no;
    assert!(
        !text.contains(&train),
        "the travel invoice stays out of the document:\n{text}"
    );
}

#[tokio::test]
async fn save_regenerates_the_document_with_the_edited_values() {
    assert!(
        tool_available("soffice") || !tool_available("catdoc"),
        "LibreOffice or catdoc missing: cargo xtask install installs it"
    );
    let app = spawn_app().await;
    let id = app.create_session().await;
    let result = process(&app, &id, &["digital_normal_single.pdf"]).await;
    assert_eq!(result["doc_ok"], true, "{result}");
    let mut data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    let row = &mut data["data"][0];
    row["项目名称"] = json!("*办公用品*编辑后的订书机");
    row["规格型号"] = json!("HD-12");
    row["价税合计"] = json!("321.00");
    let response = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": data["csv_filename"], "data": data["data"]}))
        .send()
        .await
        .unwrap();
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["ok"], true);
    assert_eq!(body["doc_ok"], true, "{body}");
    assert_eq!(body["general_count"], 1);
    assert_eq!(body["travel_count"], 0);
    assert!(body["doc_url"].as_str().unwrap().ends_with(".doc"));
    let text = doc_text(&app.session_dir(&id).join("易耗品、出库单.doc"));
    assert!(text.contains("编辑后的订书机"), "{text}");
    assert!(text.contains("HD-12"), "{text}");
    assert!(text.contains("321.00"), "{text}");
}

#[tokio::test]
async fn a_row_without_a_readable_amount_is_left_out_and_named_not_the_whole_document() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let result = process(&app, &id, &["digital_normal_single.pdf"]).await;
    assert_eq!(result["doc_ok"], true, "{result}");
    let mut data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    // A second general invoice known only by its QR code: no item, no amount.
    let rows = data["data"].as_array_mut().unwrap();
    rows.push(
        json!({"序号": "2", "发票号码": "25442000000116575693", "开票日期": "2025/03/12",
        "项目名称": "*文具*订书钉", "价税合计": "", "销售方名称": "某某文具店"}),
    );
    let response = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": data["csv_filename"], "data": data["data"]}))
        .send()
        .await
        .unwrap();
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["doc_ok"], true, "{body}");
    assert!(
        body["doc_url"].as_str().unwrap().ends_with(".doc"),
        "{body}"
    );
    let named = body["doc_error"].as_str().unwrap_or_default();
    assert!(
        named.contains("第 2 行") && named.contains("25442000000116575693"),
        "{body}"
    );
    let text = doc_text(&app.session_dir(&id).join("易耗品、出库单.doc"));
    assert!(!text.contains("订书钉"), "{text}");
}

#[tokio::test]
async fn an_empty_table_skips_the_document_saying_so() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let response = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv", "data": []}))
        .send()
        .await
        .unwrap();
    let body: Value = response.json().await.unwrap();
    assert!(body["doc_ok"].is_null(), "{body}");
    assert_eq!(body["doc_skipped"], true);
    assert_eq!(body["doc_message"], "表格为空，无需生成出库单", "{body}");
}

#[tokio::test]
async fn a_travel_only_session_skips_the_document() {
    let app = spawn_app().await;
    let id = app.create_session().await;
    let result = process(&app, &id, &["railway_ticket.pdf", "toll.pdf"]).await;
    assert_eq!(result["ok"], true, "{result}");
    assert!(result["doc_ok"].is_null(), "{result}");
    assert_eq!(result["doc_skipped"], true);
    assert!(
        result["doc_message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    assert_eq!(result["general_count"], 0);
    assert_eq!(result["travel_count"], 2);
    assert!(!app.session_dir(&id).join("易耗品、出库单.doc").exists());
}

#[tokio::test]
async fn a_missing_template_fails_the_document_but_keeps_the_table() {
    let mut documents = common::documents();
    documents.template = PathBuf::from("/nonexistent/易耗品出库单.docx");
    let app = spawn_app_with(Options {
        documents,
        ..Options::default()
    })
    .await;
    let id = app.create_session().await;
    let result = process(&app, &id, &["digital_normal_single.pdf"]).await;
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["doc_ok"], false);
    assert!(
        result["doc_error"].as_str().unwrap().contains("模板"),
        "{result}"
    );
    let data: Value = app
        .get(&format!("/api/data/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        data["data"].as_array().unwrap().len(),
        1,
        "the CSV is still produced"
    );
    // Save reports the same failure and still saves.
    let response = app
        .client
        .post(app.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "invoice_summary.csv", "data": data["data"]}))
        .send()
        .await
        .unwrap();
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["ok"], true);
    assert_eq!(body["doc_ok"], false);
}
