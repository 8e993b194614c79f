//! One small seam over the two drivers: statements with binds, rows read by column index.
//! Everything above it is written once, generic over the connection; the SQL is the same on
//! both backends (`$n` placeholders, `TRUE`/`FALSE`, `RETURNING`), only the migrations differ.

use sqlx::postgres::{PgConnection, PgRow};
use sqlx::sqlite::{SqliteConnection, SqliteRow};
use sqlx::{Database, Pool, Row as _, Transaction};

/// A bound value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Arg {
    Int(i64),
    Text(String),
    /// An `INTEGER` 0/1 in SQLite, a `BOOLEAN` in PostgreSQL (the driver encodes it so).
    Bool(bool),
}

impl From<i64> for Arg {
    fn from(v: i64) -> Self {
        Self::Int(v)
    }
}

impl From<bool> for Arg {
    fn from(v: bool) -> Self {
        Self::Bool(v)
    }
}

impl From<&str> for Arg {
    fn from(v: &str) -> Self {
        Self::Text(v.to_owned())
    }
}

impl From<String> for Arg {
    fn from(v: String) -> Self {
        Self::Text(v)
    }
}

/// A row of a result, read by column index.
pub(crate) trait Record {
    fn int(&self, i: usize) -> Result<i64, sqlx::Error>;
    fn text(&self, i: usize) -> Result<String, sqlx::Error>;
    fn opt_text(&self, i: usize) -> Result<Option<String>, sqlx::Error>;
    /// A flag column: `INTEGER` 0/1 in SQLite, `BOOLEAN` in PostgreSQL.
    fn flag(&self, i: usize) -> Result<bool, sqlx::Error>;
}

/// A connection of one backend.
pub(crate) trait Conn {
    type Row: Record;
    /// The statement that opens a writing transaction: SQLite takes the write lock at once
    /// (`BEGIN IMMEDIATE`, waiting up to the busy timeout) so that no read-then-write
    /// transaction fails on a lock upgrade.
    const BEGIN_WRITE: &'static str;

    async fn execute(&mut self, sql: &str, args: Vec<Arg>) -> Result<u64, sqlx::Error>;
    async fn fetch(&mut self, sql: &str, args: Vec<Arg>) -> Result<Vec<Self::Row>, sqlx::Error>;
}

macro_rules! driver {
    ($conn:ty, $row:ty, $begin:literal) => {
        impl Record for $row {
            fn int(&self, i: usize) -> Result<i64, sqlx::Error> {
                self.try_get(i)
            }
            fn text(&self, i: usize) -> Result<String, sqlx::Error> {
                self.try_get(i)
            }
            fn opt_text(&self, i: usize) -> Result<Option<String>, sqlx::Error> {
                self.try_get(i)
            }
            fn flag(&self, i: usize) -> Result<bool, sqlx::Error> {
                self.try_get(i)
            }
        }

        impl Conn for $conn {
            type Row = $row;
            const BEGIN_WRITE: &'static str = $begin;

            async fn execute(&mut self, sql: &str, args: Vec<Arg>) -> Result<u64, sqlx::Error> {
                let mut query = sqlx::query(sql);
                for arg in args {
                    query = match arg {
                        Arg::Int(v) => query.bind(v),
                        Arg::Text(v) => query.bind(v),
                        Arg::Bool(v) => query.bind(v),
                    };
                }
                Ok(query.execute(&mut *self).await?.rows_affected())
            }

            async fn fetch(&mut self, sql: &str, args: Vec<Arg>) -> Result<Vec<$row>, sqlx::Error> {
                let mut query = sqlx::query(sql);
                for arg in args {
                    query = match arg {
                        Arg::Int(v) => query.bind(v),
                        Arg::Text(v) => query.bind(v),
                        Arg::Bool(v) => query.bind(v),
                    };
                }
                query.fetch_all(&mut *self).await
            }
        }
    };
}

driver!(SqliteConnection, SqliteRow, "BEGIN IMMEDIATE");
driver!(PgConnection, PgRow, "BEGIN");

/// A writing transaction on `pool` (see [`Conn::BEGIN_WRITE`]).
pub(crate) async fn begin_write<DB>(
    pool: &Pool<DB>,
) -> Result<Transaction<'static, DB>, sqlx::Error>
where
    DB: Database,
    DB::Connection: Conn,
{
    pool.begin_with(<DB::Connection as Conn>::BEGIN_WRITE).await
}

/// `$first, $first+1, …` for `count` placeholders.
pub(crate) fn placeholders(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|n| format!("${n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether a failed statement may succeed when the transaction is tried again: a deadlock or
/// serialization failure (PostgreSQL), a busy or locked database (SQLite).
pub(crate) fn is_transient(e: &sqlx::Error) -> bool {
    let Some(db) = e.as_database_error() else {
        return false;
    };
    matches!(
        db.code().as_deref(),
        Some("40P01" | "40001" | "5" | "6" | "261" | "262" | "517" | "773")
    )
}

/// Whether a statement broke a unique index (the active invoice key's, in practice).
pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|db| db.is_unique_violation())
}
