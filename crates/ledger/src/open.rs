//! Opening a ledger: the database address, the pool and the migrations.

use crate::LedgerError;
use crate::model::Backend;
use sqlx::Connection as _;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("./migrations/postgres");

/// Connections per ledger: SQLite has one writer anyway, and the callers are a few job
/// threads and request handlers.
const MAX_CONNECTIONS: u32 = 4;
/// How long a writer waits for SQLite's lock, and a caller for a free connection.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(30);

/// The pool of one backend.
#[derive(Debug)]
pub(crate) enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Pool {
    pub(crate) fn backend(&self) -> Backend {
        match self {
            Self::Sqlite(_) => Backend::Sqlite,
            Self::Postgres(_) => Backend::Postgres,
        }
    }

    pub(crate) async fn close(&self) {
        match self {
            Self::Sqlite(p) => p.close().await,
            Self::Postgres(p) => p.close().await,
        }
    }
}

/// What to open, parsed from an address before anything connects.
#[derive(Debug)]
pub(crate) enum Target {
    Sqlite(SqliteConnectOptions),
    Postgres(PgConnectOptions),
}

/// The options of `sqlite:…` or `postgres://…`; a clear error for anything else.
pub(crate) fn parse_url(url: &str) -> Result<Target, LedgerError> {
    let url = url.trim();
    let shown = mask_url(url);
    let lower = url.to_ascii_lowercase();
    if lower.starts_with("sqlite:") {
        if lower.contains(":memory:") || lower.contains("mode=memory") {
            return Err(LedgerError::BadUrl(format!(
                "“{shown}”：报销台账要长期保存，不能放在内存数据库中，请给出数据库文件的路径"
            )));
        }
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| LedgerError::BadUrl(format!("{shown}（{e}）")))?;
        Ok(Target::Sqlite(options.create_if_missing(true)))
    } else if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| LedgerError::BadUrl(format!("{shown}（{e}）")))?;
        Ok(Target::Postgres(options))
    } else {
        Err(LedgerError::BadUrl(format!(
            "“{shown}”：只支持 sqlite:///绝对路径.db、sqlite://相对路径.db 与 postgres://用户@主机/数据库"
        )))
    }
}

/// A SQLite file, created when missing (with its folder).
pub(crate) fn sqlite_target(path: &Path) -> Result<Target, LedgerError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| LedgerError::Connect {
            location: path.display().to_string(),
            message: e.to_string(),
        })?;
    }
    Ok(Target::Sqlite(
        SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true),
    ))
}

/// Connects once, directly (so that a wrong address fails at once with the driver's reason
/// instead of after the pool's retries), brings the schema up to date on that connection, and
/// returns a pool that connects as it is used.
pub(crate) async fn connect(target: Target, location: &str) -> Result<Pool, LedgerError> {
    let connect_error = |e: sqlx::Error| LedgerError::Connect {
        location: location.to_owned(),
        message: e.to_string(),
    };
    let migration_error = |e: sqlx::migrate::MigrateError| LedgerError::Migration(e.to_string());
    match target {
        Target::Sqlite(options) => {
            let options = options
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
                .busy_timeout(BUSY_TIMEOUT)
                .foreign_keys(true);
            let mut conn = SqliteConnection::connect_with(&options)
                .await
                .map_err(connect_error)?;
            SQLITE_MIGRATIONS
                .run(&mut conn)
                .await
                .map_err(migration_error)?;
            conn.close().await.map_err(connect_error)?;
            Ok(Pool::Sqlite(
                SqlitePoolOptions::new()
                    .max_connections(MAX_CONNECTIONS)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .connect_lazy_with(options),
            ))
        }
        Target::Postgres(options) => {
            let mut conn = PgConnection::connect_with(&options)
                .await
                .map_err(connect_error)?;
            POSTGRES_MIGRATIONS
                .run(&mut conn)
                .await
                .map_err(migration_error)?;
            conn.close().await.map_err(connect_error)?;
            Ok(Pool::Postgres(
                PgPoolOptions::new()
                    .max_connections(MAX_CONNECTIONS)
                    .acquire_timeout(ACQUIRE_TIMEOUT)
                    .connect_lazy_with(options),
            ))
        }
    }
}

/// The address with its password (in the user part or a `password=` parameter) replaced by
/// `***`, fit for messages and logs.
pub(crate) fn mask_url(url: &str) -> String {
    let (head, query) = match url.split_once('?') {
        Some((h, q)) => (h, Some(q)),
        None => (url, None),
    };
    let mut out = match head.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            let authority = match authority.rsplit_once('@') {
                Some((user, host)) => match user.split_once(':') {
                    Some((name, _)) => format!("{name}:***@{host}"),
                    None => format!("{user}@{host}"),
                },
                None => authority.to_owned(),
            };
            format!("{scheme}://{authority}{path}")
        }
        None => head.to_owned(),
    };
    if let Some(query) = query {
        let params: Vec<String> = query
            .split('&')
            .map(|p| match p.split_once('=') {
                Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                _ => p.to_owned(),
            })
            .collect();
        out.push('?');
        out.push_str(&params.join("&"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_reach_a_message() {
        assert_eq!(
            mask_url("postgres://app:s3cret@db.example:5432/ledger?sslmode=disable"),
            "postgres://app:***@db.example:5432/ledger?sslmode=disable"
        );
        assert_eq!(
            mask_url("postgres://db/ledger?user=app&password=s3cret"),
            "postgres://db/ledger?user=app&password=***"
        );
        assert_eq!(
            mask_url("sqlite:///var/lib/r/ledger.db"),
            "sqlite:///var/lib/r/ledger.db"
        );
    }

    #[test]
    fn only_sqlite_and_postgres_addresses() {
        assert!(matches!(
            parse_url("sqlite://ledger.db"),
            Ok(Target::Sqlite(_))
        ));
        assert!(matches!(
            parse_url("postgresql://u@localhost/db"),
            Ok(Target::Postgres(_))
        ));
        let Err(err) = parse_url("mysql://root:pw@localhost/db") else {
            panic!("mysql accepted");
        };
        let text = err.to_string();
        assert!(text.contains("mysql://root:***@localhost/db"), "{text}");
        assert!(text.contains("只支持"), "{text}");
        assert!(!text.contains("pw"), "{text}");
    }
}
