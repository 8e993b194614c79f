//! The lookups a submission makes before it goes: who holds these keys, these files, or an
//! invoice that looks the same; and the claims left pending by a crash.

use crate::conn::{Arg, Conn, Record, placeholders};
use crate::error::{LedgerError, database};
use crate::model::{ClaimId, ClaimStatus, Holder, InvoiceEntry, PendingClaim};
use sqlx::{Database, Pool};
use std::collections::HashMap;

/// Values per `IN (…)` list.
const IN_CHUNK: usize = 500;
/// Probes per near-duplicate query (five binds each).
const PROBE_CHUNK: usize = 100;

/// The holder's columns, in [`holder`]'s order, over `claim_invoices i JOIN claims c`.
const HOLDER_COLUMNS: &str = "i.invoice_key, c.id, c.claim_no, c.status, c.submitted_on, \
     c.claimant, c.staff_no, c.session_id, i.sha256";

pub(crate) fn status(word: &str) -> Result<ClaimStatus, sqlx::Error> {
    ClaimStatus::parse(word)
        .ok_or_else(|| sqlx::Error::Decode(format!("unknown claim status `{word}`").into()))
}

/// The holder in the columns `first..first + 9` of `row` (see [`HOLDER_COLUMNS`]).
fn holder<R: Record>(row: &R, first: usize) -> Result<Holder, sqlx::Error> {
    Ok(Holder {
        invoice_key: row.text(first)?,
        claim_id: ClaimId(row.int(first + 1)?),
        claim_no: row.text(first + 2)?,
        status: status(&row.text(first + 3)?)?,
        date: row.text(first + 4)?,
        claimant: row.text(first + 5)?,
        staff_no: row.text(first + 6)?,
        session_id: row.text(first + 7)?,
        sha256: row.text(first + 8)?,
    })
}

/// Distinct non-empty values, in their first order.
fn distinct(values: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = HashMap::new();
    for v in values {
        if !v.is_empty() {
            let next = seen.len();
            seen.entry(v).or_insert(next);
        }
    }
    let mut out: Vec<(String, usize)> = seen.into_iter().collect();
    out.sort_by_key(|(_, n)| *n);
    out.into_iter().map(|(v, _)| v).collect()
}

/// Active holders whose `column` is one of `values`, ordered by the values' order.
async fn holders_where<C: Conn>(
    conn: &mut C,
    column: &str,
    values: &[String],
) -> Result<Vec<Holder>, sqlx::Error> {
    let order: HashMap<&str, usize> = values
        .iter()
        .enumerate()
        .map(|(n, v)| (v.as_str(), n))
        .collect();
    let mut out: Vec<(usize, Holder)> = Vec::new();
    for chunk in values.chunks(IN_CHUNK) {
        let sql = format!(
            "SELECT i.{column}, {HOLDER_COLUMNS} FROM claim_invoices i \
             JOIN claims c ON c.id = i.claim_id \
             WHERE i.active AND i.{column} IN ({})",
            placeholders(1, chunk.len())
        );
        let args = chunk.iter().map(|v| Arg::Text(v.clone())).collect();
        for row in conn.fetch(&sql, args).await? {
            let rank = order
                .get(row.text(0)?.as_str())
                .copied()
                .unwrap_or(usize::MAX);
            out.push((rank, holder(&row, 1)?));
        }
    }
    out.sort_by_key(|(rank, h)| (*rank, h.claim_id));
    Ok(out.into_iter().map(|(_, h)| h).collect())
}

/// The active holders of `keys` on a connection already open (inside a reservation).
pub(crate) async fn holders_on<C: Conn>(
    conn: &mut C,
    keys: &[String],
) -> Result<Vec<Holder>, sqlx::Error> {
    let keys = distinct(keys.iter().cloned());
    holders_where(conn, "invoice_key", &keys).await
}

pub(crate) async fn holders<DB>(
    pool: &Pool<DB>,
    keys: &[String],
) -> Result<Vec<Holder>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    let mut conn = pool.acquire().await.map_err(database)?;
    holders_on(&mut *conn, keys).await.map_err(database)
}

pub(crate) async fn holders_by_sha256<DB>(
    pool: &Pool<DB>,
    hashes: &[String],
) -> Result<Vec<Holder>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let hashes = distinct(hashes.iter().map(|h| h.trim().to_ascii_lowercase()));
    if hashes.is_empty() {
        return Ok(Vec::new());
    }
    let mut conn = pool.acquire().await.map_err(database)?;
    holders_where(&mut *conn, "sha256", &hashes)
        .await
        .map_err(database)
}

pub(crate) async fn near_duplicates<DB>(
    pool: &Pool<DB>,
    probes: &[InvoiceEntry],
) -> Result<Vec<(usize, Holder)>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let probes: Vec<(usize, &InvoiceEntry)> = probes
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.seller.trim().is_empty() && !p.date.trim().is_empty())
        .collect();
    if probes.is_empty() {
        return Ok(Vec::new());
    }
    let mut conn = pool.acquire().await.map_err(database)?;
    let mut out = Vec::new();
    for chunk in probes.chunks(PROBE_CHUNK) {
        out.extend(near_chunk(&mut *conn, chunk).await.map_err(database)?);
    }
    out.sort_by_key(|(n, h)| (*n, h.claim_id));
    Ok(out)
}

async fn near_chunk<C: Conn>(
    conn: &mut C,
    probes: &[(usize, &InvoiceEntry)],
) -> Result<Vec<(usize, Holder)>, sqlx::Error> {
    let mut values = Vec::with_capacity(probes.len());
    let mut args = Vec::with_capacity(probes.len() * 5);
    for (n, (index, probe)) in probes.iter().enumerate() {
        values.push(format!("({})", placeholders(n * 5 + 1, 5)));
        args.extend([
            Arg::Int(i64::try_from(*index).unwrap_or(i64::MAX)),
            probe.seller.trim().into(),
            probe.amount_cents.into(),
            probe.date.trim().into(),
            probe.key.trim().into(),
        ]);
    }
    let sql = format!(
        "WITH p (idx, seller, amount_cents, invoice_date, invoice_key) AS (VALUES {}) \
         SELECT p.idx, {HOLDER_COLUMNS} FROM p \
         JOIN claim_invoices i ON i.seller = p.seller AND i.amount_cents = p.amount_cents \
           AND i.invoice_date = p.invoice_date AND i.active AND i.invoice_key <> p.invoice_key \
         JOIN claims c ON c.id = i.claim_id",
        values.join(", ")
    );
    let mut out = Vec::new();
    for row in conn.fetch(&sql, args).await? {
        let index = usize::try_from(row.int(0)?).unwrap_or(usize::MAX);
        out.push((index, holder(&row, 1)?));
    }
    Ok(out)
}

pub(crate) async fn pending<DB>(pool: &Pool<DB>) -> Result<Vec<PendingClaim>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let mut conn = pool.acquire().await.map_err(database)?;
    let rows = conn
        .fetch(
            "SELECT id, session_id, reserved_at FROM claims WHERE status = 'pending' ORDER BY id",
            Vec::new(),
        )
        .await
        .map_err(database)?;
    rows.iter()
        .map(|row| {
            Ok(PendingClaim {
                id: ClaimId(row.int(0)?),
                session_id: row.text(1)?,
                reserved_at: row.text(2)?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(database)
}
