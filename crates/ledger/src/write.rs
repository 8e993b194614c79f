//! The changes: reserve, accept, release, void. Each is one transaction, tried again when the
//! database reports a deadlock or a busy lock. An acceptance is written to the audit trail in
//! the same transaction.

use crate::clock::{self, Clock};
use crate::conn::{
    Arg, Conn, Record, begin_write, is_transient, is_unique_violation, placeholders,
};
use crate::error::{LedgerError, database};
use crate::model::{ClaimDraft, ClaimId, ClaimStatus, Holder, InvoiceEntry};
use crate::read;
use sqlx::{Database, Pool};
use std::collections::HashSet;
use std::future::Future;

/// Tries of one change before a transient failure is reported.
const ATTEMPTS: usize = 5;
/// Invoices per `INSERT` (ten binds each, well under both backends' limits).
const INSERT_CHUNK: usize = 500;

const INSERT_CLAIM: &str = "INSERT INTO claims (portal, kind, staff_no, claimant, session_id, \
     total_cents, status, claim_no, submitted_on, reserved_at, owner) \
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', '', $7, $8, $9) RETURNING id";

/// The audit line of an acceptance, by the claim's owner: `$1` the time, `$2` the claim
/// number, `$3` the claim's id.
const AUDIT_ACCEPTED: &str = "INSERT INTO audit (at, username, address, action, session_id, \
     detail) SELECT $1, owner, '', 'claim_accepted', session_id, $2 FROM claims WHERE id = $3";

/// Makes the invoices of claim `$1` inactive (free to be claimed again).
const FREE_INVOICES: &str =
    "UPDATE claim_invoices SET active = FALSE WHERE claim_id = $1 AND active";

pub(crate) async fn reserve<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    draft: &ClaimDraft,
) -> Result<ClaimId, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let invoices = checked_invoices(draft)?;
    let keys: Vec<String> = draft.invoices.iter().map(|i| i.key.clone()).collect();
    let mut last = None;
    for _ in 0..ATTEMPTS {
        match try_reserve(pool, clock, draft, &invoices, &keys).await {
            Ok(Ok(id)) => return Ok(id),
            Ok(Err(holders)) => return Err(LedgerError::AlreadyClaimed(holders)),
            // Another reservation of one of these keys committed between our check and our
            // insert (PostgreSQL): the index refused ours; name the winner.
            Err(e) if is_unique_violation(&e) => {
                let holders = read::holders(pool, &keys).await?;
                if !holders.is_empty() {
                    return Err(LedgerError::AlreadyClaimed(holders));
                }
                last = Some(e);
            }
            Err(e) if is_transient(&e) => last = Some(e),
            Err(e) => return Err(database(e)),
        }
    }
    Err(last.map_or_else(|| LedgerError::Database("重试次数已用完".into()), database))
}

/// Ok(Err(holders)) when keys are held; Err for a database failure (a unique violation
/// included).
async fn try_reserve<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    draft: &ClaimDraft,
    invoices: &[(usize, InvoiceEntry)],
    keys: &[String],
) -> Result<Result<ClaimId, Vec<Holder>>, sqlx::Error>
where
    DB: Database,
    DB::Connection: Conn,
{
    let mut tx = begin_write(pool).await?;
    let holders = read::holders_on(&mut *tx, keys).await?;
    if !holders.is_empty() {
        tx.rollback().await?;
        return Ok(Err(holders));
    }
    let now = clock.now();
    let args: Vec<Arg> = vec![
        draft.portal.trim().into(),
        draft.kind.trim().into(),
        draft.staff_no.trim().into(),
        draft.claimant.trim().into(),
        draft.session_id.as_str().into(),
        draft.total_cents.into(),
        now.china_date.into(),
        now.utc.into(),
        draft.owner.as_str().into(),
    ];
    let rows = tx.fetch(INSERT_CLAIM, args).await?;
    let id = match rows.first() {
        Some(row) => row.int(0)?,
        None => return Err(sqlx::Error::RowNotFound),
    };
    for chunk in invoices.chunks(INSERT_CHUNK) {
        insert_invoices(&mut *tx, id, chunk).await?;
    }
    tx.commit().await?;
    Ok(Ok(ClaimId(id)))
}

async fn insert_invoices<C: Conn>(
    conn: &mut C,
    claim_id: i64,
    invoices: &[(usize, InvoiceEntry)],
) -> Result<(), sqlx::Error> {
    let mut sql = String::from(
        "INSERT INTO claim_invoices (claim_id, seq, invoice_key, invoice_number, invoice_code, \
         invoice_date, amount_cents, seller, sha256, active) VALUES ",
    );
    let mut args = Vec::with_capacity(invoices.len() * 9);
    for (n, (seq, invoice)) in invoices.iter().enumerate() {
        if n > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        sql.push_str(&placeholders(n * 9 + 1, 9));
        sql.push_str(", TRUE)");
        args.extend([
            Arg::Int(claim_id),
            Arg::Int(i64::try_from(*seq).unwrap_or(i64::MAX)),
            invoice.key.as_str().into(),
            invoice.number.trim().into(),
            invoice.code.trim().into(),
            invoice.date.trim().into(),
            invoice.amount_cents.into(),
            invoice.seller.trim().into(),
            invoice.sha256.trim().to_ascii_lowercase().into(),
        ]);
    }
    conn.execute(&sql, args).await?;
    Ok(())
}

/// The draft's invoices with their positions, sorted by key (so that concurrent reservations
/// take the index's locks in one order and cannot deadlock), or why the draft is refused.
fn checked_invoices(draft: &ClaimDraft) -> Result<Vec<(usize, InvoiceEntry)>, LedgerError> {
    let invalid = |m: String| Err(LedgerError::InvalidDraft(m));
    if !matches!(draft.kind.trim(), "general" | "travel") {
        return invalid(format!(
            "报销类型应为 general 或 travel，而不是“{}”",
            draft.kind
        ));
    }
    if draft.invoices.is_empty() {
        return invalid("没有发票".into());
    }
    let mut seen = HashSet::new();
    for (n, invoice) in draft.invoices.iter().enumerate() {
        if invoice.key.trim().is_empty() || invoice.key.trim() != invoice.key {
            return invalid(format!("第 {} 张发票没有有效的发票号码", n + 1));
        }
        if !seen.insert(invoice.key.as_str()) {
            return invalid(format!("发票 {} 出现了两次", invoice.key));
        }
        let date = invoice.date.trim();
        if !date.is_empty() && !clock::is_date(date) {
            return invalid(format!(
                "发票 {} 的开票日期“{}”不是 YYYY-MM-DD",
                invoice.key, invoice.date
            ));
        }
    }
    let mut out: Vec<(usize, InvoiceEntry)> = draft.invoices.iter().cloned().enumerate().collect();
    out.sort_by(|a, b| a.1.key.cmp(&b.1.key));
    Ok(out)
}

pub(crate) async fn accept<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    id: ClaimId,
    claim_no: &str,
) -> Result<(), LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let claim_no = claim_no.trim();
    if claim_no.is_empty() {
        return Err(LedgerError::EmptyClaimNo);
    }
    let outcome = retrying(|| async {
        let now = clock.now();
        let sql = "UPDATE claims SET status = 'accepted', claim_no = $1, accepted_at = $2, \
                   submitted_on = $3 WHERE id = $4 AND status = 'pending'";
        let args = vec![
            claim_no.into(),
            now.utc.as_str().into(),
            now.china_date.into(),
            id.0.into(),
        ];
        let audit = vec![now.utc.into(), claim_no.into(), id.0.into()];
        transition(pool, id, sql, args, vec![(AUDIT_ACCEPTED, audit)]).await
    })
    .await?;
    match outcome {
        Transition::Done => Ok(()),
        Transition::Missing => Err(LedgerError::NotFound),
        Transition::Stays(ClaimStatus::Accepted, number) if number == claim_no => Ok(()),
        Transition::Stays(status, _) => Err(LedgerError::NotPending(status)),
    }
}

pub(crate) async fn release<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    id: ClaimId,
    reason: &str,
) -> Result<(), LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let outcome = retrying(|| async {
        let sql = "UPDATE claims SET status = 'released', released_at = $1, release_reason = $2 \
                   WHERE id = $3 AND status = 'pending'";
        let args = vec![clock.now().utc.into(), reason.trim().into(), id.0.into()];
        let free = vec![(FREE_INVOICES, vec![id.0.into()])];
        transition(pool, id, sql, args, free).await
    })
    .await?;
    match outcome {
        Transition::Done | Transition::Stays(ClaimStatus::Released, _) => Ok(()),
        Transition::Missing => Err(LedgerError::NotFound),
        Transition::Stays(status, _) => Err(LedgerError::NotPending(status)),
    }
}

pub(crate) async fn void<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    id: ClaimId,
    reason: &str,
    by: &str,
) -> Result<(), LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(LedgerError::EmptyReason);
    }
    let outcome = retrying(|| async {
        let sql = "UPDATE claims SET status = 'voided', voided_at = $1, void_reason = $2, \
                   voided_by = $3 WHERE id = $4 AND status = 'accepted'";
        let args = vec![
            clock.now().utc.into(),
            reason.into(),
            by.trim().into(),
            id.0.into(),
        ];
        let free = vec![(FREE_INVOICES, vec![id.0.into()])];
        transition(pool, id, sql, args, free).await
    })
    .await?;
    match outcome {
        Transition::Done => Ok(()),
        Transition::Missing => Err(LedgerError::NotFound),
        Transition::Stays(..) => Err(LedgerError::NotAccepted),
    }
}

/// What a guarded status change found.
enum Transition {
    /// The claim changed.
    Done,
    /// There is no such claim.
    Missing,
    /// The claim was not in the state the change starts from: its status and number.
    Stays(ClaimStatus, String),
}

/// Runs `update` (a status change of claim `id`, guarded by its current status) and, when it
/// changed the claim, the statements of `then` (freeing its invoices, an audit line) in the
/// same transaction.
async fn transition<DB>(
    pool: &Pool<DB>,
    id: ClaimId,
    update: &str,
    args: Vec<Arg>,
    then: Vec<(&str, Vec<Arg>)>,
) -> Result<Transition, sqlx::Error>
where
    DB: Database,
    DB::Connection: Conn,
{
    let mut tx = begin_write(pool).await?;
    if tx.execute(update, args).await? == 1 {
        for (sql, args) in then {
            tx.execute(sql, args).await?;
        }
        tx.commit().await?;
        return Ok(Transition::Done);
    }
    let rows = tx
        .fetch(
            "SELECT status, claim_no FROM claims WHERE id = $1",
            vec![id.0.into()],
        )
        .await?;
    tx.rollback().await?;
    Ok(match rows.first() {
        Some(row) => Transition::Stays(read::status(&row.text(0)?)?, row.text(1)?),
        None => Transition::Missing,
    })
}

/// `attempt` until it succeeds or fails for good (a transient failure tried `ATTEMPTS` times).
pub(crate) async fn retrying<T, F, Fut>(mut attempt: F) -> Result<T, LedgerError>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, sqlx::Error>>,
{
    let mut tries = 0;
    loop {
        match attempt().await {
            Ok(value) => return Ok(value),
            Err(e) if is_transient(&e) && tries + 1 < ATTEMPTS => tries += 1,
            Err(e) => return Err(database(e)),
        }
    }
}
