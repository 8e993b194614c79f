//! The golden record of a VAT-style invoice, and the conventions for `confirmed_by` and
//! `flags` that every fixture follows (documented in `fixtures/invoices/README.md`).

use crate::invoice::{Invoice, Item};
use crate::money;
use crate::text::{nfkc, nfkc_compact, slash_date};
use domain::{FieldFlag, InvoiceRecord, LineItem, Party};

/// A QR code printed on the document agrees with its number, date and amount.
pub(crate) const QR: &str = "qr";
/// The embedded (railway) XML agrees with the printed number, date and fare.
pub(crate) const XML: &str = "xml";
/// The printed 大写 amount equals the 小写 total.
pub(crate) const WORDS: &str = "大写";
/// The printed amounts add up (items to 合计, 合计 金额 + 税额 to 价税合计; air: the fare
/// components to 合计).
pub(crate) const ARITH: &str = "arith";

/// `confirmed_by` in its fixed order: qr, xml, 大写, arith.
pub(crate) fn sources(qr: bool, xml: bool, words: bool, arith: bool) -> Vec<String> {
    [(qr, QR), (xml, XML), (words, WORDS), (arith, ARITH)]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| (*name).to_owned())
        .collect()
}

/// A party as the record holds it: NFKC, whitespace removed from the name.
pub(crate) fn party(party: &crate::invoice::Party) -> Party {
    Party {
        name: nfkc_compact(&party.name),
        tax_id: party.tax_id.clone(),
    }
}

fn line_item(item: &Item) -> LineItem {
    let toll = item.toll.clone().unwrap_or_default();
    LineItem {
        name: nfkc_compact(&item.name),
        spec: nfkc(&item.spec),
        unit: nfkc(&item.unit),
        quantity: item.quantity.clone(),
        unit_price: item.unit_price.clone(),
        amount: money::plain(item.amount),
        tax_rate: nfkc(&item.tax_rate),
        tax: item.tax.map_or_else(|| "***".to_owned(), money::plain),
        plate: nfkc(&toll.plate),
        vehicle_type: nfkc(&toll.vehicle_type),
        date_from: toll.date_from,
        date_to: toll.date_to,
    }
}

/// What a correct extractor reports for `invoice` printed on `page_count` pages.
pub(crate) fn record(invoice: &Invoice, page_count: u32) -> InvoiceRecord {
    let total = invoice.total();
    let words_amount = invoice.words_amount.unwrap_or(total);
    let words_agree = words_amount == total;
    let flags = if words_agree {
        Vec::new()
    } else {
        vec![FieldFlag {
            field: "total_with_tax".to_owned(),
            value: money::plain(total),
            source: WORDS.to_owned(),
            other: money::plain(words_amount),
        }]
    };
    InvoiceRecord {
        doc_type: invoice.doc_type,
        title: nfkc(&invoice.title),
        invoice_number: invoice.number.clone(),
        invoice_code: invoice.code.clone(),
        invoice_date: slash_date(invoice.date),
        check_code: invoice.check_code.clone(),
        buyer: party(&invoice.buyer),
        seller: party(&invoice.seller),
        items: invoice.items.iter().map(line_item).collect(),
        total_amount: money::plain(invoice.total_amount()),
        total_tax: money::plain(invoice.total_tax()),
        total_with_tax: money::plain(total),
        total_in_words: nfkc(&invoice.words()),
        remark: nfkc(&invoice.remark),
        issuer: nfkc(&invoice.issuer),
        railway: None,
        air: None,
        page_count,
        text_source: String::new(),
        // The printed 合计 are computed from the printed items, so the arithmetic always holds.
        confirmed_by: sources(invoice.style.qr, false, words_agree, true),
        flags,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::invoice::Item;

    #[test]
    fn sources_keep_their_order() {
        assert_eq!(
            sources(true, true, true, true),
            ["qr", "xml", "大写", "arith"]
        );
        assert_eq!(sources(false, false, true, true), ["大写", "arith"]);
        assert_eq!(sources(true, true, false, false), ["qr", "xml"]);
    }

    #[test]
    fn a_disagreeing_words_amount_is_flagged() {
        let mut invoice = Invoice {
            items: vec![Item::bare("*餐饮服务*餐费", 100_000, 0)],
            ..Invoice::default()
        };
        invoice.style.qr = false;
        invoice.words_amount = Some(100_100);
        let record = record(&invoice, 1);
        assert_eq!(record.confirmed_by, ["arith"]);
        assert_eq!(record.flags.len(), 1);
        assert_eq!(record.flags[0].value, "1000.00");
        assert_eq!(record.flags[0].other, "1001.00");
        assert_eq!(record.total_in_words, "壹仟零壹圆整");
    }
}
