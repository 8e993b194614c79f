//! The claims ledger in a session's work: what the ledger knows of the table's invoices (notes
//! for the agent's rules, marks for the page), the reservation that brackets a submission, and
//! the claims a crash left pending, settled from the sessions' results at start.

use crate::document::{StoredRecord, load_records};
use crate::submit::keyed_rows;
use agent::{LedgerFinding, LedgerNote};
use domain::{format_civil_date, parse_cents, parse_civil_date};
use ledger::{ClaimDraft, ClaimStatus, Holder, InvoiceEntry, Ledger};
use serde::Serialize;
use session_store::{CsvTable, Session, Store};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};

/// The ledger entry of one table row: its key from the record (code + number) when the
/// extraction has one, the cells as the table holds them (what is submitted), and the file's
/// SHA-256.
pub(crate) fn entry(
    session: &Session,
    row: &BTreeMap<String, String>,
    stored: Option<&StoredRecord>,
) -> InvoiceEntry {
    let cell = |k: &str| row.get(k).map_or("", |v| v.trim());
    let code = stored.map_or("", |s| s.record.invoice_code.as_str());
    let number = cell("发票号码");
    InvoiceEntry {
        key: ledger::invoice_key(code, number),
        number: number.to_owned(),
        code: code.to_owned(),
        date: parse_civil_date(cell("开票日期"))
            .map(|d| format_civil_date(d).replace('/', "-"))
            .unwrap_or_default(),
        amount_cents: parse_cents(cell("价税合计")).unwrap_or(0),
        seller: cell("销售方名称").to_owned(),
        sha256: stored
            .and_then(|s| s.file.as_deref())
            .and_then(|file| file_sha256(session, file))
            .unwrap_or_default(),
    }
}

fn file_sha256(session: &Session, file: &str) -> Option<String> {
    let bytes = std::fs::read(session.path().join(file)).ok()?;
    Some(
        Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    )
}

/// The sentence a clerk reads about a claim holding an invoice.
pub fn holder_sentence(holder: &Holder) -> String {
    match holder.status {
        ClaimStatus::Pending => format!(
            "该发票正在另一张报销单中提交（{}，{}）",
            holder.claimant, holder.date
        ),
        _ => format!(
            "该发票已于 {} 在报销单 {} 中报销（{}）",
            holder.date, holder.claim_no, holder.claimant
        ),
    }
}

/// What the ledger knows of each entry (index-aligned): claimed (by key), the same file in a
/// claim of another key, a near duplicate. A ledger that cannot be asked is said in the log
/// and gives no notes (the reservation at submit time still guards).
pub(crate) fn notes(
    session: &Session,
    ledger: &Ledger,
    entries: &[InvoiceEntry],
) -> Vec<Vec<LedgerNote>> {
    let mut notes = vec![Vec::new(); entries.len()];
    match lookups(ledger, entries) {
        Ok(found) => {
            for (index, finding, detail) in found {
                if let Some(list) = notes.get_mut(index)
                    && !list.iter().any(|n: &LedgerNote| n.finding == finding)
                {
                    list.push(LedgerNote { finding, detail });
                }
            }
        }
        Err(error) => {
            let _ = session.log("WARN", "ledger", &format!("无法查询报销台账：{error}"));
        }
    }
    notes
}

fn lookups(
    ledger: &Ledger,
    entries: &[InvoiceEntry],
) -> Result<Vec<(usize, LedgerFinding, String)>, ledger::LedgerError> {
    let mut found = Vec::new();
    let keys: Vec<String> = entries
        .iter()
        .map(|e| e.key.clone())
        .filter(|k| !k.is_empty())
        .collect();
    for holder in ledger.holders(&keys)? {
        for (index, _) in entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.key == holder.invoice_key)
        {
            found.push((index, LedgerFinding::Claimed, holder_sentence(&holder)));
        }
    }
    let hashes: Vec<String> = entries
        .iter()
        .map(|e| e.sha256.clone())
        .filter(|h| !h.is_empty())
        .collect();
    let by_hash = ledger.holders_by_sha256(&hashes)?;
    for (index, entry) in entries.iter().enumerate() {
        // The same key is already "claimed"; the same file under another number is news.
        let other = by_hash.iter().find(|h| {
            !entry.sha256.is_empty() && h.sha256 == entry.sha256 && h.invoice_key != entry.key
        });
        if let Some(holder) = other {
            found.push((
                index,
                LedgerFinding::SameFile,
                format!("发票 {}：{}", holder.invoice_key, holder_sentence(holder)),
            ));
        }
    }
    for (index, holder) in ledger.near_duplicates(entries)? {
        found.push((
            index,
            LedgerFinding::NearDuplicate,
            format!("发票 {}，{}", holder.invoice_key, holder_sentence(&holder)),
        ));
    }
    Ok(found)
}

/// A mark the page shows on a table row: 1-based row and the ledger's sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LedgerMark {
    /// The table row, from 1.
    pub row: usize,
    /// What the ledger found.
    pub finding: LedgerFinding,
    /// The ledger's sentence, for the page.
    pub message: String,
}

/// The ledger's marks on `table`, the session's current table as `/api/data` read it.
pub fn ledger_marks(session: &Session, table: &CsvTable, ledger: &Ledger) -> Vec<LedgerMark> {
    let rows = keyed_rows(table);
    let entries = table_entries(session, &rows);
    notes(session, ledger, &entries)
        .into_iter()
        .enumerate()
        .flat_map(|(index, list)| {
            list.into_iter().map(move |note| LedgerMark {
                row: index + 1,
                finding: note.finding,
                message: note.detail,
            })
        })
        .collect()
}

/// The entries of the table's rows, matched to their extraction records by number.
fn table_entries(session: &Session, rows: &[BTreeMap<String, String>]) -> Vec<InvoiceEntry> {
    let stored = load_records(session);
    let by_number: HashMap<&str, &StoredRecord> = stored
        .iter()
        .map(|s| (s.record.invoice_number.as_str(), s))
        .collect();
    rows.iter()
        .map(|row| {
            let number = row.get("发票号码").map_or("", |v| v.trim());
            entry(session, row, by_number.get(number).copied())
        })
        .collect()
}

/// The draft of the claim a submission is about to file.
pub(crate) fn draft(
    session: &Session,
    portal: &str,
    kind: &str,
    config: &domain::SessionConfig,
    invoices: Vec<InvoiceEntry>,
) -> ClaimDraft {
    ClaimDraft {
        portal: portal.to_owned(),
        kind: kind.to_owned(),
        staff_no: config.username.clone(),
        claimant: config.default_name.clone(),
        session_id: session.id().as_str().to_owned(),
        total_cents: invoices.iter().map(|i| i.amount_cents).sum(),
        invoices,
        // The signed-in user the session belongs to: their claims are theirs to see.
        owner: session.owner().unwrap_or_default(),
    }
}

/// Hidden session file naming the reservation whose final submit click has started.
pub(crate) const FINAL_SUBMIT_FILE: &str = ".final-submit.json";

/// Settles the claims a crash left pending: accepted when the session's result says the portal
/// took the claim (with its number); released when the run never reached the portal's final
/// submit; else left pending (提交中): the portal may have filed it, so its invoices stay held
/// until a person checks the portal and settles it (`POST /api/claims/<id>/void`). Returns how
/// many were released or accepted.
pub fn reconcile_ledger(store: &Store, ledger: &Ledger) -> Result<usize, ledger::LedgerError> {
    let mut settled = 0;
    for claim in ledger.pending()? {
        let session = store.session(&claim.session_id).ok();
        let result = session
            .as_ref()
            .and_then(|s| s.read_result().ok().flatten());
        let claim_no = result
            .as_ref()
            .filter(|r| r["submit_ok"] == true)
            .and_then(|r| r["claim_no"].as_str())
            .filter(|n| !n.is_empty());
        let reached_portal = session
            .as_ref()
            .and_then(|s| s.read_json_hidden(FINAL_SUBMIT_FILE))
            .is_some_and(|note| note["claim_id"] == claim.id.0);
        match claim_no {
            Some(number) => ledger.accept(claim.id, number)?,
            None if !reached_portal => ledger.release(claim.id, "服务重启时提交未完成")?,
            None => {
                tracing::warn!(
                    session = %claim.session_id,
                    "a claim was cut off after its final submit: kept as pending until checked"
                );
                continue;
            }
        }
        settled += 1;
    }
    Ok(settled)
}
