//! Matching payments to invoices and filling the card-payment columns: payment_records.csv.

use domain::{InvoiceRow, SessionConfig};
use payments::{InvoiceForMatch, MatchPolicy, PaymentRecord, match_payments};
use serde_json::{Value, json};
use session_store::Session;

/// The table with payment columns; GET /api/data reads it first.
pub const PAYMENT_CSV: &str = "payment_records.csv";
/// The recognised payments and how they were matched.
pub const PAYMENTS_FILE: &str = "payments.json";

/// Fills 刷卡日期, 刷卡金额 and 公务卡号 of matched rows (the full card number from the
/// screenshot, else the session's `default_card_no`) and returns the matching summary for the
/// result: unmatched payments and invoices, ambiguous cases. Nothing is forced: a row without
/// a clear payment keeps empty payment columns.
pub fn apply_payments(
    rows: &mut [InvoiceRow],
    payments: &[PaymentRecord],
    config: &SessionConfig,
) -> Value {
    let invoices: Vec<InvoiceForMatch> = rows
        .iter()
        .map(|row| InvoiceForMatch {
            id: row.seq.clone(),
            number: row.invoice_number.clone(),
            date: row.invoice_date.clone(),
            total_with_tax: row.total_with_tax.clone(),
            seller: row.seller_name.clone(),
        })
        .collect();
    let result = match_payments(&invoices, payments, &MatchPolicy::default());
    for pair in &result.pairs {
        let paid: Vec<&PaymentRecord> = pair
            .payment_indices
            .iter()
            .filter_map(|&i| payments.get(i))
            .collect();
        let Some(first) = paid.first() else { continue };
        let single_invoice = pair.invoice_indices.len() == 1;
        for &index in &pair.invoice_indices {
            let Some(row) = rows.get_mut(index) else {
                continue;
            };
            row.card_date = first.date.clone();
            // One payment for several invoices: each row shows its own share, which the
            // amounts add up to exactly (the matcher only groups exact sums).
            row.card_amount = if single_invoice && paid.len() == 1 {
                first.amount.clone()
            } else {
                row.total_with_tax.clone()
            };
            row.card_number = paid
                .iter()
                .find(|p| !p.card_number.is_empty())
                .map(|p| p.card_number.clone())
                .unwrap_or_else(|| config.default_card_no.clone());
        }
    }
    let name_of = |i: &usize| payments.get(*i).map(|p| p.file.clone()).unwrap_or_default();
    json!({
        "matched": result.pairs.len(),
        "unmatched_payments": result.unmatched_payments.iter().map(name_of).collect::<Vec<_>>(),
        "unmatched_invoices": result
            .unmatched_invoices
            .iter()
            .filter_map(|i| rows.get(*i).map(|r| r.invoice_number.clone()))
            .collect::<Vec<_>>(),
        "ambiguous": result.ambiguous.iter().map(|a| a.reason.clone()).collect::<Vec<_>>(),
        "ignored_payments": result.ignored_payments.iter().map(name_of).collect::<Vec<_>>(),
        "detail": result,
    })
}

/// Logs the matching summary in session.log.
pub(crate) fn log_summary(session: &Session, summary: &Value) {
    let list = |key: &str| -> String {
        summary[key]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join("、")
            })
            .unwrap_or_default()
    };
    let _ = session.log(
        "INFO",
        "matcher",
        &format!("已匹配 {} 组支付记录", summary["matched"]),
    );
    for (key, label) in [
        ("unmatched_payments", "未匹配的支付截图"),
        ("unmatched_invoices", "未找到支付记录的发票"),
        ("ambiguous", "无法确定的匹配（未自动填写）"),
        ("ignored_payments", "不参与匹配的截图（退款或非支付）"),
    ] {
        let text = list(key);
        if !text.is_empty() {
            let _ = session.log("WARN", "matcher", &format!("{label}：{text}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(seq: &str, number: &str, date: &str, total: &str, seller: &str) -> InvoiceRow {
        InvoiceRow {
            seq: seq.into(),
            invoice_number: number.into(),
            invoice_date: date.into(),
            total_with_tax: total.into(),
            seller_name: seller.into(),
            ..InvoiceRow::default()
        }
    }

    fn payment(file: &str, amount: &str, date: &str, merchant: &str, card: &str) -> PaymentRecord {
        PaymentRecord {
            file: file.into(),
            amount: amount.into(),
            date: date.into(),
            merchant: merchant.into(),
            card_number: card.into(),
            card_last4: card
                .get(card.len().saturating_sub(4)..)
                .unwrap_or_default()
                .into(),
            status: "成功".into(),
            ..PaymentRecord::default()
        }
    }

    #[test]
    fn a_matched_row_gets_the_payment_columns() {
        let mut rows = vec![
            row("1", "1", "2025/03/11", "58.00", "示例餐厅"),
            row("2", "2", "2025/03/12", "99.00", "示例文具店"),
        ];
        let payments = vec![payment("a.png", "58.00", "2025/03/11", "示例餐厅", "")];
        let config = SessionConfig {
            default_card_no: "6217000011112222".into(),
            ..SessionConfig::default()
        };
        let summary = apply_payments(&mut rows, &payments, &config);
        assert_eq!(rows[0].card_date, "2025/03/11");
        assert_eq!(rows[0].card_amount, "58.00");
        assert_eq!(rows[0].card_number, "6217000011112222");
        assert_eq!(rows[1].card_amount, "", "never a forced match");
        assert_eq!(summary["unmatched_invoices"], json!(["2"]));
    }

    #[test]
    fn the_screenshot_card_number_wins() {
        let mut rows = vec![row("1", "1", "2025/03/11", "58.00", "示例餐厅")];
        let payments = vec![payment(
            "a.png",
            "58.00",
            "2025/03/11",
            "示例餐厅",
            "6222020000001237",
        )];
        let config = SessionConfig {
            default_card_no: "6217000011112222".into(),
            ..SessionConfig::default()
        };
        apply_payments(&mut rows, &payments, &config);
        assert_eq!(rows[0].card_number, "6222020000001237");
    }
}
