//! 日常报销: the form, accepted claims and what /api/claims shows, every validation message,
//! duplicates across claims, and the claims list.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use common::{Input, Portal, general, pdf, sha256_hex, spawn, spawn_with};
use reimburse_demo_portal::PortalConfig;
use serde_json::{Value, json};

const FORM: &str = "/portal/frame/general";

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
        "<form id=\"claim-form\" method=\"post\" action=\"/portal/frame/general\" enctype=\"multipart/form-data\">",
        "id=\"claimant\" name=\"claimant\" value=\"张三\"",
        "id=\"employee-no\" name=\"employee-no\" value=\"100001\"",
        "<select id=\"department\" name=\"department\"><option value=\"\">请选择</option>",
        "<option value=\"物理学院\">物理学院</option>",
        "<textarea id=\"purpose\" name=\"purpose\"",
        "id=\"add-row\">添加发票</button>",
        "<tbody id=\"rows\" data-next-index=\"0\"></tbody>",
        "id=\"total-amount\">0.00<",
        "type=\"file\" id=\"invoice-files\" name=\"invoice-files\" multiple",
        "type=\"file\" id=\"outbound-file\" name=\"outbound-file\"",
        "id=\"submit-claim\">提交</button>",
        "var COLUMNS = [{\"base\":\"invoice-number\"",
    ] {
        assert!(page.body.contains(needle), "missing {needle}");
    }
    // No external resources: the pages must work without any network.
    assert!(!page.body.contains("src=\"http"));
    assert!(!page.body.contains("href=\"http"));
}

#[tokio::test]
async fn an_accepted_claim_is_confirmed_and_served_exactly_as_sent() {
    let portal = logged_in().await;
    let input = general();
    let page = portal.submit(FORM, &input).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let claim_no = page.text_of("claim-no").unwrap();
    assert_eq!(
        page.path,
        format!("/portal/frame/claims/{claim_no}?submitted=1")
    );
    assert!(page.body.contains("id=\"submit-success\""));
    assert_eq!(page.text_of("claim-total").as_deref(), Some("163.50"));
    // BX + eight-digit date + "-" + four-digit sequence.
    let digits = claim_no.strip_prefix("BX").unwrap();
    let (date, seq) = digits.split_once('-').unwrap();
    assert!(
        date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()),
        "{claim_no}"
    );
    assert_eq!(seq, "0001");
    // The purpose shows escaped on the confirmation.
    assert!(page.body.contains("购买实验耗材 &lt;试剂&gt; &amp; 枪头"));

    let claims = portal.claims().await;
    assert_eq!(claims.len(), 1);
    let claim = &claims[0];
    assert_eq!(claim["claim_no"], claim_no.as_str());
    assert_eq!(claim["type"], "general");
    assert_eq!(claim["submitted_by"], "100001");
    assert_eq!(claim["claimant"], "张三");
    assert_eq!(claim["employee_no"], "100001");
    assert_eq!(claim["department"], "物理学院");
    assert_eq!(claim["purpose"], "购买实验耗材 <试剂> & 枪头");
    assert_eq!(claim["total"], "163.50");
    assert!(claim["created_at"].as_str().unwrap().ends_with("+08:00"));
    assert_eq!(
        claim["rows"],
        json!([
            {
                "invoice_number": "25442000000123456789",
                "invoice_date": "2026-11-03",
                "item_name": "*实验耗材*移液枪头",
                "amount": "128.50",
                "seller_name": "广州某某生物科技有限公司",
                "card_date": "2026/11/03",
                "card_number": "6217000011112222",
                "card_amount": "128.50"
            },
            {
                "invoice_number": "04412345",
                "invoice_date": "2026-11-05",
                "item_name": "*纸制品*打印纸",
                "amount": "35",
                "seller_name": "某某文具店",
                "card_date": "",
                "card_number": "",
                "card_amount": ""
            }
        ])
    );
    let expected: Vec<Value> = input
        .files
        .iter()
        .map(|(field, name, bytes)| {
            json!({
                "field": field,
                "name": name,
                "size": bytes.len(),
                "sha256": sha256_hex(bytes),
            })
        })
        .collect();
    assert_eq!(claim["attachments"], Value::Array(expected));

    // The claim is in 我的报销单 and can be opened again.
    let list = portal.get("/portal/frame/claims").await;
    assert!(
        list.body
            .contains(&format!("href=\"/portal/frame/claims/{claim_no}\""))
    );
    let again = portal
        .get(&format!("/portal/frame/claims/{claim_no}"))
        .await;
    assert_eq!(
        again.text_of("claim-no").as_deref(),
        Some(claim_no.as_str())
    );
    assert!(!again.body.contains("submit-success"));
}

#[tokio::test]
async fn values_are_stored_untrimmed_but_checked_trimmed() {
    let portal = logged_in().await;
    let input = general()
        .set("invoice-number-0", " 25442000000123456789 ")
        .set("amount-0", " 128.5")
        .set("department", "物理学院 ");
    let page = portal.submit(FORM, &input).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let claims = portal.claims().await;
    assert_eq!(
        claims[0]["rows"][0]["invoice_number"],
        " 25442000000123456789 "
    );
    assert_eq!(claims[0]["rows"][0]["amount"], " 128.5");
    assert_eq!(claims[0]["total"], "163.50");
}

/// Each case: the change to a valid submission and the message it must produce.
fn invalid_cases() -> Vec<(&'static str, Input, &'static str)> {
    vec![
        (
            "short invoice number",
            general().set("invoice-number-0", "1234"),
            "第1行：发票号码格式不正确（应为8位或20位数字）",
        ),
        (
            "letters in invoice number",
            general().set("invoice-number-2", "0441234X"),
            "第2行：发票号码格式不正确",
        ),
        (
            "no invoice number",
            general().set("invoice-number-0", ""),
            "第1行：发票号码不能为空",
        ),
        (
            "zero amount",
            general().set("amount-0", "0").set("card-amount-0", ""),
            "第1行：金额必须大于0",
        ),
        (
            "negative amount",
            general().set("amount-2", "-3"),
            "第2行：金额必须大于0",
        ),
        (
            "bad amount",
            general().set("amount-2", "3.456"),
            "第2行：金额格式不正确",
        ),
        (
            "no amount",
            general().set("amount-2", ""),
            "第2行：金额不能为空",
        ),
        (
            "card amount differs",
            general().set("card-amount-0", "128.00"),
            "第1行：刷卡金额与发票金额不符",
        ),
        (
            "bad card number",
            general().set("card-number-0", "62170000"),
            "第1行：公务卡号格式不正确",
        ),
        (
            "bad invoice date",
            general().set("invoice-date-0", "2026-02-30"),
            "第1行：开票日期格式不正确（应为 YYYY-MM-DD）",
        ),
        (
            "no invoice date",
            general().set("invoice-date-2", ""),
            "第2行：开票日期不能为空",
        ),
        (
            "bad card date",
            general().set("card-date-0", "11/03/2026"),
            "第1行：刷卡日期格式不正确",
        ),
        (
            "no item name",
            general().set("item-name-0", " "),
            "第1行：项目名称不能为空",
        ),
        (
            "no seller",
            general().set("seller-name-2", ""),
            "第2行：销售方名称不能为空",
        ),
        (
            "same number twice",
            general().set("invoice-number-2", "25442000000123456789"),
            "第2行：发票号码重复（与第1行相同）",
        ),
        (
            "no claimant",
            general().set("claimant", ""),
            "报销人不能为空",
        ),
        (
            "no employee number",
            general().without_field("employee-no"),
            "工号不能为空",
        ),
        (
            "no department",
            general().set("department", ""),
            "请选择部门",
        ),
        (
            "unknown department",
            general().set("department", "不存在学院"),
            "部门不存在",
        ),
        (
            "no purpose",
            general().set("purpose", "  "),
            "报销事由不能为空",
        ),
        (
            "no rows",
            general().without_row(0).without_row(2),
            "至少需要添加一行发票",
        ),
        (
            "no invoice pdf",
            general().without_files("invoice-files"),
            "请上传发票附件（至少一个）",
        ),
        (
            "not a pdf",
            general().with_file("invoice-files", "scan.png", b"\x89PNG\r\n".to_vec()),
            "附件不是PDF、OFD或XML电子发票文件：scan.png",
        ),
        (
            "pdf name but not pdf",
            general().with_file("invoice-files", "fake.pdf", b"hello".to_vec()),
            "附件不是PDF、OFD或XML电子发票文件：fake.pdf",
        ),
        (
            "empty pdf",
            general().with_file("invoice-files", "empty.pdf", Vec::new()),
            "附件为空：empty.pdf",
        ),
        (
            "outbound not word",
            general().without_files("outbound-file").with_file(
                "outbound-file",
                "出库单.pdf",
                pdf("x"),
            ),
            "出库单必须是Word文件（.doc或.docx）：出库单.pdf",
        ),
    ]
}

#[tokio::test]
async fn each_invalid_submission_shows_its_message_and_stores_nothing() {
    let portal = logged_in().await;
    for (case, input, message) in invalid_cases() {
        let page = portal.submit(FORM, &input).await;
        assert_eq!(page.status, 422, "{case}");
        assert_eq!(page.path, FORM, "{case}");
        assert!(page.body.contains("id=\"form-error\""), "{case}");
        assert!(
            page.body.contains(message),
            "{case}: no «{message}» in the page"
        );
        // The form is shown again, ready to be corrected.
        assert!(page.body.contains("id=\"claim-form\""), "{case}");
        assert!(
            portal.claims().await.is_empty(),
            "{case}: something was stored"
        );
    }
}

#[tokio::test]
async fn a_refused_form_keeps_what_was_typed_and_renumbers_rows() {
    let portal = logged_in().await;
    let input = general().set("amount-2", "abc").set("purpose", "差旅\"<b>");
    let page = portal.submit(FORM, &input).await;
    assert_eq!(page.status, 422);
    for needle in [
        "<option value=\"物理学院\" selected>",
        "id=\"invoice-number-0\" name=\"invoice-number-0\" value=\"25442000000123456789\"",
        // The browser's row 2 comes back as row 1.
        "id=\"invoice-number-1\" name=\"invoice-number-1\" value=\"04412345\"",
        "id=\"amount-1\" name=\"amount-1\" value=\"abc\"",
        "data-next-index=\"2\"",
        "差旅&quot;&lt;b&gt;</textarea>",
        "第2行：金额格式不正确",
    ] {
        assert!(page.body.contains(needle), "missing {needle}");
    }
    assert!(!page.body.contains("<b>"));
}

#[tokio::test]
async fn all_problems_are_listed_at_once() {
    let portal = logged_in().await;
    let input = general()
        .set("claimant", "")
        .set("amount-0", "0")
        .without_files("invoice-files");
    let page = portal.submit(FORM, &input).await;
    for message in ["报销人不能为空", "第1行：金额必须大于0", "请上传发票附件"]
    {
        assert!(page.body.contains(message), "missing {message}");
    }
}

#[tokio::test]
async fn an_invoice_claimed_before_is_refused() {
    let portal = logged_in().await;
    let first = portal.submit(FORM, &general()).await;
    let first_no = first.text_of("claim-no").unwrap();

    // Another claim that reuses the second invoice of the first.
    let again =
        general()
            .set("invoice-number-0", "12345678")
            .with_file("invoice-files", "x.pdf", pdf("x"));
    let page = portal.submit(FORM, &again).await;
    assert_eq!(page.status, 422);
    assert!(
        page.body.contains(&format!(
            "第2行：该发票已报销过（发票号码 04412345，报销单号 {first_no}）"
        )),
        "{}",
        page.body
    );
    assert_eq!(portal.claims().await.len(), 1);

    // With a new number it goes through, as the day's second claim.
    let fixed = again.set("invoice-number-2", "87654321");
    let page = portal.submit(FORM, &fixed).await;
    let second_no = page.text_of("claim-no").unwrap();
    assert!(second_no.ends_with("-0002"), "{second_no}");
    assert_eq!(portal.claims().await.len(), 2);
}

#[tokio::test]
async fn a_file_over_the_cap_is_refused_on_the_form() {
    let portal = spawn_with(PortalConfig {
        max_file_bytes: 1024 * 1024,
        ..PortalConfig::default()
    })
    .await;
    portal.login().await;
    let mut big = pdf("big");
    big.resize(1024 * 1024 + 1, b' ');
    let input = general().with_file("invoice-files", "big.pdf", big);
    let page = portal.submit(FORM, &input).await;
    assert_eq!(page.status, 422);
    assert!(
        page.body
            .contains("附件过大：big.pdf（单个文件不超过 1 MiB）")
    );
    // The rest of the form survived.
    assert!(page.body.contains("value=\"25442000000123456789\""));
    assert!(portal.claims().await.is_empty());
}

#[tokio::test]
async fn a_claim_is_visible_only_to_its_submitter() {
    let portal = spawn_with(PortalConfig {
        accounts: vec![
            reimburse_demo_portal::Account::new("100001", "demo123", "张三"),
            reimburse_demo_portal::Account::new("200002", "pw", "李四"),
        ],
        ..PortalConfig::default()
    })
    .await;
    portal.login().await;
    let page = portal.submit(FORM, &general()).await;
    let claim_no = page.text_of("claim-no").unwrap();

    let other = common::browser();
    other
        .post(portal.url("/login"))
        .form(&[("username", "200002"), ("password", "pw")])
        .send()
        .await
        .unwrap();
    let response = other
        .get(portal.url(&format!("/portal/frame/claims/{claim_no}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 404);
    let list = other
        .get(portal.url("/portal/frame/claims"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(list.contains("暂无报销单"));
}

#[tokio::test]
async fn a_body_that_is_not_multipart_is_a_bad_request() {
    let portal = logged_in().await;
    let response = portal
        .client
        .post(portal.url(FORM))
        .form(&[("claimant", "张三")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 400);
    assert!(portal.claims().await.is_empty());
}
