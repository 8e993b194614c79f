//! POST /api/process as a job: extract, drop duplicates, classify, write the table, report.

use crate::RECORDS_FILE;
use crate::document::{DocumentSettings, regenerate_document};
use crate::extract_step::{FileOutcome, extract_documents};
use crate::payment_step::{PAYMENT_CSV, PAYMENTS_FILE, apply_payments, log_summary};
use crate::recognise::{ScreenshotSettings, recognise_screenshots};
use crate::table::{invoice_table, summary_row};
use domain::{FailureResult, InvoiceKind, InvoiceRecord, ProcessResult, SessionConfig};
use serde_json::{Value, json};
use session_store::{SUMMARY_CSV, Session};
use std::collections::HashMap;
use std::time::Instant;

/// What a process run produced, for callers that go on (the agent) and for tests.
#[derive(Debug, Clone)]
pub struct ProcessOutcome {
    /// The invoices kept, in upload order, with their class.
    pub invoices: Vec<(String, InvoiceKind, InvoiceRecord)>,
    /// The `done` result.
    pub result: Value,
}

/// Runs the extraction-only flow and returns its `done` result.
pub fn process(
    session: &Session,
    config: &SessionConfig,
    documents: &DocumentSettings,
    screenshots: &ScreenshotSettings,
) -> ProcessOutcome {
    let started = Instant::now();
    let _ = session.log("INFO", "pipeline", "开始处理：提取发票");
    let files = extract_documents(session);
    let total_files = files.len();

    let mut errors = Vec::new();
    let mut duplicates = Vec::new();
    let mut seen_numbers: HashMap<(String, String), String> = HashMap::new();
    let mut seen_digests: HashMap<String, String> = HashMap::new();
    let mut invoices = Vec::new();
    for file in files {
        let record = match file.outcome {
            FileOutcome::Extracted(record) => *record,
            FileOutcome::Failed(error) => {
                errors.push(json!({"file": file.file, "error": error}));
                continue;
            }
        };
        // The same identity as `agent::ClaimBuilder` drops, plus the very same file.
        let number_key = record
            .identity()
            .map(|(code, number)| (code.to_owned(), number.to_owned()));
        let earlier = seen_digests
            .get(&file.digest)
            .or_else(|| number_key.as_ref().and_then(|key| seen_numbers.get(key)));
        if let Some(earlier) = earlier {
            let message = format!(
                "{} 与 {earlier} 是同一张发票（{}），已跳过",
                file.file, record.invoice_number
            );
            let _ = session.log("WARN", "pipeline", &message);
            duplicates.push(json!({"file": file.file, "duplicate_of": earlier, "invoice_number": record.invoice_number}));
            continue;
        }
        seen_digests.insert(file.digest.clone(), file.file.clone());
        if let Some(key) = number_key {
            seen_numbers.insert(key, file.file.clone());
        }
        let class = classify::classify(&record);
        invoices.push((file.file, class.kind, record));
    }

    let rows: Vec<_> = invoices
        .iter()
        .enumerate()
        .map(|(index, (_, _, record))| summary_row(record, index + 1, config))
        .collect();
    let table = invoice_table(&rows);
    if let Err(error) = session.write_table(&table) {
        let message = format!("写入 {SUMMARY_CSV} 失败：{error}");
        let _ = session.log("ERROR", "pipeline", &message);
        return ProcessOutcome {
            invoices,
            result: FailureResult::new(message).to_json(),
        };
    }
    let records: Vec<Value> = invoices
        .iter()
        .map(|(file, kind, record)| json!({"file": file, "kind": kind, "record": record}))
        .collect();
    if let Err(error) = session.write_json(RECORDS_FILE, &records) {
        let _ = session.log(
            "WARN",
            "pipeline",
            &format!("写入 {RECORDS_FILE} 失败：{error}"),
        );
    }

    let travel_count = invoices
        .iter()
        .filter(|(_, kind, _)| *kind == InvoiceKind::Travel)
        .count();
    let general_count = invoices.len() - travel_count;
    let _ = session.log(
        "INFO",
        "pipeline",
        &format!(
            "提取完成：{total_files} 个文件，{} 张发票（差旅 {travel_count}，一般 {general_count}），失败 {}，重复 {}",
            invoices.len(),
            errors.len(),
            duplicates.len()
        ),
    );
    if invoices.is_empty() {
        let message = if total_files == 0 {
            "会话中没有发票文件（PDF、OFD 或 XML），请先上传".to_owned()
        } else {
            format!("未能从 {total_files} 个文件中提取到发票")
        };
        let mut failure = FailureResult::new(message).to_json();
        if let Value::Object(map) = &mut failure {
            map.insert("errors".into(), Value::Array(errors));
        }
        return ProcessOutcome {
            invoices,
            result: failure,
        };
    }

    // Payment screenshots fill the card columns of a second table, which /api/data then shows;
    // without screenshots a stale one from an earlier run is removed so it cannot hide this one.
    let payments = recognise_screenshots(session, screenshots);
    let mut payment_summary = Value::Null;
    let shown_table = if payments.is_empty() {
        for stale in [PAYMENT_CSV, PAYMENTS_FILE] {
            let _ = std::fs::remove_file(session.path().join(stale));
        }
        table
    } else {
        let mut paid_rows = rows.clone();
        payment_summary = apply_payments(&mut paid_rows, &payments, config);
        log_summary(session, &payment_summary);
        let mut paid = invoice_table(&paid_rows);
        paid.file_name = PAYMENT_CSV.to_owned();
        if let Err(error) = session.write_table(&paid) {
            let _ = session.log(
                "ERROR",
                "matcher",
                &format!("写入 {PAYMENT_CSV} 失败：{error}"),
            );
        }
        let record = json!({"payments": payments, "matching": payment_summary["detail"]});
        if let Err(error) = session.write_json(PAYMENTS_FILE, &record) {
            let _ = session.log(
                "WARN",
                "matcher",
                &format!("写入 {PAYMENTS_FILE} 失败：{error}"),
            );
        }
        paid
    };
    let report = regenerate_document(session, &shown_table, config, documents);
    let doc = report.outcome;
    let mut extra = report.package.fields();
    extra.insert("errors".into(), Value::Array(errors));
    extra.insert("duplicates".into(), Value::Array(duplicates));
    if !payment_summary.is_null() {
        extra.insert("payment_count".into(), json!(payments.len()));
        extra.insert(
            "payment_csv_url".into(),
            json!(format!("/api/download/{}/{PAYMENT_CSV}", session.id())),
        );
        for key in [
            "matched",
            "unmatched_payments",
            "unmatched_invoices",
            "ambiguous",
        ] {
            extra.insert(key.into(), payment_summary[key].clone());
        }
    }
    let result = ProcessResult {
        elapsed_secs: started.elapsed().as_secs_f64(),
        invoice_count: invoices.len(),
        csv_url: format!("/api/download/{}/{SUMMARY_CSV}", session.id()),
        travel_count,
        general_count,
        doc,
        extra,
    };
    ProcessOutcome {
        invoices,
        result: result.to_json(),
    }
}
