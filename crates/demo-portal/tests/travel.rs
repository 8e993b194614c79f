//! 差旅报销: the form, an accepted claim in /api/claims, and the travel validation messages.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Portal, general, sha256_hex, spawn, travel};
use serde_json::json;

const FORM: &str = "/portal/frame/travel";

async fn logged_in() -> Portal {
    let portal = spawn().await;
    portal.login().await;
    portal
}

#[tokio::test]
async fn the_form_has_the_documented_controls() {
    let portal = logged_in().await;
    let page = portal.get(FORM).await;
    assert_eq!(page.status, 200);
    for needle in [
        "<form id=\"claim-form\" method=\"post\" action=\"/portal/frame/travel\" enctype=\"multipart/form-data\">",
        "id=\"claimant\" name=\"claimant\" value=\"张三\"",
        "id=\"employee-no\" name=\"employee-no\" value=\"100001\"",
        "<textarea id=\"purpose\" name=\"purpose\"",
        "id=\"origin\" name=\"origin\"",
        "id=\"destination\" name=\"destination\"",
        "id=\"depart-date\" name=\"depart-date\"",
        "id=\"return-date\" name=\"return-date\"",
        "id=\"add-row\">添加明细</button>",
        "type=\"file\" id=\"attachment-files\" name=\"attachment-files\" multiple",
        "id=\"submit-claim\">提交</button>",
        "\"options\":[[\"train\",\"火车票\"],[\"flight\",\"机票\"],[\"hotel\",\"住宿\"],[\"taxi\",\"出租车\"],[\"toll\",\"通行费\"],[\"other\",\"其他\"]]",
    ] {
        assert!(page.body.contains(needle), "missing {needle}");
    }
}

#[tokio::test]
async fn an_accepted_travel_claim_is_served_exactly_as_sent() {
    let portal = logged_in().await;
    let input = travel();
    let page = portal.submit(FORM, &input).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let claim_no = page.text_of("claim-no").unwrap();
    assert!(page.body.contains("id=\"submit-success\""));
    assert_eq!(page.text_of("claim-type").as_deref(), Some("差旅报销"));
    assert_eq!(page.text_of("claim-total").as_deref(), Some("1499.50"));
    assert!(
        page.body
            .contains("北京 → 上海（2026-11-10 至 2026-11-12）")
    );
    assert!(page.body.contains("<td>住宿</td>"));

    let claims = portal.claims().await;
    assert_eq!(claims.len(), 1);
    let claim = &claims[0];
    assert_eq!(claim["claim_no"], claim_no.as_str());
    assert_eq!(claim["type"], "travel");
    assert_eq!(claim["claimant"], "张三");
    assert_eq!(claim["employee_no"], "100001");
    assert_eq!(claim["purpose"], "参加学术会议");
    assert_eq!(claim["origin"], "北京");
    assert_eq!(claim["destination"], "上海");
    assert_eq!(claim["depart_date"], "2026-11-10");
    assert_eq!(claim["return_date"], "2026-11-12");
    assert_eq!(claim["total"], "1499.50");
    assert!(claim.get("department").is_none());
    assert_eq!(
        claim["rows"],
        json!([
            {"expense_type": "train", "invoice_number": "26119000000012345678", "date": "2026-11-10", "amount": "553.00", "note": "G1 北京南-上海虹桥 二等座"},
            {"expense_type": "hotel", "invoice_number": "31000123", "date": "2026-11-12", "amount": "900", "note": "2晚"},
            {"expense_type": "taxi", "invoice_number": "", "date": "2026-11-10", "amount": "46.5", "note": ""}
        ])
    );
    let attachments = claim["attachments"].as_array().unwrap();
    assert_eq!(attachments.len(), 2);
    for ((field, name, bytes), got) in input.files.iter().zip(attachments) {
        assert_eq!(got["field"], field.as_str());
        assert_eq!(got["name"], name.as_str());
        assert_eq!(got["size"], bytes.len());
        assert_eq!(got["sha256"], sha256_hex(bytes));
    }
}

#[tokio::test]
async fn attachments_are_optional_for_travel() {
    let portal = logged_in().await;
    let page = portal
        .submit(FORM, &travel().without_files("attachment-files"))
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert_eq!(portal.claims().await[0]["attachments"], json!([]));
}

#[tokio::test]
async fn each_invalid_travel_submission_shows_its_message_and_stores_nothing() {
    let portal = logged_in().await;
    let cases = [
        (travel().set("claimant", ""), "出差人不能为空"),
        (travel().set("employee-no", ""), "工号不能为空"),
        (travel().set("purpose", ""), "出差事由不能为空"),
        (travel().set("origin", ""), "出发地不能为空"),
        (travel().set("destination", ""), "目的地不能为空"),
        (travel().set("depart-date", ""), "出发日期不能为空"),
        (
            travel().set("return-date", "2026/11/31"),
            "返回日期格式不正确（应为 YYYY-MM-DD）",
        ),
        (
            travel().set("return-date", "2026-11-09"),
            "返回日期不能早于出发日期",
        ),
        (
            travel().without_row(0).without_row(1).without_row(2),
            "至少需要添加一行费用明细",
        ),
        (travel().set("expense-type-1", ""), "第2行：请选择费用类型"),
        (
            travel().set("expense-type-1", "bus"),
            "第2行：费用类型不正确",
        ),
        (
            travel().set("invoice-number-0", "123"),
            "第1行：发票号码格式不正确",
        ),
        (travel().set("date-2", "yesterday"), "第3行：日期格式不正确"),
        (travel().set("amount-1", "0.00"), "第2行：金额必须大于0"),
        (
            travel().set("invoice-number-1", "26119000000012345678"),
            "第2行：发票号码重复（与第1行相同）",
        ),
        (
            travel().with_file("attachment-files", "ticket.jpg", b"\xFF\xD8\xFF".to_vec()),
            "附件不是PDF、OFD或XML电子发票文件：ticket.jpg",
        ),
    ];
    for (input, message) in cases {
        let page = portal.submit(FORM, &input).await;
        assert_eq!(page.status, 422, "{message}");
        assert!(page.body.contains(message), "no «{message}» in the page");
        assert!(portal.claims().await.is_empty(), "{message}: stored");
    }
}

#[tokio::test]
async fn invoice_numbers_are_unique_across_general_and_travel_claims() {
    let portal = logged_in().await;
    let page = portal.submit("/portal/frame/general", &general()).await;
    let general_no = page.text_of("claim-no").unwrap();
    let input = travel().set("invoice-number-1", "04412345");
    let page = portal.submit(FORM, &input).await;
    assert_eq!(page.status, 422);
    assert!(page.body.contains(&format!(
        "第2行：该发票已报销过（发票号码 04412345，报销单号 {general_no}）"
    )));
    // The refused form keeps the selected types.
    assert!(
        page.body
            .contains("<option value=\"hotel\" selected>住宿</option>")
    );
    assert_eq!(portal.claims().await.len(), 1);
}
