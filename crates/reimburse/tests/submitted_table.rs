//! What reaches the finance portal is exactly the saved table: a large mixed table (extracted
//! invoices and typed rows, payments matched, missing and split over two invoices, full card
//! numbers and tails) is saved, submitted through the real browser, and the claim the demo
//! portal stored is compared with `/api/data` cell by cell.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{fixture, json_of, start, workspace};
use serde_json::{Map, Value, json};

/// The table's column for each field of the portal's general row, and whether the flow writes
/// its date with dashes.
const COLUMNS: [(&str, &str, bool); 8] = [
    ("invoice_number", "发票号码", false),
    ("invoice_date", "开票日期", true),
    ("item_name", "项目名称", false),
    ("amount", "价税合计", false),
    ("seller_name", "销售方名称", false),
    ("card_date", "刷卡日期", true),
    ("card_number", "公务卡号", false),
    ("card_amount", "刷卡金额", false),
];

fn screenshot(name: &str) -> Vec<u8> {
    std::fs::read(workspace().join("fixtures/screenshots").join(name)).unwrap()
}

/// Typed rows with every kind of payment cell: none, a card tail, a full number, and one
/// payment split over two invoices (same date and card, each row its own share).
fn typed_rows(from: usize) -> Vec<Map<String, Value>> {
    (0..19)
        .map(|i| {
            let n = from + i;
            let amount = format!("{}.{:02}", 20 + i * 7, (i * 13) % 100);
            let (card_date, card_number, card_amount) = match i % 4 {
                0 => (String::new(), String::new(), String::new()),
                1 => (
                    format!("2025/04/{:02}", i + 1),
                    "6742".to_owned(),
                    amount.clone(),
                ),
                2 => (
                    format!("2025/04/{:02}", i + 1),
                    "6222021234567890123".to_owned(),
                    amount.clone(),
                ),
                _ => (
                    "2025/04/28".to_owned(),
                    "6222600011112222".to_owned(),
                    amount.clone(),
                ),
            };
            let row = json!({
                "序号": n.to_string(),
                "发票号码": format!("2544200000{:010}", 7_300_000 + i),
                "开票日期": format!("2025/04/{:02}", i + 1),
                "项目名称": format!("*办公用品*笔记本（{i}号，A5）"),
                "规格型号": "A5",
                "价税合计": amount,
                "销售方名称": format!("杭州样例文具第{i}分店有限公司"),
                "人员姓名": "张三",
                "工号": "100001",
                "刷卡日期": card_date,
                "刷卡金额": card_amount,
                "公务卡号": card_number,
                "备注": "",
            });
            row.as_object().unwrap().clone()
        })
        .collect()
}

#[tokio::test]
async fn the_portal_receives_exactly_the_saved_table() {
    let dir = tempfile::tempdir().unwrap();
    let data = common::configured_data_dir(dir.path(), "");
    let server = start(&data);
    let client = reqwest::Client::new();
    let id = server.create_session(&client).await;
    for name in [
        "digital_normal_single.pdf",
        "digital_normal_multi.pdf",
        "vat_e_normal.pdf",
    ] {
        server.upload(&client, &id, name, fixture(name)).await;
    }
    // Screenshots make the table payment_records.csv, the one /api/data prefers.
    for name in ["alipay_bill_01.png", "bank_card_01.png"] {
        server.upload(&client, &id, name, screenshot(name)).await;
    }
    let config = json!({"username": "100001", "password": "demo123", "default_name": "张三",
                        "consumable_storage": "实验楼 301"});
    let response = client
        .post(server.url(&format!("/api/process/{id}")))
        .json(&config)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let result = server.events_until_done(&id).await.last().unwrap()["result"].clone();
    assert_eq!(result["ok"], true, "{result}");

    let table = json_of(client.get(server.url(&format!("/api/data/{id}")))).await;
    assert_eq!(table["csv_filename"], "payment_records.csv", "{table}");
    let mut rows: Vec<Map<String, Value>> = table["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_object().unwrap().clone())
        .collect();
    assert_eq!(rows.len(), 3);
    // The first extracted invoice paid by a full card number, the second not at all.
    let first_total = rows[0]["价税合计"].clone();
    rows[0].insert("刷卡日期".into(), json!("2025/03/20"));
    rows[0].insert("公务卡号".into(), json!("6222021234567890123"));
    rows[0].insert("刷卡金额".into(), first_total);
    rows.extend(typed_rows(4));
    let save = client
        .post(server.url(&format!("/api/save/{id}")))
        .json(&json!({"csv_filename": "payment_records.csv", "data": rows}))
        .send()
        .await
        .unwrap();
    assert_eq!(save.status(), 200, "{}", save.text().await.unwrap());

    // What the user sees now is what must arrive.
    let shown = json_of(client.get(server.url(&format!("/api/data/{id}")))).await;
    let shown = shown["data"].as_array().unwrap().clone();
    assert_eq!(shown.len(), 22);

    let response = client
        .post(server.url(&format!("/api/submit-financial/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let result = server.events_until_done(&id).await.last().unwrap()["result"].clone();
    assert_eq!(result["submit_ok"], true, "{result}");
    let claims = json_of(client.get(format!("{}/api/claims", server.portal))).await;
    let claim = claims["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["claim_no"] == result["claim_no"])
        .unwrap_or_else(|| panic!("claim {} not in the portal: {claims}", result["claim_no"]))
        .clone();
    let received = claim["rows"].as_array().unwrap();
    assert_eq!(received.len(), shown.len(), "{claim}");
    let mut differences = Vec::new();
    for (index, (sent, got)) in shown.iter().zip(received).enumerate() {
        for (field, column, dashed) in COLUMNS {
            let mut want = sent[column].as_str().unwrap_or_default().trim().to_owned();
            if dashed {
                want = want.replace('/', "-");
            }
            let have = got[field].as_str().unwrap_or_default();
            if have != want {
                differences.push(format!(
                    "row {}: {column} «{want}» arrived as «{have}»",
                    index + 1
                ));
            }
        }
    }
    assert!(differences.is_empty(), "{differences:#?}");
}
