//! The audit trail: who did what, from where and when; appended by the callers (and by an
//! acceptance), listed newest first and exported.

use crate::clock::{self, Clock};
use crate::conn::{Conn, Record};
use crate::error::{LedgerError, database};
use crate::export::{self, Cell};
use crate::model::{AuditEntry, AuditFilter, AuditRecord};
use crate::query::{Selection, given};
use crate::write::retrying;
use sqlx::{Database, Pool};

/// The export's columns, in [`cells`]'s order.
const HEADERS: [&str; 6] = ["时间", "用户", "地址", "操作", "会话", "详情"];

pub(crate) async fn record<DB>(
    pool: &Pool<DB>,
    clock: &Clock,
    entry: &AuditEntry,
) -> Result<(), LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    if entry.action.trim().is_empty() {
        return Err(LedgerError::Invalid("审计记录缺少操作".into()));
    }
    retrying(|| async {
        let args = vec![
            clock.now().utc.into(),
            entry.username.as_str().into(),
            entry.address.as_str().into(),
            entry.action.trim().into(),
            entry.session_id.as_str().into(),
            entry.detail.as_str().into(),
        ];
        let mut conn = pool.acquire().await?;
        conn.execute(
            "INSERT INTO audit (at, username, address, action, session_id, detail) \
             VALUES ($1, $2, $3, $4, $5, $6)",
            args,
        )
        .await
    })
    .await
    .map(drop)
}

/// The filter as a `WHERE` clause over `audit a`. The days are China's, so a bound is the UTC
/// instant its day begins there: the stored text compares as time does.
fn selection(filter: &AuditFilter) -> Result<Selection, LedgerError> {
    let mut s = Selection::paged(filter.limit, filter.offset);
    for (value, column) in [
        (&filter.username, "a.username"),
        (&filter.action, "a.action"),
        (&filter.session_id, "a.session_id"),
    ] {
        if let Some(value) = given(value) {
            s.push(&format!("{column} = $"), value.into());
        }
    }
    if let Some((start, _)) = china_day(&filter.from, "开始")? {
        s.push("a.at >= $", start.into());
    }
    if let Some((_, end)) = china_day(&filter.to, "结束")? {
        s.push("a.at < $", end.into());
    }
    Ok(s)
}

/// The UTC bounds of the China day `bound` names, if given; `name` says which bound is wrong.
fn china_day(bound: &Option<String>, name: &str) -> Result<Option<(String, String)>, LedgerError> {
    let Some(date) = given(bound) else {
        return Ok(None);
    };
    clock::china_day(date)
        .map(Some)
        .ok_or_else(|| LedgerError::InvalidFilter(format!("{name}日期“{date}”不是 YYYY-MM-DD")))
}

pub(crate) async fn log<DB>(
    pool: &Pool<DB>,
    filter: &AuditFilter,
) -> Result<Vec<AuditRecord>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let mut selection = selection(filter)?;
    let page = selection.page();
    let sql = format!(
        "SELECT a.id, a.at, a.username, a.address, a.action, a.session_id, a.detail \
         FROM audit a WHERE {} ORDER BY a.at DESC, a.id DESC {page}",
        selection.condition
    );
    let mut conn = pool.acquire().await.map_err(database)?;
    let rows = conn.fetch(&sql, selection.args).await.map_err(database)?;
    rows.iter()
        .map(|row| {
            Ok(AuditRecord {
                id: row.int(0)?,
                at: row.text(1)?,
                username: row.text(2)?,
                address: row.text(3)?,
                action: row.text(4)?,
                session_id: row.text(5)?,
                detail: row.text(6)?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(database)
}

/// One line of the export: the time as people read it in China.
fn cells(record: &AuditRecord) -> Vec<Cell> {
    let at = clock::china_time(&record.at).unwrap_or_else(|| record.at.clone());
    [
        at,
        record.username.clone(),
        record.address.clone(),
        record.action.clone(),
        record.session_id.clone(),
        record.detail.clone(),
    ]
    .into_iter()
    .map(Cell::Text)
    .collect()
}

/// `records` as CSV in UTF-8 with a BOM, like the claims' export.
pub(crate) fn csv(records: &[AuditRecord]) -> Result<Vec<u8>, LedgerError> {
    let rows: Vec<Vec<Cell>> = records.iter().map(cells).collect();
    export::csv_table(&HEADERS, &rows)
}
