//! The backends every ledger test runs on: SQLite in a temporary folder, always; PostgreSQL
//! in a schema of its own (so tests run in parallel) when `REIMBURSE_TEST_POSTGRES_URL` is
//! set. With `REIMBURSE_REQUIRE_POSTGRES=1` a missing URL fails the PostgreSQL tests.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

use reimburse_ledger::Ledger;
use sqlx::Connection as _;

pub const POSTGRES_URL: &str = "REIMBURSE_TEST_POSTGRES_URL";
pub const REQUIRE_POSTGRES: &str = "REIMBURSE_REQUIRE_POSTGRES";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

/// One fresh, empty ledger database, removed at the end of the test.
pub struct TestDb {
    pub url: String,
    pub ledger: Ledger,
    _dir: Option<tempfile::TempDir>,
    /// PostgreSQL: the server's URL and the test's schema, dropped at the end.
    schema: Option<(String, String)>,
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Runs `sql` on the PostgreSQL server at `url`.
pub fn pg_execute(url: &str, sql: &str) {
    runtime().block_on(async {
        let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::raw_sql(sql).execute(&mut conn).await.unwrap();
        conn.close().await.unwrap();
    });
}

impl TestDb {
    /// None when the backend is not configured here (PostgreSQL without a URL, not required).
    pub fn new(kind: Kind) -> Option<TestDb> {
        match kind {
            Kind::Sqlite => {
                let dir = tempfile::tempdir().unwrap();
                let url = format!("sqlite://{}", dir.path().join("ledger.db").display());
                let ledger = Ledger::open(&url).unwrap();
                Some(TestDb {
                    url,
                    ledger,
                    _dir: Some(dir),
                    schema: None,
                })
            }
            Kind::Postgres => {
                let Some(server) = std::env::var(POSTGRES_URL).ok().filter(|u| !u.is_empty())
                else {
                    assert!(
                        std::env::var(REQUIRE_POSTGRES).as_deref() != Ok("1"),
                        "{REQUIRE_POSTGRES}=1 but {POSTGRES_URL} is not set: the PostgreSQL \
                         tests cannot run (cargo xtask test starts a server for them)"
                    );
                    eprintln!("PostgreSQL test skipped: {POSTGRES_URL} is not set");
                    return None;
                };
                let mut bytes = [0u8; 8];
                getrandom::fill(&mut bytes).unwrap();
                let schema: String = std::iter::once("t_".to_owned())
                    .chain(bytes.iter().map(|b| format!("{b:02x}")))
                    .collect();
                pg_execute(&server, &format!("CREATE SCHEMA {schema}"));
                let sep = if server.contains('?') { '&' } else { '?' };
                let url = format!("{server}{sep}options[search_path]={schema}");
                let ledger = Ledger::open(&url).unwrap();
                Some(TestDb {
                    url,
                    ledger,
                    _dir: None,
                    schema: Some((server, schema)),
                })
            }
        }
    }

    /// Runs `sql` on the database itself, past the ledger's API: the driver's error as text.
    pub fn raw(&self, sql: &str) -> Result<(), String> {
        runtime().block_on(async {
            let result = if self.schema.is_some() {
                let mut conn = sqlx::PgConnection::connect(&self.url).await.unwrap();
                sqlx::raw_sql(sql).execute(&mut conn).await.map(drop)
            } else {
                let mut conn = sqlx::SqliteConnection::connect(&self.url).await.unwrap();
                sqlx::raw_sql(sql).execute(&mut conn).await.map(drop)
            };
            result.map_err(|e| e.to_string())
        })
    }

    /// Another handle on the same database, as a second service instance would open it.
    pub fn open_again(&self) -> Ledger {
        Ledger::open(&self.url).unwrap()
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((server, schema)) = &self.schema
            && !std::thread::panicking()
        {
            pg_execute(server, &format!("DROP SCHEMA {schema} CASCADE"));
        }
    }
}

/// Each test named, once per backend: `sqlite::name` and `postgres::name`, each with a fresh
/// database.
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[test]
                fn $name() {
                    if let Some(db) = $crate::common::TestDb::new($crate::common::Kind::Sqlite) {
                        super::$name(&db);
                    }
                }
            )*
        }
        mod postgres {
            $(
                #[test]
                fn $name() {
                    if let Some(db) = $crate::common::TestDb::new($crate::common::Kind::Postgres) {
                        super::$name(&db);
                    }
                }
            )*
        }
    };
}
