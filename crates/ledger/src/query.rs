//! Listing claims: the filter as SQL, summaries and one claim in detail.

use crate::clock;
use crate::conn::{Arg, Conn, Record};
use crate::error::{LedgerError, database};
use crate::model::{
    ClaimDetail, ClaimFilter, ClaimId, ClaimSummary, InvoiceEntry, ReleaseInfo, VoidInfo,
};
use crate::read;
use sqlx::{Database, Pool};

/// The summary's columns over `claims c`, in [`summary`]'s order.
const SUMMARY_COLUMNS: &str = "c.id, c.portal, c.kind, c.staff_no, c.claimant, c.session_id, \
     c.total_cents, (SELECT COUNT(*) FROM claim_invoices n WHERE n.claim_id = c.id), c.status, \
     c.claim_no, c.submitted_on, c.reserved_at, c.accepted_at, c.owner";
const SUMMARY_WIDTH: usize = 14;

/// Newest first: the submitted date, then the order of reservation.
pub(crate) const NEWEST_FIRST: &str = "c.submitted_on DESC, c.id DESC";

/// A filter as a `WHERE` clause (over `claims c` for a claim filter) with its binds, then
/// `LIMIT`/`OFFSET` binds.
#[derive(Debug)]
pub(crate) struct Selection {
    pub(crate) condition: String,
    pub(crate) args: Vec<Arg>,
    pub(crate) limit: i64,
    pub(crate) offset: i64,
}

impl Selection {
    /// Everything, paged by `limit` (all when None) and `offset`; conditions are pushed on it.
    pub(crate) fn paged(limit: Option<u32>, offset: u32) -> Self {
        Selection {
            condition: String::from("TRUE"),
            args: Vec::new(),
            limit: limit.map_or(i64::MAX, i64::from),
            offset: i64::from(offset),
        }
    }

    pub(crate) fn new(filter: &ClaimFilter) -> Result<Self, LedgerError> {
        let mut s = Selection::paged(filter.limit, filter.offset);
        if let Some(staff_no) = given(&filter.staff_no) {
            s.push("c.staff_no = $", staff_no.into());
        }
        if let Some(kind) = given(&filter.kind) {
            s.push("c.kind = $", kind.into());
        }
        for (bound, op, name) in [(&filter.from, ">=", "开始"), (&filter.to, "<=", "结束")] {
            if let Some(date) = given(bound) {
                if !clock::is_date(date) {
                    return Err(LedgerError::InvalidFilter(format!(
                        "{name}日期“{date}”不是 YYYY-MM-DD"
                    )));
                }
                s.push(&format!("c.submitted_on {op} $"), date.into());
            }
        }
        if let Some(status) = filter.status {
            s.push("c.status = $", status.as_str().into());
        }
        // Exact, not `given`: an empty owner must not list everyone's claims.
        if let Some(owner) = &filter.owner {
            s.push("c.owner = $", owner.as_str().into());
        }
        if let Some(text) = given(&filter.text) {
            let n = s.bind(like_pattern(text).into());
            s.condition.push_str(&format!(
                " AND (LOWER(c.claim_no) LIKE ${n} ESCAPE '\\' \
                 OR LOWER(c.claimant) LIKE ${n} ESCAPE '\\' \
                 OR EXISTS (SELECT 1 FROM claim_invoices t WHERE t.claim_id = c.id \
                 AND (LOWER(t.seller) LIKE ${n} ESCAPE '\\' \
                 OR LOWER(t.invoice_number) LIKE ${n} ESCAPE '\\')))"
            ));
        }
        Ok(s)
    }

    /// Binds `arg`; its placeholder number.
    fn bind(&mut self, arg: Arg) -> usize {
        self.args.push(arg);
        self.args.len()
    }

    /// ` AND {left}{n}` with `arg` bound as `$n`.
    pub(crate) fn push(&mut self, left: &str, arg: Arg) {
        let n = self.bind(arg);
        self.condition.push_str(&format!(" AND {left}{n}"));
    }

    /// `LIMIT $a OFFSET $b`, binding both.
    pub(crate) fn page(&mut self) -> String {
        let limit = self.bind(self.limit.into());
        let offset = self.bind(self.offset.into());
        format!("LIMIT ${limit} OFFSET ${offset}")
    }
}

/// A filter value that was given: trimmed, not empty.
pub(crate) fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// `%text%` in lowercase with LIKE's wildcards (and the escape) escaped by `\`.
fn like_pattern(text: &str) -> String {
    let mut out = String::from("%");
    for c in text.to_lowercase().chars() {
        if matches!(c, '\\' | '%' | '_') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

fn summary<R: Record>(row: &R) -> Result<ClaimSummary, sqlx::Error> {
    Ok(ClaimSummary {
        id: ClaimId(row.int(0)?),
        portal: row.text(1)?,
        kind: row.text(2)?,
        staff_no: row.text(3)?,
        claimant: row.text(4)?,
        session_id: row.text(5)?,
        total_cents: row.int(6)?,
        invoice_count: row.int(7)?,
        status: read::status(&row.text(8)?)?,
        claim_no: row.text(9)?,
        submitted_on: row.text(10)?,
        reserved_at: row.text(11)?,
        accepted_at: row.opt_text(12)?,
        owner: row.text(13)?,
    })
}

pub(crate) async fn claims<DB>(
    pool: &Pool<DB>,
    filter: &ClaimFilter,
) -> Result<Vec<ClaimSummary>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let mut selection = Selection::new(filter)?;
    let page = selection.page();
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS} FROM claims c WHERE {} ORDER BY {NEWEST_FIRST} {page}",
        selection.condition
    );
    let mut conn = pool.acquire().await.map_err(database)?;
    let rows = conn.fetch(&sql, selection.args).await.map_err(database)?;
    rows.iter()
        .map(summary)
        .collect::<Result<_, _>>()
        .map_err(database)
}

pub(crate) async fn claim<DB>(
    pool: &Pool<DB>,
    id: ClaimId,
) -> Result<Option<ClaimDetail>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let mut conn = pool.acquire().await.map_err(database)?;
    detail(&mut *conn, id).await.map_err(database)
}

async fn detail<C: Conn>(conn: &mut C, id: ClaimId) -> Result<Option<ClaimDetail>, sqlx::Error> {
    let sql = format!(
        "SELECT {SUMMARY_COLUMNS}, c.released_at, c.release_reason, c.voided_at, c.void_reason, \
         c.voided_by FROM claims c WHERE c.id = $1"
    );
    let rows = conn.fetch(&sql, vec![id.0.into()]).await?;
    let Some(row) = rows.first() else {
        return Ok(None);
    };
    let w = SUMMARY_WIDTH;
    let released = match row.opt_text(w)? {
        Some(at) => Some(ReleaseInfo {
            at,
            reason: row.opt_text(w + 1)?.unwrap_or_default(),
        }),
        None => None,
    };
    let voided = match row.opt_text(w + 2)? {
        Some(at) => Some(VoidInfo {
            at,
            reason: row.opt_text(w + 3)?.unwrap_or_default(),
            by: row.opt_text(w + 4)?.unwrap_or_default(),
        }),
        None => None,
    };
    let invoices = conn
        .fetch(
            "SELECT invoice_key, invoice_number, invoice_code, invoice_date, amount_cents, seller, \
             sha256 FROM claim_invoices WHERE claim_id = $1 ORDER BY seq",
            vec![id.0.into()],
        )
        .await?
        .iter()
        .map(|r| {
            Ok(InvoiceEntry {
                key: r.text(0)?,
                number: r.text(1)?,
                code: r.text(2)?,
                date: r.text(3)?,
                amount_cents: r.int(4)?,
                seller: r.text(5)?,
                sha256: r.text(6)?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
    Ok(Some(ClaimDetail {
        summary: summary(row)?,
        invoices,
        released,
        voided,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_are_searched_for_literally() {
        assert_eq!(like_pattern("BX_1%"), "%bx\\_1\\%%");
        assert_eq!(like_pattern("a\\b"), "%a\\\\b%");
    }

    #[test]
    fn a_filter_binds_every_value() {
        let filter = ClaimFilter {
            staff_no: Some("1001".into()),
            from: Some("2026-01-01".into()),
            text: Some("办公".into()),
            limit: Some(20),
            ..ClaimFilter::default()
        };
        let mut s = Selection::new(&filter).unwrap();
        assert_eq!(s.page(), "LIMIT $4 OFFSET $5");
        assert!(
            s.condition
                .starts_with("TRUE AND c.staff_no = $1 AND c.submitted_on >= $2")
        );
        assert_eq!(s.args.len(), 5);
        let bad = ClaimFilter {
            to: Some("2026/01/01".into()),
            ..ClaimFilter::default()
        };
        assert!(matches!(
            Selection::new(&bad),
            Err(LedgerError::InvalidFilter(_))
        ));
    }
}
