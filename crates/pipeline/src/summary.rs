//! One-line summaries of an extracted invoice for progress events and logs.

use domain::InvoiceRecord;

/// e.g. `发票号码 25432000000022014229 · 2025/02/19 · ¥146.00 · 某某餐饮店`.
pub(crate) fn one_line(record: &InvoiceRecord) -> String {
    let mut parts = vec![format!("发票号码 {}", record.invoice_number)];
    if !record.invoice_date.is_empty() {
        parts.push(record.invoice_date.clone());
    }
    if !record.total_with_tax.is_empty() {
        parts.push(format!("¥{}", record.total_with_tax));
    }
    let who = if record.seller.name.is_empty() {
        record
            .railway
            .as_ref()
            .map(|t| format!("{} {}-{}", t.train_no, t.from_station, t.to_station))
    } else {
        Some(record.seller.name.clone())
    };
    if let Some(who) = who.filter(|w| !w.trim().is_empty()) {
        parts.push(who);
    }
    if !record.flags.is_empty() {
        parts.push(format!("{} 处需核对", record.flags.len()));
    }
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::Party;

    #[test]
    fn summarises_the_key_fields() {
        let record = InvoiceRecord {
            invoice_number: "123".into(),
            invoice_date: "2025/01/02".into(),
            total_with_tax: "9.50".into(),
            seller: Party {
                name: "店".into(),
                tax_id: String::new(),
            },
            ..InvoiceRecord::default()
        };
        assert_eq!(one_line(&record), "发票号码 123 · 2025/01/02 · ¥9.50 · 店");
    }
}
