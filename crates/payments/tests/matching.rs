//! Matching payments to invoices: exact, tolerance, groups, ambiguity,
//! date window, records that are never matched.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

use reimburse_payments::{InvoiceForMatch, MatchHow, MatchPolicy, PaymentRecord, match_payments};
use reimburse_payments::{STATUS_REFUND, STATUS_SUCCESS};

fn invoice(id: &str, date: &str, total: &str, seller: &str) -> InvoiceForMatch {
    InvoiceForMatch {
        id: id.to_owned(),
        number: format!("2500000{id}"),
        date: date.to_owned(),
        total_with_tax: total.to_owned(),
        seller: seller.to_owned(),
    }
}

fn payment(date: &str, amount: &str, merchant: &str) -> PaymentRecord {
    PaymentRecord {
        file: format!("{date}-{amount}.png"),
        amount: amount.to_owned(),
        date: date.to_owned(),
        time: "12:00:00".to_owned(),
        card_last4: "1234".to_owned(),
        merchant: merchant.to_owned(),
        status: STATUS_SUCCESS.to_owned(),
        ..PaymentRecord::default()
    }
}

fn policy() -> MatchPolicy {
    MatchPolicy::default()
}

#[test]
fn exact_pairs_beat_closer_tolerance() {
    let invoices = [
        invoice("1", "2025/03/12", "58.00", "示例餐饮管理有限公司"),
        invoice("2", "2025/03/20", "120.50", "样例文具用品有限公司"),
    ];
    let payments = [
        payment("2025/03/18", "120.50", "样例文具"),
        payment("2025/03/11", "58.00", "示例餐厅"),
    ];
    let r = match_payments(&invoices, &payments, &policy());
    assert_eq!(r.pairs.len(), 2);
    assert_eq!(r.pairs[0].invoice_indices, vec![0]);
    assert_eq!(r.pairs[0].payment_indices, vec![1]);
    assert_eq!(r.pairs[0].how, MatchHow::Exact);
    assert_eq!(r.pairs[1].payment_indices, vec![0]);
    assert!(r.unmatched_invoices.is_empty() && r.unmatched_payments.is_empty());
    assert!(r.pairs.iter().all(|m| m.score > 0.5 && m.score <= 1.0));
}

#[test]
fn exact_amount_preferred_over_tolerance() {
    // Payment 0 is 0.40 off invoice 0 but exact for invoice 1.
    let invoices = [
        invoice("1", "2025/03/12", "100.40", "示例酒店管理有限公司"),
        invoice("2", "2025/03/12", "100.00", "示例酒店管理有限公司"),
    ];
    let payments = [payment("2025/03/12", "100.00", "示例酒店")];
    let r = match_payments(&invoices, &payments, &policy());
    assert_eq!(r.pairs.len(), 1);
    assert_eq!(r.pairs[0].invoice_indices, vec![1]);
    assert_eq!(r.unmatched_invoices, vec![0]);
}

#[test]
fn tolerance_for_rounding_and_fees() {
    let invoices = [invoice("1", "2025/03/12", "200.00", "演示图文设计有限公司")];
    // 0.60 on 200.00: within 1% and within ¥1.
    let r = match_payments(
        &invoices,
        &[payment("2025/03/12", "200.60", "演示图文")],
        &policy(),
    );
    assert_eq!(r.pairs.len(), 1);
    assert_eq!(r.pairs[0].how, MatchHow::Tolerance);
    // 1.50 on 200.00 is within 1% but above ¥1.
    let r = match_payments(
        &invoices,
        &[payment("2025/03/12", "201.50", "演示图文")],
        &policy(),
    );
    assert!(r.pairs.is_empty());
    // 0.80 on 50.00 is within ¥1 but above 1%.
    let small = [invoice("2", "2025/03/12", "50.00", "演示图文设计有限公司")];
    let r = match_payments(
        &small,
        &[payment("2025/03/12", "50.80", "演示图文")],
        &policy(),
    );
    assert!(r.pairs.is_empty());
}

#[test]
fn one_payment_for_several_invoices() {
    let invoices = [
        invoice("1", "2025/04/02", "300.00", "示例酒店管理有限公司"),
        invoice("2", "2025/04/02", "158.00", "示例酒店管理有限公司"),
        invoice("3", "2025/04/02", "77.00", "样例商贸有限公司"),
    ];
    let payments = [payment("2025/04/01", "458.00", "示例酒店管理有限公司")];
    let r = match_payments(&invoices, &payments, &policy());
    assert_eq!(r.pairs.len(), 1);
    assert_eq!(r.pairs[0].how, MatchHow::OneToMany);
    assert_eq!(r.pairs[0].invoice_indices, vec![0, 1]);
    assert_eq!(r.unmatched_invoices, vec![2]);
}

#[test]
fn groups_need_agreeing_names() {
    let invoices = [
        invoice("1", "2025/04/02", "300.00", "示例酒店管理有限公司"),
        invoice("2", "2025/04/02", "158.00", "样例商贸有限公司"),
    ];
    let payments = [payment("2025/04/01", "458.00", "示例酒店")];
    let r = match_payments(&invoices, &payments, &policy());
    assert!(r.pairs.is_empty());
    assert_eq!(r.unmatched_payments, vec![0]);
}

#[test]
fn split_payments_for_one_invoice() {
    let invoices = [invoice(
        "1",
        "2025/05/10",
        "1,000.00",
        "示例酒店管理有限公司",
    )];
    let payments = [
        payment("2025/05/08", "500.00", "示例酒店"),
        payment("2025/05/10", "500.00", "示例酒店"),
        payment("2025/05/10", "12.00", "样例超市"),
    ];
    let r = match_payments(&invoices, &payments, &policy());
    assert_eq!(r.pairs.len(), 1);
    assert_eq!(r.pairs[0].how, MatchHow::Split);
    assert_eq!(r.pairs[0].payment_indices, vec![0, 1]);
    assert_eq!(r.unmatched_payments, vec![2]);
}

#[test]
fn ambiguous_candidates_stay_unmatched() {
    // Two invoices of the same amount, date and seller; one payment.
    let invoices = [
        invoice("1", "2025/03/12", "58.00", "示例餐饮管理有限公司"),
        invoice("2", "2025/03/12", "58.00", "示例餐饮管理有限公司"),
        invoice("3", "2025/03/15", "99.00", "样例文具用品有限公司"),
    ];
    let payments = [
        payment("2025/03/12", "58.00", "示例餐厅"),
        payment("2025/03/15", "99.00", "样例文具"),
    ];
    let r = match_payments(&invoices, &payments, &policy());
    assert_eq!(r.pairs.len(), 1, "{r:?}");
    assert_eq!(r.pairs[0].invoice_indices, vec![2]);
    assert_eq!(r.unmatched_invoices, vec![0, 1]);
    assert_eq!(r.unmatched_payments, vec![0]);
    assert_eq!(r.ambiguous.len(), 1);
    assert_eq!(r.ambiguous[0].invoice_indices, vec![0, 1]);
    assert_eq!(r.ambiguous[0].payment_indices, vec![0]);
}

#[test]
fn name_or_date_breaks_a_tie() {
    let invoices = [
        invoice("1", "2025/03/12", "58.00", "示例餐饮管理有限公司"),
        invoice("2", "2025/03/12", "58.00", "样例商贸有限公司"),
    ];
    let r = match_payments(
        &invoices,
        &[payment("2025/03/12", "58.00", "样例超市商贸")],
        &policy(),
    );
    assert_eq!(r.pairs.len(), 1);
    assert_eq!(r.pairs[0].invoice_indices, vec![1]);
    assert!(r.ambiguous.is_empty());

    let invoices = [
        invoice("1", "2025/03/01", "58.00", "示例餐饮管理有限公司"),
        invoice("2", "2025/03/12", "58.00", "示例餐饮管理有限公司"),
    ];
    let r = match_payments(
        &invoices,
        &[payment("2025/03/11", "58.00", "示例餐厅")],
        &policy(),
    );
    assert_eq!(r.pairs[0].invoice_indices, vec![1]);
}

#[test]
fn optimal_assignment_matches_as_many_as_possible() {
    // Greedy would give payment 0 (same day) to invoice 0 and leave
    // invoice 1 without one; the optimum gives each its own.
    let invoices = [
        invoice("1", "2025/03/10", "58.00", "示例餐饮管理有限公司"),
        invoice("2", "2025/03/11", "58.00", "示例餐饮管理有限公司"),
    ];
    let payments = [
        payment("2025/03/10", "58.00", "示例餐厅"),
        payment("2025/02/20", "58.00", "示例餐厅"),
    ];
    let mut p = policy();
    p.days_before = 18;
    let r = match_payments(&invoices, &payments, &p);
    assert_eq!(r.pairs.len(), 2, "{r:?}");
    let inv1 = r
        .pairs
        .iter()
        .find(|m| m.invoice_indices == vec![1])
        .unwrap();
    assert_eq!(inv1.payment_indices, vec![0]);
}

#[test]
fn date_window() {
    let invoices = [invoice("1", "2025/03/31", "58.00", "示例餐饮管理有限公司")];
    // 30 days before: in; 31 days before: out.
    let r = match_payments(
        &invoices,
        &[payment("2025/03/01", "58.00", "示例餐厅")],
        &policy(),
    );
    assert_eq!(r.pairs.len(), 1);
    let r = match_payments(
        &invoices,
        &[payment("2025/02/28", "58.00", "示例餐厅")],
        &policy(),
    );
    assert!(r.pairs.is_empty());
    assert_eq!(r.unmatched_payments, vec![0]);
    // 7 days after: in; 8 days after: out.
    let r = match_payments(
        &invoices,
        &[payment("2025/04/07", "58.00", "示例餐厅")],
        &policy(),
    );
    assert_eq!(r.pairs.len(), 1);
    let r = match_payments(
        &invoices,
        &[payment("2025/04/08", "58.00", "示例餐厅")],
        &policy(),
    );
    assert!(r.pairs.is_empty());
}

#[test]
fn unknown_date_needs_the_exact_amount() {
    let invoices = [invoice("1", "2025/03/31", "58.00", "示例餐饮管理有限公司")];
    let r = match_payments(&invoices, &[payment("", "58.00", "示例餐厅")], &policy());
    assert_eq!(r.pairs.len(), 1);
    let r = match_payments(&invoices, &[payment("", "58.30", "示例餐厅")], &policy());
    assert!(r.pairs.is_empty());
}

#[test]
fn refunds_and_non_payments_are_ignored() {
    let invoices = [invoice("1", "2025/03/12", "58.00", "示例餐饮管理有限公司")];
    let mut refund = payment("2025/03/12", "58.00", "示例餐厅");
    refund.status = STATUS_REFUND.to_owned();
    let chat = PaymentRecord::no_payment("chat.png");
    let mut unread = payment("2025/03/12", "", "示例餐厅");
    unread.amount.clear();
    let r = match_payments(&invoices, &[refund, chat, unread], &policy());
    assert!(r.pairs.is_empty());
    assert_eq!(r.ignored_payments, vec![0, 1, 2]);
    assert!(r.unmatched_payments.is_empty());
    assert_eq!(r.unmatched_invoices, vec![0]);
}

#[test]
fn bad_invoice_totals_stay_unmatched() {
    let invoices = [
        invoice("1", "2025/03/12", "", "示例"),
        invoice("2", "2025/03/12", "abc", "示例"),
    ];
    let r = match_payments(
        &invoices,
        &[payment("2025/03/12", "58.00", "示例")],
        &policy(),
    );
    assert_eq!(r.unmatched_invoices, vec![0, 1]);
    assert_eq!(r.unmatched_payments, vec![0]);
}

#[test]
fn result_serializes() {
    let r = match_payments(
        &[invoice("1", "2025/03/12", "58.00", "示例")],
        &[payment("2025/03/12", "58.00", "示例")],
        &policy(),
    );
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["pairs"][0]["how"], "exact");
}
