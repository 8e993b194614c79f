//! The rules over recorded OCR lines (no engine): each recording gives the record and the
//! deciding rules written here. Recordings are `record_lines` output for generated
//! screenshots, and two written by hand (a confirm-to-pay page, a payment code).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

use std::path::Path;

use reimburse_payments::{Recognition, ScreenText, ScreenType, read_lines};

fn read(stem: &str) -> Recognition {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/lines/{stem}.lines.json"));
    let page: ScreenText = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    read_lines(&format!("{stem}.png"), page)
}

/// `(field, value, rule)` for each field the case checks.
fn check(stem: &str, screen: ScreenType, want: &[(&str, &str, &str)]) {
    let got = read(stem);
    assert_eq!(got.screen, screen, "{stem}: {}", got.screen_rule);
    for &(field, value, rule) in want {
        let have = reimburse_payments::fixtures::field(&got.record, field);
        assert_eq!(have, value, "{stem} {field} ({})", got.rule_of(field));
        assert_eq!(got.rule_of(field), rule, "{stem} {field}");
    }
}

#[test]
fn alipay_refund_takes_the_refund_time_and_says_refund() {
    check(
        "alipay_bill_05",
        ScreenType::AlipayBill,
        &[
            ("amount", "4707.87", "headline amount"),
            ("date", "2025/06/25", "refund-time label"),
            ("card_last4", "1765", "card label"),
            ("card_bank", "中国银行", "card label"),
            ("merchant", "演示图文设计有限公司", "merchant label"),
            ("status", "退款", "status line"),
        ],
    );
}

#[test]
fn wechat_bill_takes_the_payment_time_before_the_refund_time() {
    check(
        "wechat_bill_05",
        ScreenType::WechatBill,
        &[
            ("amount", "801.16", "headline amount"),
            ("date", "2024/07/22", "payment-time label"),
            ("time", "14:17:40", "payment-time label"),
            ("status", "退款", "status label"),
            (
                "order_no",
                "4200029788202407226686713488",
                "order-number label",
            ),
        ],
    );
}

#[test]
fn wechat_success_paid_from_change_has_no_card() {
    check(
        "wechat_success_04",
        ScreenType::WechatSuccess,
        &[
            ("amount", "443.76", "headline amount"),
            ("card_last4", "", ""),
            ("merchant", "样例超市", "headline name"),
        ],
    );
}

#[test]
fn bank_record_with_date_and_time_rows_and_a_full_card_number() {
    check(
        "bank_card_02",
        ScreenType::BankCard,
        &[
            ("amount", "89.81", "paid-amount label"),
            ("date", "2025/09/16", "payment-time label"),
            ("time", "07:46:45", "payment-time label"),
            ("card_number", "6200000000009410", "card label"),
            ("card_bank", "浦发银行", "bank named in the title"),
            ("channel", "浦发银行手机银行", ""),
            ("status", "成功", "slip or bank record"),
        ],
    );
}

#[test]
fn bank_card_number_in_groups_read_as_separate_lines() {
    check(
        "a_bank_card_01",
        ScreenType::BankCard,
        &[
            ("amount", "387.00", "paid-amount label"),
            ("card_last4", "1028", "card number line"),
        ],
    );
}

#[test]
fn pos_slip_values_below_their_labels() {
    check(
        "pos_slip_01",
        ScreenType::PosSlip,
        &[
            ("amount", "3512.53", "paid-amount label"),
            ("date", "2024/03/10", "payment-time label"),
            ("card_last4", "0627", "card label"),
            ("card_bank", "浦发银行", "issuer label"),
            ("merchant", "演示图文设计有限公司", "merchant label"),
            ("order_no", "370747103723", "slip reference number"),
        ],
    );
}

#[test]
fn slanted_slip_with_values_right_of_their_labels() {
    check(
        "a_pos_slip_01",
        ScreenType::PosSlip,
        &[
            ("amount", "42.45", "paid-amount label"),
            ("date", "2025/12/15", "payment-time label"),
            ("time", "20:39:32", "payment-time label"),
            ("card_last4", "4549", "card label"),
            ("card_bank", "中国建设银行", "issuer label"),
        ],
    );
}

#[test]
fn unionpay_pays_the_discounted_amount_not_the_order_amount() {
    check(
        "unionpay_03",
        ScreenType::Unionpay,
        &[
            ("amount", "2261.00", "headline amount"),
            ("card_bank", "中国建设银行", "card label"),
            ("order_no", "20240327608160874499", "order-number label"),
        ],
    );
}

#[test]
fn pages_without_a_payment_made() {
    for stem in ["no_payment_01", "confirm_to_pay", "payment_code"] {
        let got = read(stem);
        assert!(got.record.no_payment, "{stem}: {}", got.screen_rule);
        assert_eq!(got.record.amount, "", "{stem}");
    }
    assert_eq!(read("confirm_to_pay").screen_rule, "confirm-to-pay page");
    assert_eq!(
        read("payment_code").screen_rule,
        "payment or collection code"
    );
}

#[test]
fn a_slip_with_letter_spaced_labels_reads_its_amount_and_moment() {
    // 日 and 时 were lost by detection; 金 stands apart from `额RMB135.64`.
    check(
        "be_pos_slip_01",
        ScreenType::PosSlip,
        &[
            ("amount", "135.64", "paid-amount label"),
            ("date", "2024/07/20", "slip date or time line"),
            ("time", "07:48:55", "slip date or time line"),
            ("card_last4", "2943", "card label"),
        ],
    );
}

#[test]
fn a_slip_label_spaced_into_single_characters_is_read_whole() {
    // 日 期, 时 间 and 卡 号 come one character per line.
    check(
        "be_pos_slip_11",
        ScreenType::PosSlip,
        &[
            ("amount", "825.00", "paid-amount label"),
            ("date", "2025/12/23", "payment-time label"),
            ("time", "12:11:05", "payment-time label"),
            ("card_last4", "1167", "card label"),
            ("order_no", "128438404761", "slip reference number"),
        ],
    );
}

#[test]
fn a_slip_amount_is_read_after_its_currency_when_the_label_is_garbled() {
    // The label came out as `金客` and `额RMB44.79`.
    check(
        "be_pos_slip_02",
        ScreenType::PosSlip,
        &[
            ("amount", "44.79", "slip amount in RMB"),
            ("date", "2024/04/03", "slip date or time line"),
        ],
    );
}

#[test]
fn an_unknown_banks_detail_page_is_kept_with_what_it_shows() {
    // No marker word of any known screen: an amount, a transaction time and a card are enough
    // not to drop it.
    let got = read("unknown_bank");
    assert!(!got.record.no_payment, "{}", got.screen_rule);
    assert_eq!(got.screen, ScreenType::BankCard, "{}", got.screen_rule);
    assert_eq!(got.record.amount, "268.50", "{:?}", got.decided);
    assert_eq!(got.record.date, "2025/04/18");
    assert_eq!(got.record.card_last4, "3812");
}

#[test]
fn the_wechat_pay_notification_card_is_a_payment() {
    let got = read("wechat_notice");
    assert!(!got.record.no_payment, "{}", got.screen_rule);
    assert_eq!(got.record.amount, "58.00", "{:?}", got.decided);
    assert_eq!(got.record.merchant, "上海演示便利店", "{:?}", got.decided);
}

#[test]
fn a_collection_code_and_an_order_list_are_not_payments() {
    let got = read("collect_code");
    assert!(got.record.no_payment, "{}", got.screen_rule);
    assert_eq!(got.screen_rule, "payment or collection code");
    let got = read("order_list");
    assert!(got.record.no_payment, "{}", got.screen_rule);
    assert_eq!(got.screen_rule, "order list");
}
