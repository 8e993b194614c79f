//! The printed claim step, beside the document step and run wherever the table changes
//! (process, agent rounds, save, supplements) and after a successful submission (the claim
//! number then filled in): from the table, the extraction's records, the matched payment
//! screenshots and the session config to `报销材料.pdf` and the PNG of its first page, written
//! through the session store. The layout itself is claim-print's.

use crate::agent::TRAVEL_APPLICATIONS_FILE;
use crate::document::{DocumentSettings, StoredRecord, load_records, row_as_record};
use crate::payment_step::PAYMENTS_FILE;
use claim_print::{
    Attachment, CardPayment, ClaimHeader, ClaimInput, InvoiceInput, PaymentInput, SlotSize,
    Template,
};
use domain::{Cents, DocumentType, InvoiceKind, PackageOutcome, SessionConfig};
use serde_json::Value;
use session_store::{
    CsvTable, PACKAGE_PDF as PACKAGE_FILE_NAME, PACKAGE_PREVIEW as PREVIEW_FILE_NAME, Session,
    china_date,
};
use std::collections::{BTreeMap, HashMap};

/// Where the last outcome is kept, for results of jobs that did not make the package themselves.
const OUTCOME_FILE: &str = ".package.json";
/// Largest source file read for a package (the upload limit is lower; this guards the read).
const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;
const SKIPPED_EMPTY: &str = "表格为空，无需生成报销材料";

/// Regenerates `报销材料.pdf` from the table as it is now, with the portal's claim number when
/// this very table was submitted. The outcome is also kept for [`package_fields`].
pub fn regenerate_package(
    session: &Session,
    table: &CsvTable,
    config: &SessionConfig,
    settings: &DocumentSettings,
) -> PackageOutcome {
    let outcome = if table.rows.is_empty() {
        for stale in [PACKAGE_FILE_NAME, PREVIEW_FILE_NAME] {
            let _ = std::fs::remove_file(session.path().join(stale));
        }
        PackageOutcome::Skipped {
            message: SKIPPED_EMPTY.to_owned(),
        }
    } else {
        let claim_no = crate::submit::submitted_claim_no(session, table);
        let input = claim_input(session, table, config, settings, claim_no);
        let template = settings
            .package_template
            .clone()
            .map_or(Template::Default, Template::File);
        write_package(session, &input, &template)
    };
    let _ = session.write_json_hidden(OUTCOME_FILE, &outcome);
    outcome
}

/// After a submission: the package again from the submitted table, now with its claim number,
/// and its fields added to the submission's result.
pub fn print_after_submission(session: &Session, settings: &DocumentSettings, result: &mut Value) {
    if result["submit_ok"] == true {
        let table = session
            .table_file_name()
            .ok()
            .flatten()
            .and_then(|name| session.read_table(&name).ok());
        let config = session.read_config().ok().flatten();
        if let (Some(table), Some(config)) = (table, config) {
            regenerate_package(session, &table, &config, settings);
        }
    }
    with_package(session, result);
}

/// Adds the last package outcome's fields to a result that does not have them yet.
pub fn with_package(session: &Session, result: &mut Value) {
    if let Value::Object(map) = result {
        for (key, value) in package_fields(session) {
            map.entry(key).or_insert(value);
        }
    }
}

/// The package fields of the last outcome, for a result (an agent round) that reports the
/// package the steps inside it made.
pub fn package_fields(session: &Session) -> serde_json::Map<String, Value> {
    session
        .read_json_hidden(OUTCOME_FILE)
        .and_then(|v| serde_json::from_value::<PackageOutcome>(v).ok())
        .map(|o| o.fields())
        .unwrap_or_default()
}

fn write_package(session: &Session, input: &ClaimInput, template: &Template) -> PackageOutcome {
    let rendered = match claim_print::render(input, template) {
        Ok(rendered) => rendered,
        Err(error) => {
            let message = error.to_string();
            let _ = session.log("ERROR", "print", &format!("报销材料生成失败：{message}"));
            return PackageOutcome::Failed { error: message };
        }
    };
    if let Err(error) = session.write_file(PACKAGE_FILE_NAME, &rendered.pdf) {
        let message = format!("无法写入 {PACKAGE_FILE_NAME}：{error}");
        let _ = session.log("ERROR", "print", &message);
        return PackageOutcome::Failed { error: message };
    }
    let _ = session.log(
        "INFO",
        "print",
        &format!(
            "已生成 {PACKAGE_FILE_NAME}（{} 页，粘贴单 {} 张，{:.1} MB）",
            rendered.pages,
            rendered.sheets,
            rendered.pdf.len() as f64 / 1_048_576.0
        ),
    );
    for note in &rendered.notes {
        let _ = session.log("WARN", "print", note);
    }
    let preview_url = match claim_print::preview_png(&rendered.pdf)
        .map_err(|e| e.to_string())
        .and_then(|png| {
            session
                .write_file(PREVIEW_FILE_NAME, &png)
                .map_err(|e| e.to_string())
        }) {
        Ok(()) => Some(download_url(session, PREVIEW_FILE_NAME)),
        Err(error) => {
            let _ = std::fs::remove_file(session.path().join(PREVIEW_FILE_NAME));
            let _ = session.log("WARN", "print", &format!("报销材料预览图未生成：{error}"));
            None
        }
    };
    PackageOutcome::Generated {
        package_url: download_url(session, PACKAGE_FILE_NAME),
        preview_url,
        notes: rendered.notes,
    }
}

/// The download path of a session file, its name percent-encoded.
pub(crate) fn download_url(session: &Session, name: &str) -> String {
    let encoded: String = name
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_') {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    format!("/api/download/{}/{encoded}", session.id())
}

/// The package's data from the session.
fn claim_input(
    session: &Session,
    table: &CsvTable,
    config: &SessionConfig,
    settings: &DocumentSettings,
    claim_no: Option<String>,
) -> ClaimInput {
    let stored = load_records(session);
    let by_number: HashMap<&str, &StoredRecord> = stored
        .iter()
        .filter(|s| !s.record.invoice_number.is_empty())
        .map(|s| (s.record.invoice_number.as_str(), s))
        .collect();
    let rows = crate::submit::keyed_rows(table);
    let cell = |row: &BTreeMap<String, String>, k: &str| row.get(k).cloned().unwrap_or_default();
    let mut invoices = Vec::new();
    let mut card = Vec::new();
    let mut any_general = false;
    for row in &rows {
        let stored = by_number.get(cell(row, "发票号码").as_str()).copied();
        let kind = stored.map_or_else(
            || {
                classify::classify(&row_as_record(
                    &cell(row, "项目名称"),
                    &cell(row, "销售方名称"),
                ))
                .kind
            },
            |s| s.kind,
        );
        any_general |= kind == InvoiceKind::General;
        let number = cell(row, "公务卡号");
        if !number.trim().is_empty() {
            let digits: String = number.chars().filter(char::is_ascii_digit).collect();
            card.push(CardPayment {
                tail: digits[digits.len().saturating_sub(4)..].to_owned(),
                date: cell(row, "刷卡日期"),
                amount: cell(row, "刷卡金额"),
                row: cell(row, "序号"),
            });
        }
        invoices.push(invoice_input(session, row, stored));
    }
    let header = ClaimHeader {
        institution: settings.institution.clone(),
        title: if any_general {
            "日常费用报销单"
        } else {
            "差旅费报销单"
        }
        .to_owned(),
        claim_no,
        claimant: if config.default_name.is_empty() {
            rows.first()
                .map(|r| cell(r, "人员姓名"))
                .unwrap_or_default()
        } else {
            config.default_name.clone()
        },
        person_id: if config.default_person_id.is_empty() {
            config.username.clone()
        } else {
            config.default_person_id.clone()
        },
        kind: if any_general { "日常" } else { "差旅" }.to_owned(),
        date: china_date(),
        card,
        ..ClaimHeader::default()
    };
    let header = if any_general {
        header
    } else {
        with_trip(session, header)
    };
    let payments = payment_inputs(session, &stored, &invoices);
    ClaimInput {
        header,
        invoices,
        payments,
    }
}

/// 出差事由 and the trip from the agent's travel application, when it has them.
fn with_trip(session: &Session, mut header: ClaimHeader) -> ClaimHeader {
    let Some(trip) = session.read_json(TRAVEL_APPLICATIONS_FILE).ok().flatten() else {
        return header;
    };
    let text = |k: &str| trip[k].as_str().unwrap_or_default().trim().to_owned();
    header.purpose = text("purpose");
    let places = [text("origin"), text("destination")]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" → ");
    let dates = [text("start_date"), text("end_date")]
        .into_iter()
        .filter(|d| !d.is_empty())
        .collect::<Vec<_>>()
        .join("–");
    header.trip = [places, dates]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("，");
    header
}

/// One row's invoice: its PDF when it has one, else its card from the record (or the row).
fn invoice_input(
    session: &Session,
    row: &BTreeMap<String, String>,
    stored: Option<&StoredRecord>,
) -> InvoiceInput {
    let cell = |k: &str| row.get(k).cloned().unwrap_or_default();
    let file = stored.and_then(|s| s.file.clone()).unwrap_or_default();
    let attachment = if file.to_ascii_lowercase().ends_with(".pdf") {
        read_source(session, &file).map_or(Attachment::Card, Attachment::Pdf)
    } else {
        Attachment::Card
    };
    let record = stored.map(|s| &s.record);
    let railway = record.is_some_and(|r| r.doc_type == DocumentType::Railway);
    let mut details = vec![
        ("发票号码".to_owned(), cell("发票号码")),
        ("开票日期".to_owned(), cell("开票日期")),
    ];
    if let Some(record) = record {
        details.push(("购买方".to_owned(), record.buyer.name.clone()));
        details.push(("销售方".to_owned(), record.seller.name.clone()));
        let items: Vec<&str> = record.items.iter().map(|i| i.name.as_str()).collect();
        details.push(("项目".to_owned(), items.join("、")));
        details.push(("金额".to_owned(), record.total_amount.clone()));
        details.push(("税额".to_owned(), record.total_tax.clone()));
    } else {
        details.push(("销售方".to_owned(), cell("销售方名称")));
        details.push(("项目".to_owned(), cell("项目名称")));
    }
    details.push(("价税合计".to_owned(), cell("价税合计")));
    details.retain(|(_, v)| !v.trim().is_empty());
    InvoiceInput {
        row: cell("序号"),
        number: cell("发票号码"),
        date: cell("开票日期"),
        item: cell("项目名称"),
        seller: cell("销售方名称"),
        amount: Cents::parse(&cell("价税合计")).ok(),
        size: if railway {
            SlotSize::Quarter
        } else {
            SlotSize::Half
        },
        attachment,
        file,
        details,
    }
}

/// A session file's bytes, if it is there and not absurdly large.
fn read_source(session: &Session, name: &str) -> Option<Vec<u8>> {
    let path = session.existing_file(name).ok()?;
    let small = std::fs::metadata(&path).is_ok_and(|m| m.len() <= MAX_SOURCE_BYTES);
    small.then(|| std::fs::read(&path).ok()).flatten()
}

/// The payment screenshots of the last run, each with the row it pays: matching names invoices
/// by their index at that run, which is the order of invoice_records.json, so the row is found
/// again by invoice number (the table may have been reordered since).
fn payment_inputs(
    session: &Session,
    stored: &[StoredRecord],
    invoices: &[InvoiceInput],
) -> Vec<PaymentInput> {
    let Some(file) = session.read_json(PAYMENTS_FILE).ok().flatten() else {
        return Vec::new();
    };
    let row_of_number: HashMap<&str, &str> = invoices
        .iter()
        .filter(|i| !i.number.is_empty())
        .map(|i| (i.number.as_str(), i.row.as_str()))
        .collect();
    let mut pays: HashMap<usize, String> = HashMap::new();
    for pair in file["matching"]["pairs"].as_array().into_iter().flatten() {
        let invoice = pair["invoice_indices"][0]
            .as_u64()
            .and_then(|i| stored.get(i as usize));
        let row = invoice.and_then(|s| row_of_number.get(s.record.invoice_number.as_str()));
        for index in pair["payment_indices"].as_array().into_iter().flatten() {
            if let (Some(index), Some(row)) = (index.as_u64(), row) {
                pays.insert(index as usize, (*row).to_owned());
            }
        }
    }
    file["payments"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .filter(|(_, p)| p["no_payment"] != true)
        .filter_map(|(index, p)| {
            let name = p["file"].as_str()?.to_owned();
            Some(PaymentInput {
                image: read_source(session, &name).unwrap_or_default(),
                amount: p["amount"].as_str().unwrap_or_default().to_owned(),
                date: p["date"].as_str().unwrap_or_default().to_owned(),
                pays_row: pays.get(&index).cloned(),
                file: name,
            })
        })
        .collect()
}
