//! Submitting the session's table to the finance system through the browser flow, once.

use crate::challenge::Challenges;
use crate::document::{StoredRecord, load_records, row_as_record};
use domain::{DocumentType, InvoiceKind, InvoiceRecord, SessionConfig};
use finance_bot::{Bot, BotOptions, BrowserPool, ClaimKind, FlowFile, Submission, SubmissionFiles};
use ledger::{ClaimId, Ledger, LedgerError};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use session_store::{CsvTable, Session, utc_timestamp};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// Failure screenshots are saved in the session under this prefix (downloadable, and left out
/// of the upload listing so they are never taken for payment screenshots).
pub const SCREENSHOT_PREFIX: &str = session_store::GENERATED_IMAGE_PREFIX;

/// Hidden record of successful submissions, for the double-claim guard.
const SUBMISSIONS_FILE: &str = ".submissions.json";

/// The flow file and how to reach a browser; one per service.
#[derive(Debug, Clone)]
pub struct FinanceSettings {
    /// The portal's flow file (TOML: the steps the browser takes).
    pub flow: PathBuf,
    /// Browser, timeouts and the portal's base URL; `screenshot_dir` is set per session.
    pub options: BotOptions,
    /// The service's bound on browsers running at once.
    pub browsers: BrowserPool,
    /// Questions a portal asks the person during a submission (a captcha), and their answers.
    pub challenges: Challenges,
    /// The claims ledger: every invoice is reserved in it before the portal sees it, so it is
    /// never reimbursed twice. `None` only for embedders that keep no ledger; the service
    /// always has one.
    pub ledger: Option<Ledger>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct SubmissionRecord {
    fingerprint: String,
    claim_no: String,
    kind: String,
    submitted_at: String,
    invoice_numbers: Vec<String>,
}

/// Submits the table `/api/data` would show (normally after a save) and returns the `done`
/// result: `ok`, `submit_ok`, `submit_error` (null on success) and `claim_no`.
pub fn submit(session: &Session, settings: &FinanceSettings) -> Value {
    match prepare(session) {
        Ok(prepared) => run(session, settings, prepared),
        Err(message) => {
            let _ = session.log("ERROR", "bot", &message);
            failure(&message)
        }
    }
}

fn failure(message: &str) -> Value {
    json!({"ok": true, "submit_ok": false, "submit_error": message})
}

struct Prepared {
    submission: Submission,
    fingerprint: String,
    invoice_numbers: Vec<String>,
    /// The rows as the ledger records them.
    entries: Vec<ledger::InvoiceEntry>,
}

fn prepare(session: &Session) -> Result<Prepared, String> {
    let config: SessionConfig = session
        .read_config()
        .map_err(|e| format!("无法读取会话配置：{e}"))?
        .ok_or("会话配置不存在，请先处理发票")?;
    if config.username.is_empty() || config.password.is_empty() {
        return Err("未填写财务系统工号或密码".to_owned());
    }
    let name = session
        .table_file_name()
        .map_err(|e| e.to_string())?
        .ok_or("没有可提交的发票表格")?;
    let table = session
        .read_table(&name)
        .map_err(|e| format!("读取表格失败：{e}"))?;
    if table.rows.is_empty() {
        return Err("发票表格为空，没有可提交的发票".to_owned());
    }
    let stored = load_records(session);
    let by_number: HashMap<&str, &StoredRecord> = stored
        .iter()
        .map(|s| (s.record.invoice_number.as_str(), s))
        .collect();

    let rows = keyed_rows(&table);
    let mut entries = Vec::new();
    let mut kinds = Vec::new();
    let mut records: Vec<Option<&StoredRecord>> = Vec::new();
    for row in &rows {
        let number = row.get("发票号码").map(String::as_str).unwrap_or_default();
        let record = by_number.get(number).copied();
        entries.push(crate::ledger_step::entry(session, row, record));
        let kind = match record {
            Some(stored) => stored.kind,
            None => {
                let cell = |k: &str| row.get(k).map(String::as_str).unwrap_or_default();
                classify::classify(&row_as_record(cell("项目名称"), cell("销售方名称"))).kind
            }
        };
        kinds.push(kind);
        records.push(record);
    }
    let kind = if kinds.contains(&InvoiceKind::General) {
        ClaimKind::General
    } else {
        ClaimKind::Travel
    };

    let mut submission_rows = Vec::new();
    for ((row, record), row_kind) in rows.iter().zip(&records).zip(&kinds) {
        let mut row = row.clone();
        if kind == ClaimKind::Travel {
            let expense = record.map_or("other", |r| expense_type(&r.record));
            row.insert("expense_type".into(), expense.into());
        }
        row.insert("kind".into(), row_kind.as_str().into());
        submission_rows.push(row);
    }

    let mut invoices = Vec::new();
    for stored in records.iter().flatten() {
        let Some(file) = stored.file.clone() else {
            continue;
        };
        let path = session.path().join(&file);
        let lower = file.to_ascii_lowercase();
        // The invoice as issued, whatever its format: 数电 invoices often come as OFD or XML.
        let attachable = [".pdf", ".ofd", ".xml"].iter().any(|e| lower.ends_with(e));
        if attachable && path.is_file() && !invoices.contains(&path) {
            invoices.push(path);
        }
    }
    let doc = session.path().join(docgen::DOC_FILE_NAME);
    let outbound_doc = (kind == ClaimKind::General && doc.is_file()).then_some(doc);
    let mut extra = claim_details(kind, &rows, &records);
    if kind == ClaimKind::Travel {
        apply_travel_application(session, &mut extra);
    }

    let fingerprint = fingerprint(kind, &table);
    let invoice_numbers = rows
        .iter()
        .filter_map(|r| r.get("发票号码").cloned())
        .filter(|n| !n.is_empty())
        .collect();
    Ok(Prepared {
        submission: Submission {
            kind,
            config,
            rows: submission_rows,
            files: SubmissionFiles {
                invoices,
                outbound_doc,
            },
            extra,
        },
        fingerprint,
        invoice_numbers,
        entries,
    })
}

fn run(session: &Session, settings: &FinanceSettings, prepared: Prepared) -> Value {
    let mut history: Vec<SubmissionRecord> = session
        .read_json_hidden(SUBMISSIONS_FILE)
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    if let Some(earlier) = history
        .iter()
        .find(|h| h.fingerprint == prepared.fingerprint)
    {
        let message = format!(
            "这些发票已于 {} 提交（报销单号 {}），表格未改动，不再重复提交",
            earlier.submitted_at, earlier.claim_no
        );
        let _ = session.log("WARN", "bot", &message);
        return failure(&message);
    }
    let flow = match FlowFile::load(&settings.flow) {
        Ok(flow) => flow,
        Err(error) => {
            return failure(&format!(
                "无法读取提交流程文件 {}：{error}",
                settings.flow.display()
            ));
        }
    };
    let kind = prepared.submission.kind;
    let reservation = match reserve(session, settings, &flow, &prepared) {
        Ok(reservation) => reservation,
        Err(message) => {
            let _ = session.log("WARN", "ledger", &message);
            return failure(&message);
        }
    };
    let _ = session.log(
        "INFO",
        "bot",
        &format!(
            "开始提交{}（{} 张发票，{} 个附件）",
            if kind == ClaimKind::General {
                "日常报销"
            } else {
                "差旅报销"
            },
            prepared.submission.rows.len(),
            prepared.submission.files.invoices.len()
                + usize::from(prepared.submission.files.outbound_doc.is_some())
        ),
    );
    let options = BotOptions {
        screenshot_dir: session.path().to_path_buf(),
        person: Some(settings.challenges.person(session)),
        on_read: record_claim_no(session, settings, reservation),
        before_final_submit: note_final_submit(session, reservation),
        ..settings.options.clone()
    };
    let slot = settings.browsers.acquire(|running| {
        let _ = session.log(
            "INFO",
            "bot",
            &format!(
                "已有 {running} 个提交在使用浏览器（上限 {}），排队等待空闲浏览器…",
                settings.browsers.size()
            ),
        );
    });
    let submitted = Bot::submit(&flow, &prepared.submission, &options);
    drop(slot);
    settle(session, settings, reservation, &submitted);
    match submitted {
        Ok(outcome) => {
            let claim_no = outcome.claim_no.clone().unwrap_or_default();
            let _ = session.log(
                "INFO",
                "bot",
                &format!(
                    "提交成功，报销单号 {claim_no}（用时 {:.1}s）",
                    outcome.elapsed.as_secs_f64()
                ),
            );
            history.push(SubmissionRecord {
                fingerprint: prepared.fingerprint,
                claim_no: claim_no.clone(),
                kind: kind.key().to_owned(),
                submitted_at: utc_timestamp(),
                invoice_numbers: prepared.invoice_numbers,
            });
            if let Err(error) = session.write_json_hidden(SUBMISSIONS_FILE, &history) {
                let _ = session.log("ERROR", "bot", &format!("无法记录提交：{error}"));
            }
            json!({"ok": true, "submit_ok": true, "submit_error": null, "claim_no": claim_no, "flow": kind.key()})
        }
        Err(error) => {
            let mut message = error.message.clone();
            let screenshot = error
                .screenshot
                .as_ref()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned());
            if let Some(name) = &screenshot {
                message.push_str(&format!("（页面截图：{name}）"));
            }
            let _ = session.log("ERROR", "bot", &message);
            json!({"ok": true, "submit_ok": false, "submit_error": message, "screenshot": screenshot, "flow": kind.key()})
        }
    }
}

/// Reserves the claim's invoices in the ledger: refused, with the ledger's sentence, when any is
/// in another claim, and when the ledger cannot be written (better no claim than a second).
fn reserve(
    session: &Session,
    settings: &FinanceSettings,
    flow: &FlowFile,
    prepared: &Prepared,
) -> Result<Option<ClaimId>, String> {
    let Some(ledger) = &settings.ledger else {
        return Ok(None);
    };
    let draft = crate::ledger_step::draft(
        session,
        &flow.portal.name,
        prepared.submission.kind.key(),
        &prepared.submission.config,
        prepared.entries.clone(),
    );
    match ledger.reserve(&draft) {
        Ok(id) => Ok(Some(id)),
        Err(error @ LedgerError::AlreadyClaimed(_)) => {
            Err(format!("{error}，不能重复报销，未提交"))
        }
        Err(error) => Err(format!("无法写入报销台账，未提交：{error}")),
    }
}

/// Notes in the session, right before the portal's final submit, which reservation it files:
/// a crash after it leaves the claim possibly filed, so start-up keeps its invoices held
/// instead of releasing them (see `reconcile_ledger`).
fn note_final_submit(
    session: &Session,
    reservation: Option<ClaimId>,
) -> Option<finance_bot::OnRead> {
    let id = reservation?;
    let session = session.clone();
    Some(finance_bot::OnRead(std::sync::Arc::new(
        move |_: &str, step: &str| {
            let note = json!({"claim_id": id.0, "step": step, "at": utc_timestamp()});
            if let Err(error) =
                session.write_json_hidden(crate::ledger_step::FINAL_SUBMIT_FILE, &note)
            {
                let _ = session.log("ERROR", "ledger", &format!("无法记录提交进度：{error}"));
            }
        },
    )))
}

/// Records the claim number in the ledger the moment the flow reads it from the portal's
/// page, not only after the browser has closed: a crash in between then loses nothing.
fn record_claim_no(
    session: &Session,
    settings: &FinanceSettings,
    reservation: Option<ClaimId>,
) -> Option<finance_bot::OnRead> {
    let (ledger, id) = (settings.ledger.clone()?, reservation?);
    let session = session.clone();
    Some(finance_bot::OnRead(std::sync::Arc::new(
        move |key: &str, value: &str| {
            if key != finance_bot::CLAIM_NO_KEY || value.is_empty() {
                return;
            }
            // Called inside the bot's runtime, where the ledger's blocking API may not run: a
            // thread of its own, waited for (a few milliseconds).
            let accepted = std::thread::scope(|scope| {
                scope
                    .spawn(|| ledger.accept(id, value))
                    .join()
                    .unwrap_or_else(|_| Err(LedgerError::Runtime("记录线程异常退出".into())))
            });
            if let Err(error) = accepted {
                let _ = session.log("ERROR", "ledger", &format!("无法记录报销单号：{error}"));
            }
        },
    )))
}

/// Records the outcome in the ledger: the claim number of an accepted claim, or the reservation
/// released. A ledger that fails here is said in the log; the start-up reconciliation settles
/// the claim from result.json.
fn settle(
    session: &Session,
    settings: &FinanceSettings,
    reservation: Option<ClaimId>,
    submitted: &Result<finance_bot::SubmitOutcome, finance_bot::SubmitError>,
) {
    let (Some(ledger), Some(id)) = (&settings.ledger, reservation) else {
        return;
    };
    let recorded = match submitted {
        Ok(outcome) => {
            let number = outcome.claim_no.as_deref().filter(|n| !n.trim().is_empty());
            ledger.accept(id, number.unwrap_or("（未读取单号）"))
        }
        Err(error) => ledger.release(id, &error.message),
    };
    if let Err(error) = recorded {
        let _ = session.log("ERROR", "ledger", &format!("无法更新报销台账：{error}"));
    }
}

/// The table's rows keyed by column name.
pub(crate) fn keyed_rows(table: &CsvTable) -> Vec<BTreeMap<String, String>> {
    table
        .rows
        .iter()
        .map(|row| {
            table
                .fields
                .iter()
                .cloned()
                .zip(row.iter().cloned())
                .collect()
        })
        .collect()
}

/// What identifies a claim: its kind and every cell of the table. Any edit makes a new one.
/// The claim number this very table was submitted under, if it was (either kind: the package
/// does not decide the kind the way a submission does).
pub(crate) fn submitted_claim_no(session: &Session, table: &CsvTable) -> Option<String> {
    let history: Vec<SubmissionRecord> = session
        .read_json_hidden(SUBMISSIONS_FILE)
        .and_then(|v| serde_json::from_value(v).ok())?;
    let prints = [
        fingerprint(ClaimKind::General, table),
        fingerprint(ClaimKind::Travel, table),
    ];
    history
        .iter()
        .rev()
        .find(|h| prints.contains(&h.fingerprint) && !h.claim_no.is_empty())
        .map(|h| h.claim_no.clone())
}

fn fingerprint(kind: ClaimKind, table: &CsvTable) -> String {
    let mut hasher = Sha256::new();
    hasher.update(kind.key().as_bytes());
    for row in &table.rows {
        for cell in row {
            hasher.update([0x1f]);
            hasher.update(cell.as_bytes());
        }
        hasher.update([0x1e]);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The travel form's 类型 of an invoice.
fn expense_type(record: &InvoiceRecord) -> &'static str {
    let items: String = record.items.iter().map(|i| i.name.as_str()).collect();
    match record.doc_type {
        DocumentType::Railway => "train",
        DocumentType::AirItinerary => "flight",
        DocumentType::Toll => "toll",
        _ if items.contains("住宿") => "hotel",
        _ if items.contains("机票") || items.contains("航空") => "flight",
        _ if items.contains("通行费") => "toll",
        _ if items.contains("客运") || items.contains("出租") || items.contains("网约车") => {
            "taxi"
        }
        _ => "other",
    }
}

/// The trip the agent gathered (travel_applications.json), where it has a value, over what
/// the tickets alone give: the user's 出差事由 instead of `差旅报销（N 张票据）`.
fn apply_travel_application(session: &Session, extra: &mut BTreeMap<String, String>) {
    let Some(application) = session
        .read_json(crate::TRAVEL_APPLICATIONS_FILE)
        .ok()
        .flatten()
    else {
        return;
    };
    for (variable, field) in [
        ("purpose", "purpose"),
        ("origin", "origin"),
        ("destination", "destination"),
        ("depart_date", "start_date"),
        ("return_date", "end_date"),
    ] {
        if let Some(value) = application[field].as_str().filter(|v| !v.trim().is_empty()) {
            extra.insert(variable.to_owned(), value.to_owned());
        }
    }
}

/// `claim.*` variables of the flow: the purpose, and for travel the trip read from tickets
/// (first departure, last arrival, first and last travel dates), else the invoice dates.
fn claim_details(
    kind: ClaimKind,
    rows: &[BTreeMap<String, String>],
    records: &[Option<&StoredRecord>],
) -> BTreeMap<String, String> {
    let mut extra = BTreeMap::new();
    let goods: Vec<String> = rows
        .iter()
        .filter_map(|r| r.get("项目名称"))
        .map(|n| n.rsplit('*').next().unwrap_or(n).to_owned())
        .filter(|n| !n.is_empty())
        .collect();
    let mut dates: Vec<String> = rows
        .iter()
        .filter_map(|r| r.get("开票日期"))
        .filter(|d| !d.is_empty())
        .cloned()
        .collect();
    match kind {
        ClaimKind::General => {
            let mut shown: Vec<&str> = goods.iter().map(String::as_str).take(3).collect();
            shown.dedup();
            let more = if goods.len() > 3 { "等" } else { "" };
            extra.insert(
                "purpose".into(),
                format!("报销{}{more}（{} 张发票）", shown.join("、"), rows.len()),
            );
        }
        ClaimKind::Travel => {
            let trips: Vec<&domain::RailwayTrip> = records
                .iter()
                .flatten()
                .filter_map(|s| s.record.railway.as_ref())
                .collect();
            let origin = trips
                .first()
                .map(|t| t.from_station.clone())
                .unwrap_or_default();
            let destination = trips
                .last()
                .map(|t| t.to_station.clone())
                .unwrap_or_default();
            let mut travel_dates: Vec<String> = trips
                .iter()
                .map(|t| t.travel_date.clone())
                .filter(|d| !d.is_empty())
                .collect();
            if !travel_dates.is_empty() {
                dates = std::mem::take(&mut travel_dates);
            }
            dates.sort();
            extra.insert(
                "purpose".into(),
                format!("差旅报销（{} 张票据）", rows.len()),
            );
            extra.insert(
                "origin".into(),
                if origin.is_empty() {
                    "见附件".into()
                } else {
                    origin
                },
            );
            extra.insert(
                "destination".into(),
                if destination.is_empty() {
                    "见附件".into()
                } else {
                    destination
                },
            );
            extra.insert(
                "depart_date".into(),
                dates.first().cloned().unwrap_or_default(),
            );
            extra.insert(
                "return_date".into(),
                dates.last().cloned().unwrap_or_default(),
            );
        }
    }
    extra
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(cells: &[&[&str]]) -> CsvTable {
        CsvTable {
            file_name: "a.csv".into(),
            fields: vec!["发票号码".into(), "项目名称".into()],
            rows: cells
                .iter()
                .map(|r| r.iter().map(|c| (*c).to_owned()).collect())
                .collect(),
        }
    }

    #[test]
    fn any_edit_changes_the_fingerprint() {
        let a = fingerprint(ClaimKind::General, &table(&[&["1", "笔"]]));
        assert_eq!(a, fingerprint(ClaimKind::General, &table(&[&["1", "笔"]])));
        assert_ne!(a, fingerprint(ClaimKind::General, &table(&[&["1", "纸"]])));
        assert_ne!(a, fingerprint(ClaimKind::Travel, &table(&[&["1", "笔"]])));
        assert_ne!(
            fingerprint(ClaimKind::General, &table(&[&["1", "2"]])),
            fingerprint(ClaimKind::General, &table(&[&["12", ""]]))
        );
    }

    #[test]
    fn expense_types_follow_the_invoice() {
        let mut record = InvoiceRecord {
            doc_type: DocumentType::Railway,
            ..InvoiceRecord::default()
        };
        assert_eq!(expense_type(&record), "train");
        record.doc_type = DocumentType::DigitalNormal;
        record.items = vec![domain::LineItem {
            name: "*住宿服务*住宿费".into(),
            ..domain::LineItem::default()
        }];
        assert_eq!(expense_type(&record), "hotel");
        record.items[0].name = "*运输服务*客运服务费".into();
        assert_eq!(expense_type(&record), "taxi");
    }
}
