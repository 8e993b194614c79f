//! Documents no known layout matches (fiscal receipts such as 车辆通行费票据, regional forms):
//! the fields are found by their labels anywhere on the page, with the label variants such
//! documents print. Each field is one small table of labels, tried in order.

use super::{table_split, tabular};
use crate::amount;
use crate::date;
use crate::geometry::Sheet;
use crate::labels::Take;
use domain::{DocumentType, InvoiceRecord};

/// Labels of the number, besides 发票号码.
const NUMBER: &[&str] = &["票据号码", "发票号码", "号码"];
/// Labels of the code, besides 发票代码.
const CODE: &[&str] = &["票据代码", "发票代码"];
/// Labels of the date.
const DATE: &[&str] = &["开票日期", "开具日期", "填开日期", "日期"];
/// Labels of the total, strongest first: 小写 names the figure of a 大写/小写 pair.
const TOTAL: &[&str] = &["小写", "价税合计", "合计金额", "金额合计", "合计"];
/// Labels of the buyer's name.
const BUYER: &[&str] = &["交款人", "购买方名称", "付款方名称", "付款单位", "购方名称"];
/// Labels of the seller's name.
const SELLER: &[&str] = &[
    "收款单位",
    "销售方名称",
    "开票单位",
    "收款方名称",
    "销方名称",
];

/// Whether the sheets look like a document with a number to read.
pub(super) fn fits(sheets: &[Sheet]) -> bool {
    sheets
        .iter()
        .any(|s| NUMBER.iter().any(|l| !s.find(l).is_empty()))
}

pub(super) fn read(sheets: &[Sheet]) -> InvoiceRecord {
    let mut record = tabular(sheets, table_split);
    record.doc_type = DocumentType::GeneralMachine;
    fill(&mut record.invoice_number, || {
        text(sheets, NUMBER, &Take::digits(1.0)).unwrap_or_default()
    });
    fill(&mut record.invoice_code, || {
        text(sheets, CODE, &Take::digits(1.0)).unwrap_or_default()
    });
    fill(&mut record.invoice_date, || {
        text(sheets, DATE, &Take::date())
            .and_then(|d| date::parse_date(&d))
            .unwrap_or_default()
    });
    fill(&mut record.total_with_tax, || {
        text(sheets, TOTAL, &Take::money())
            .and_then(|v| amount::normalize(&v))
            .unwrap_or_default()
    });
    fill(&mut record.buyer.name, || name(sheets, BUYER));
    fill(&mut record.seller.name, || name(sheets, SELLER));
    // A receipt without tax columns: its total is its amount, and no tax is charged.
    if record.total_amount.is_empty() && record.total_tax.is_empty() {
        record.total_amount.clone_from(&record.total_with_tax);
        record.total_tax = if record.total_with_tax.is_empty() {
            String::new()
        } else {
            "0.00".to_owned()
        };
    }
    record
}

fn fill(slot: &mut String, value: impl FnOnce() -> String) {
    if slot.is_empty() {
        *slot = value();
    }
}

/// The first value after any of `labels`, label by label.
fn text(sheets: &[Sheet], labels: &[&str], how: &Take) -> Option<String> {
    labels.iter().find_map(|label| {
        sheets
            .iter()
            .find_map(|s| s.value_of(&[label], how))
            .map(|v| v.text)
            .filter(|t| !t.is_empty())
    })
}

/// A name after one of `labels` and its colon (`交款人统一社会信用代码` is not `交款人`).
fn name(sheets: &[Sheet], labels: &[&str]) -> String {
    let how = Take::text(f32::INFINITY);
    for label in labels {
        for sheet in sheets {
            for hit in sheet.find(label) {
                let colon = sheet
                    .lines
                    .get(hit.line)
                    .and_then(|l| l.glyphs.get(hit.end..))
                    .unwrap_or_default()
                    .iter()
                    .find(|g| !matches!(g.ch, '(' | ')' | '章'))
                    .is_some_and(|g| g.ch == ':');
                if !colon {
                    continue;
                }
                if let Some(v) = sheet.take_after(&hit, &how)
                    && !v.text.is_empty()
                {
                    return v.text.trim_start_matches(['(', '章', ')', ':']).to_owned();
                }
            }
        }
    }
    String::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::tests::{run, sheet};

    fn receipt() -> Sheet {
        sheet(vec![
            run("江苏省车辆通行费票据(电子)", 164.0, 39.0),
            run("票据代码:32020124", 34.5, 76.2),
            run("票据号码:0007445174", 150.0, 76.2),
            run("交款人统一社会信用代码:91310000764286520D", 34.5, 85.7),
            run("交款人:某某人才咨询有限公司", 34.5, 95.1),
            run("开票日期:2024-05-14", 250.0, 95.1),
            run("项目编码", 41.4, 110.4),
            run("项目名称", 90.0, 110.4),
            run("单位", 200.0, 110.4),
            run("数量", 230.0, 110.4),
            run("金额(元)", 300.0, 110.4),
            run("1030159", 35.2, 122.4),
            run("车辆通行费(限于政府还贷)", 90.0, 122.4),
            run("次", 200.0, 122.4),
            run("1", 230.0, 122.4),
            run("10.00", 300.0, 122.4),
            run("金额合计(大写)壹拾元整", 35.2, 238.2),
            run("(小写)10.00", 250.0, 238.2),
            run("收款单位(章):", 34.5, 341.1),
        ])
    }

    #[test]
    fn a_fiscal_receipt_by_its_labels() {
        let sheets = [receipt()];
        assert!(fits(&sheets));
        let r = read(&sheets);
        assert_eq!(r.invoice_number, "0007445174");
        assert_eq!(r.invoice_code, "32020124");
        assert_eq!(r.invoice_date, "2024/05/14");
        assert_eq!(r.total_with_tax, "10.00");
        assert_eq!(
            (r.total_amount.as_str(), r.total_tax.as_str()),
            ("10.00", "0.00")
        );
        assert_eq!(r.buyer.name, "某某人才咨询有限公司");
        assert_eq!(r.seller.name, "");
        assert_eq!(r.doc_type, DocumentType::GeneralMachine);
    }

    #[test]
    fn prose_does_not_fit() {
        assert!(!fits(&[sheet(vec![run(
            "这是一段普通的文字，没有任何票据字段。",
            10.0,
            10.0
        )])]));
    }
}
