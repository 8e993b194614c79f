//! The outbound-stock document step, shared by process and save: from the current table and
//! the extracted line items to `易耗品、出库单.doc`, or the reason there is none.

use crate::RECORDS_FILE;
use docgen::{Cents, Converter, DOC_FILE_NAME, DOCX_FILE_NAME, OutboundDoc, OutboundItem};
use domain::{
    DocOutcome, InvoiceKind, InvoiceRecord, LineItem, PackageOutcome, Party, SessionConfig,
};
use serde::Deserialize;
use session_store::{CsvTable, Session, china_date};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

const DOC_SKIPPED: &str = "全部为差旅发票，无需生成出库单";
/// The skip message of a table without rows (nothing is travel there either).
const DOC_SKIPPED_EMPTY: &str = "表格为空，无需生成出库单";

/// Where the template is and who converts it; one per service.
#[derive(Debug, Clone)]
pub struct DocumentSettings {
    /// The outbound-stock document's `.docx` template (`[document] template`).
    pub template: PathBuf,
    /// The LibreOffice that turns the filled `.docx` into the `.doc`, shared by every session.
    pub converter: Arc<Converter>,
    /// The printed claim's own template (`[document] package_template`); `None` for the one
    /// shipped with the service.
    pub package_template: Option<PathBuf>,
    /// The institution's name printed on the claim (`[document] institution`).
    pub institution: String,
}

impl Default for DocumentSettings {
    fn default() -> Self {
        Self {
            template: PathBuf::from(docgen::DEFAULT_TEMPLATE),
            converter: Arc::new(Converter::default()),
            package_template: None,
            institution: String::new(),
        }
    }
}

/// One entry of invoice_records.json.
#[derive(Debug, Deserialize)]
pub(crate) struct StoredRecord {
    /// The uploaded file the invoice came from.
    #[serde(default)]
    pub file: Option<String>,
    pub kind: InvoiceKind,
    pub record: InvoiceRecord,
}

/// The document outcome, the printed claim's and the class counts of the table's rows.
#[derive(Debug, Clone)]
pub struct DocumentReport {
    /// What became of the outbound-stock document.
    pub outcome: DocOutcome,
    /// What became of the printed claim.
    pub package: PackageOutcome,
    /// The table's travel rows.
    pub travel_count: usize,
    /// The table's general rows.
    pub general_count: usize,
}

/// Regenerates the document and the printed claim from the table as it is now (after an edit,
/// too). The document takes general rows only, each with the line items extracted from its
/// invoice. Travel-only tables skip the document and remove a stale one, so no outdated
/// document is left to download.
pub fn regenerate_document(
    session: &Session,
    table: &CsvTable,
    config: &SessionConfig,
    settings: &DocumentSettings,
) -> DocumentReport {
    let stored = load_records(session);
    let by_number: HashMap<&str, &StoredRecord> = stored
        .iter()
        .filter(|s| !s.record.invoice_number.is_empty())
        .map(|s| (s.record.invoice_number.as_str(), s))
        .collect();
    let column = |name: &str| table.fields.iter().position(|f| f == name);
    let cell = |row: &[String], name: &str| {
        column(name)
            .and_then(|i| row.get(i))
            .cloned()
            .unwrap_or_default()
    };

    let mut items = Vec::new();
    let mut incomplete = Vec::new();
    let (mut travel_count, mut general_count) = (0, 0);
    for (position, row) in table.rows.iter().enumerate() {
        let number = cell(row, "发票号码");
        let stored = by_number.get(number.as_str());
        let kind = match stored {
            Some(stored) => stored.kind,
            None => {
                classify::classify(&row_as_record(
                    &cell(row, "项目名称"),
                    &cell(row, "销售方名称"),
                ))
                .kind
            }
        };
        if kind == InvoiceKind::Travel {
            travel_count += 1;
            continue;
        }
        general_count += 1;
        let edited = RowEdits {
            name: cell(row, "项目名称"),
            spec: cell(row, "规格型号"),
            total: cell(row, "价税合计"),
        };
        let row_items = items_for_row(stored.map(|s| &s.record), &edited);
        // One row without a readable amount (an invoice read from its QR code alone) must
        // not cost the whole document: it is left out and named for the user to complete.
        if row_items.iter().all(|i| Cents::parse(&i.amount).is_ok()) {
            items.extend(row_items);
        } else {
            incomplete.push(incomplete_row(position, &cell(row, "序号"), &number));
        }
    }

    let outcome = if general_count == 0 {
        for stale in [DOC_FILE_NAME, DOCX_FILE_NAME] {
            let _ = std::fs::remove_file(session.path().join(stale));
        }
        let message = if table.rows.is_empty() {
            DOC_SKIPPED_EMPTY
        } else {
            DOC_SKIPPED
        };
        DocOutcome::Skipped {
            message: message.to_owned(),
        }
    } else if items.is_empty() {
        DocOutcome::Failed {
            error: incomplete.join("；"),
        }
    } else {
        let doc = OutboundDoc {
            date: china_date(),
            claimant: config.default_name.clone(),
            department: String::new(),
            storage: config.consumable_storage.clone(),
            items,
        };
        match docgen::generate(
            &settings.template,
            &doc,
            session.path(),
            &settings.converter,
        ) {
            Ok(_) => {
                let _ = session.log(
                    "INFO",
                    "docgen",
                    &format!("已生成 {DOC_FILE_NAME}（{} 项）", doc.items.len()),
                );
                let left_out = (!incomplete.is_empty()).then(|| incomplete.join("；"));
                if let Some(message) = &left_out {
                    let _ = session.log("WARN", "docgen", message);
                }
                DocOutcome::Generated {
                    doc_url: doc_url(session),
                    left_out,
                }
            }
            Err(error) => {
                let message = error.to_string();
                let _ = session.log("ERROR", "docgen", &format!("出库单生成失败：{message}"));
                DocOutcome::Failed { error: message }
            }
        }
    };
    // The printed claim follows the same table, travel rows included.
    let package = crate::package_step::regenerate_package(session, table, config, settings);
    DocumentReport {
        outcome,
        package,
        travel_count,
        general_count,
    }
}

/// What the user is told of a general row the document had to leave out.
fn incomplete_row(position: usize, seq: &str, number: &str) -> String {
    let row = if seq.trim().is_empty() {
        (position + 1).to_string()
    } else {
        seq.trim().to_owned()
    };
    let invoice = if number.is_empty() {
        String::new()
    } else {
        format!("（发票号码 {number}）")
    };
    format!("第 {row} 行{invoice}缺少可识别的金额，未写入出库单：请在表格中补全价税合计后保存")
}

/// The download path of the document, its name percent-encoded.
fn doc_url(session: &Session) -> String {
    let encoded: String = DOC_FILE_NAME
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'.' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    format!("/api/download/{}/{encoded}", session.id())
}

/// What the user may have changed in a row.
struct RowEdits {
    name: String,
    spec: String,
    total: String,
}

/// The document lines of one general invoice. With its extracted record: one line per item,
/// amounts including tax (what was paid), the table's edited name, spec and (for a
/// single-item invoice) total taking precedence. Without one (a row typed by hand): one line
/// from the row itself.
fn items_for_row(record: Option<&InvoiceRecord>, edited: &RowEdits) -> Vec<OutboundItem> {
    let Some(record) = record.filter(|r| !r.items.is_empty()) else {
        return vec![OutboundItem {
            name: without_category(&edited.name),
            spec: edited.spec.clone(),
            unit: String::new(),
            quantity: "1".into(),
            unit_price: edited.total.clone(),
            amount: edited.total.clone(),
        }];
    };
    let single = record.items.len() == 1;
    record
        .items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let mut line = outbound_item(item);
            if index == 0 {
                if !edited.name.is_empty() && edited.name != item.name {
                    line.name = without_category(&edited.name);
                }
                if edited.spec != item.spec {
                    line.spec = edited.spec.clone();
                }
                if single && !edited.total.is_empty() && edited.total != record.total_with_tax {
                    line.amount = edited.total.clone();
                    line.unit_price = unit_price(&edited.total, &line.quantity).unwrap_or_default();
                }
            }
            line
        })
        .collect()
}

fn outbound_item(item: &LineItem) -> OutboundItem {
    let with_tax = match (Cents::parse(&item.amount), Cents::parse(&item.tax)) {
        (Ok(amount), Ok(tax)) => amount.checked_add(tax).map(|c| c.to_string()),
        (Ok(amount), Err(_)) => Some(amount.to_string()),
        _ => None,
    }
    .unwrap_or_else(|| item.amount.clone());
    let quantity = if item.quantity.is_empty() {
        "1".to_owned()
    } else {
        item.quantity.clone()
    };
    OutboundItem {
        name: without_category(&item.name),
        spec: item.spec.clone(),
        unit: item.unit.clone(),
        unit_price: unit_price(&with_tax, &quantity).unwrap_or_else(|| item.unit_price.clone()),
        quantity,
        amount: with_tax,
    }
}

/// Price per unit including tax, to the cent; `None` when the quantity is not a plain number.
fn unit_price(amount: &str, quantity: &str) -> Option<String> {
    let cents = Cents::parse(amount).ok()?.0 as f64;
    let quantity: f64 = quantity.trim().parse().ok().filter(|q: &f64| *q > 0.0)?;
    let per_unit = (cents / quantity).round() as i64;
    Some(Cents(per_unit).to_string())
}

/// `*文具*印章` → `印章`: a stock form names the goods, not the tax category.
fn without_category(name: &str) -> String {
    name.strip_prefix('*')
        .and_then(|rest| rest.split_once('*'))
        .map_or(name, |(_, goods)| goods)
        .to_owned()
}

/// invoice_records.json of the last process run; empty when absent or unreadable (rows typed by
/// hand still work, classified from their own cells).
pub(crate) fn load_records(session: &Session) -> Vec<StoredRecord> {
    session
        .read_json(RECORDS_FILE)
        .ok()
        .flatten()
        .and_then(|value| serde_json::from_value(value).ok())
        .unwrap_or_default()
}

/// A table row as a minimal record, so the classification rules apply to it.
pub(crate) fn row_as_record(item_name: &str, seller: &str) -> InvoiceRecord {
    InvoiceRecord {
        items: vec![LineItem {
            name: item_name.to_owned(),
            ..LineItem::default()
        }],
        seller: Party {
            name: seller.to_owned(),
            tax_id: String::new(),
        },
        ..InvoiceRecord::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, quantity: &str, amount: &str, tax: &str) -> LineItem {
        LineItem {
            name: name.into(),
            spec: "型号A".into(),
            unit: "个".into(),
            quantity: quantity.into(),
            unit_price: "1".into(),
            amount: amount.into(),
            tax_rate: "13%".into(),
            tax: tax.into(),
            ..LineItem::default()
        }
    }

    #[test]
    fn items_carry_the_tax_and_lose_the_category() {
        let line = outbound_item(&item("*文具*印章", "2", "100.00", "13.00"));
        assert_eq!(line.name, "印章");
        assert_eq!(line.amount, "113.00");
        assert_eq!(line.unit_price, "56.50");
        assert_eq!(line.quantity, "2");
        let no_quantity = outbound_item(&item("*餐饮服务*餐费", "", "99.01", "0.99"));
        assert_eq!(no_quantity.quantity, "1");
        assert_eq!(no_quantity.amount, "100.00");
    }

    #[test]
    fn edits_in_the_table_win() {
        let record = InvoiceRecord {
            total_with_tax: "113.00".into(),
            items: vec![item("*文具*印章", "1", "100.00", "13.00")],
            ..InvoiceRecord::default()
        };
        let edited = RowEdits {
            name: "*文具*公章".into(),
            spec: "圆形".into(),
            total: "120.00".into(),
        };
        let lines = items_for_row(Some(&record), &edited);
        assert_eq!(lines[0].name, "公章");
        assert_eq!(lines[0].spec, "圆形");
        assert_eq!(lines[0].amount, "120.00");
        let unchanged = RowEdits {
            name: "*文具*印章".into(),
            spec: "型号A".into(),
            total: "113.00".into(),
        };
        assert_eq!(items_for_row(Some(&record), &unchanged)[0].amount, "113.00");
    }

    #[test]
    fn a_hand_typed_row_is_one_line() {
        let edited = RowEdits {
            name: "打印纸".into(),
            spec: "A4".into(),
            total: "25.00".into(),
        };
        let lines = items_for_row(None, &edited);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].amount, "25.00");
        assert_eq!(lines[0].quantity, "1");
    }
}
