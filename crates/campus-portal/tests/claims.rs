//! The claim forms over HTTP: the department XHR, a claim filed with its number, the refusals
//! the page alerts, and what `/api/claims` and 我的单据 then show.

mod common;

use std::time::{Duration, Instant};

use common::{Browser, PDF, config, daily_form, pdf_part, start};
use reqwest::multipart::Form;
use sha2::{Digest, Sha256};

#[tokio::test]
async fn departments_come_by_xhr_after_the_page() {
    let portal = start(reimburse_campus_portal::CampusConfig {
        departments_delay: Duration::from_millis(200),
        ..config()
    });
    let mut browser = Browser::new(&portal);
    browser.log_in().await;
    let page = browser.text("/claim/daily").await;
    assert!(
        page.contains("<select id=\"dept\" name=\"dept\"></select>"),
        "empty at load"
    );
    let script = browser.text("/static/claim-form.js").await;
    assert!(script.contains("fetch('/api/departments'"));
    let started = Instant::now();
    let body: serde_json::Value = browser.get("/api/departments").await.json().await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(200));
    assert_eq!(body["code"], 0);
    assert_eq!(body["data"][0]["code"], "0101");
    assert_eq!(body["data"][0]["name"], "计算机科学与技术学院");
}

#[tokio::test]
async fn a_valid_claim_is_filed_with_its_number() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    browser.log_in().await;
    let answer = browser
        .submit(
            "/claim/daily/submit",
            daily_form(&[("12345678", "120.5"), ("87654321", "30")]),
        )
        .await;
    assert_eq!(answer["success"], true, "{answer}");
    assert_eq!(answer["billNo"], "CW2026000101");
    assert_eq!(answer["message"], "提交成功，单据号：CW2026000101");

    let claims: serde_json::Value = browser.get("/api/claims").await.json().await.unwrap();
    let claim = &claims[0];
    assert_eq!(claim["claim_no"], "CW2026000101");
    assert_eq!(claim["kind"], "daily");
    assert_eq!(claim["applicant"], "李四");
    assert_eq!(claim["department"], "计算机科学与技术学院");
    assert_eq!(claim["claim_date"], "2026-03-10");
    assert_eq!(claim["total"], "150.50");
    assert_eq!(claim["rows"][1]["invoice_no"], "87654321");
    assert_eq!(claim["rows"][0]["amount"], "120.50");
    let digest: String = Sha256::digest(PDF)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(claim["attachments"][0]["name"], "发票1.pdf");
    assert_eq!(claim["attachments"][0]["sha256"], digest);

    let mine = browser.text("/claims/mine").await;
    assert!(mine.contains("CW2026000101") && mine.contains("150.50"));
}

#[tokio::test]
async fn a_claimed_invoice_is_refused_naming_its_claim() {
    let portal = start(reimburse_campus_portal::CampusConfig {
        prior_invoices: vec![reimburse_campus_portal::PriorInvoice {
            invoice_no: "55556666".to_owned(),
            claim_no: "CW2026000003".to_owned(),
        }],
        ..config()
    });
    let mut browser = Browser::new(&portal);
    browser.log_in().await;
    let first = browser
        .submit("/claim/daily/submit", daily_form(&[("12345678", "10")]))
        .await;
    assert_eq!(first["billNo"], "CW2026000101");
    let again = browser
        .submit("/claim/daily/submit", daily_form(&[("12345678", "10")]))
        .await;
    assert_eq!(again["success"], false);
    assert_eq!(
        again["message"],
        "发票号码 12345678 已在单据 CW2026000101 中报销，不能重复报销"
    );
    let prior = browser
        .submit("/claim/daily/submit", daily_form(&[("55556666", "10")]))
        .await;
    assert_eq!(
        prior["message"],
        "发票号码 55556666 已在单据 CW2026000003 中报销，不能重复报销"
    );
    let next = browser
        .submit("/claim/daily/submit", daily_form(&[("99998888", "10")]))
        .await;
    assert_eq!(next["billNo"], "CW2026000102", "refusals use no number");
}

#[tokio::test]
async fn bad_rows_and_missing_fields_are_refused() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    browser.log_in().await;
    let bad_amount = browser
        .submit("/claim/daily/submit", daily_form(&[("12345678", "12元")]))
        .await;
    assert_eq!(bad_amount["message"], "第1行：金额格式不正确");
    let no_department = Form::new()
        .text("dept", "")
        .text("reason", "差旅")
        .part("files", pdf_part("a.pdf"));
    let answer = browser.submit("/claim/daily/submit", no_department).await;
    assert_eq!(answer["success"], false);
    assert_eq!(answer["message"], "部门不能为空");
    let second_row_undated = daily_form(&[("12345678", "1")])
        .text("inv_no[]", "23456789")
        .text("inv_date[]", "")
        .text("item[]", "办公用品")
        .text("amount[]", "2")
        .text("seller[]", "文具店");
    let answer = browser
        .submit("/claim/daily/submit", second_row_undated)
        .await;
    assert_eq!(answer["message"], "第2行：开票日期不能为空");
    let claims: serde_json::Value = browser.get("/api/claims").await.json().await.unwrap();
    assert_eq!(claims, serde_json::json!([]));
}

#[tokio::test]
async fn a_travel_claim_is_filed_and_an_empty_file_input_ignored() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    browser.log_in().await;
    let empty_input = reqwest::multipart::Part::bytes(Vec::new())
        .file_name("")
        .mime_str("application/octet-stream")
        .unwrap();
    let form = Form::new()
        .text("dept", "0305")
        .text("reason", "参加学术会议")
        .text("destination", "北京市")
        .text("start_date", "2026-03-05")
        .text("end_date", "2026-03-07")
        .text("inv_no[]", "12345678901234567890")
        .text("inv_date[]", "2026-03-05")
        .text("category[]", "住宿费")
        .text("amount[]", "880")
        .text("seller[]", "某某酒店")
        .part("files", empty_input)
        .part("files", pdf_part("住宿发票.pdf"));
    let answer = browser.submit("/claim/travel/submit", form).await;
    assert_eq!(
        answer["message"], "提交成功，单据号：CW2026000101",
        "{answer}"
    );
    let claims: serde_json::Value = browser.get("/api/claims").await.json().await.unwrap();
    assert_eq!(claims[0]["kind"], "travel");
    assert_eq!(claims[0]["end_date"], "2026-03-07");
    assert_eq!(claims[0]["attachments"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn a_post_without_login_is_refused() {
    let portal = start(config());
    let mut browser = Browser::new(&portal);
    let answer = browser
        .submit("/claim/daily/submit", daily_form(&[("12345678", "1")]))
        .await;
    assert_eq!(answer["success"], false);
    assert_eq!(answer["message"], "登录已超时，请重新登录");
}
