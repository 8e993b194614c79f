//! The double-claim check against a large ledger (a documented harness, not criterion).
//!
//! Fills a ledger with 1,000,000 invoices (250,000 claims of four; every tenth claim released,
//! so its invoices are inactive) by bulk load (multi-row inserts in big transactions on
//! SQLite, COPY on PostgreSQL), then times what a submission of 50 invoices asks before it
//! goes: `holders()` + `holders_by_sha256()` + `near_duplicates()`, 200 times, and prints the
//! median and p99. Target: under 5 ms for the three together.
//!
//! `cargo xtask bench ledger` runs it on SQLite and on a throwaway PostgreSQL cluster
//! (`REIMBURSE_BENCH_POSTGRES_URL`); `cargo bench -p reimburse-ledger --bench ledger` alone
//! runs SQLite. `REIMBURSE_BENCH_INVOICES` sets another size.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::print_stdout,
    reason = "bench code: a failed step should abort loudly; the figures go to stdout"
)]

use reimburse_ledger::{InvoiceEntry, Ledger};
use sqlx::Connection as _;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

const PER_CLAIM: usize = 4;
const SESSION: usize = 50;
const REPETITIONS: usize = 200;
/// Rows per statement (SQLite) and per transaction.
const ROWS_PER_INSERT: usize = 1_000;
const ROWS_PER_TRANSACTION: usize = 100_000;

/// splitmix64: the generated ledger is the same on every run.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The `i`th stored invoice.
fn stored(i: usize) -> InvoiceEntry {
    let h = mix(i as u64);
    let number = format!("2644200000{i:010}");
    let (y, m, d) = domain::civil_from_days(19_358 + (h % 1_000) as i64);
    InvoiceEntry {
        key: number.clone(),
        number,
        code: String::new(),
        date: format!("{y:04}-{m:02}-{d:02}"),
        amount_cents: 100 + ((h >> 10) % 500_000) as i64,
        seller: format!("销售方{:05}有限公司", (h >> 30) % 20_000),
        sha256: (0..4).map(|k| format!("{:016x}", mix(h ^ k))).collect(),
    }
}

fn claim_status(claim: usize) -> &'static str {
    if claim % 10 == 9 {
        "released"
    } else {
        "accepted"
    }
}

/// The claims' rows, one line per claim: (id, status, claim_no, submitted_on, stamp).
fn claim_row(claim: usize) -> (usize, &'static str, String) {
    let status = claim_status(claim);
    let claim_no = if status == "accepted" {
        format!("BX{claim:08}")
    } else {
        String::new()
    };
    (claim + 1, status, claim_no)
}

fn sqlite_values(from: usize, to: usize) -> (String, String) {
    let mut claims = String::new();
    let mut invoices = String::new();
    for claim in from / PER_CLAIM..to / PER_CLAIM {
        let (id, status, claim_no) = claim_row(claim);
        let sep = if claims.is_empty() { "" } else { "," };
        write!(
            claims,
            "{sep}({id},'demo-portal','general','{s}','用户{s}','bench',400,'{status}','{claim_no}',\
             '2026-01-01','2026-01-01T00:00:00Z')",
            s = claim % 5_000
        )
        .unwrap();
        let active = i32::from(status == "accepted");
        for seq in 0..PER_CLAIM {
            let inv = stored(claim * PER_CLAIM + seq);
            let sep = if invoices.is_empty() { "" } else { "," };
            write!(
                invoices,
                "{sep}({id},{seq},'{k}','{k}','','{}',{},'{}','{}',{active})",
                inv.date,
                inv.amount_cents,
                inv.seller,
                inv.sha256,
                k = inv.key
            )
            .unwrap();
        }
    }
    (claims, invoices)
}

const CLAIM_COLUMNS: &str = "id, portal, kind, staff_no, claimant, session_id, total_cents, \
     status, claim_no, submitted_on, reserved_at";
const INVOICE_COLUMNS: &str = "claim_id, seq, invoice_key, invoice_number, invoice_code, \
     invoice_date, amount_cents, seller, sha256, active";

async fn load_sqlite(url: &str, total: usize) {
    let mut conn = sqlx::SqliteConnection::connect(url).await.unwrap();
    for start in (0..total).step_by(ROWS_PER_TRANSACTION) {
        let end = (start + ROWS_PER_TRANSACTION).min(total);
        let mut tx = conn.begin().await.unwrap();
        for from in (start..end).step_by(ROWS_PER_INSERT) {
            let (claims, invoices) = sqlite_values(from, (from + ROWS_PER_INSERT).min(end));
            let sql = format!(
                "INSERT INTO claims ({CLAIM_COLUMNS}) VALUES {claims}; \
                 INSERT INTO claim_invoices ({INVOICE_COLUMNS}) VALUES {invoices};"
            );
            sqlx::raw_sql(&sql).execute(&mut *tx).await.unwrap();
        }
        tx.commit().await.unwrap();
    }
    sqlx::raw_sql("ANALYZE").execute(&mut conn).await.unwrap();
    conn.close().await.unwrap();
}

/// COPY text of claims and invoices `from..to` (invoice numbers).
fn copy_text(from: usize, to: usize) -> (String, String) {
    let mut claims = String::new();
    let mut invoices = String::new();
    for claim in from / PER_CLAIM..to / PER_CLAIM {
        let (id, status, claim_no) = claim_row(claim);
        let s = claim % 5_000;
        writeln!(
            claims,
            "{id}\tdemo-portal\tgeneral\t{s}\t用户{s}\tbench\t400\t{status}\t{claim_no}\t\
             2026-01-01\t2026-01-01T00:00:00Z"
        )
        .unwrap();
        let active = if status == "accepted" { "t" } else { "f" };
        for seq in 0..PER_CLAIM {
            let inv = stored(claim * PER_CLAIM + seq);
            writeln!(
                invoices,
                "{id}\t{seq}\t{k}\t{k}\t\t{}\t{}\t{}\t{}\t{active}",
                inv.date,
                inv.amount_cents,
                inv.seller,
                inv.sha256,
                k = inv.key
            )
            .unwrap();
        }
    }
    (claims, invoices)
}

async fn load_postgres(url: &str, total: usize) {
    let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
    for start in (0..total).step_by(ROWS_PER_TRANSACTION) {
        let (claims, invoices) = copy_text(start, (start + ROWS_PER_TRANSACTION).min(total));
        for (table, columns, text) in [
            ("claims", CLAIM_COLUMNS, claims),
            ("claim_invoices", INVOICE_COLUMNS, invoices),
        ] {
            let mut copy = conn
                .copy_in_raw(&format!("COPY {table} ({columns}) FROM STDIN"))
                .await
                .unwrap();
            copy.send(text.into_bytes()).await.unwrap();
            copy.finish().await.unwrap();
        }
    }
    sqlx::raw_sql(
        "SELECT setval(pg_get_serial_sequence('claims', 'id'), (SELECT max(id) FROM claims))",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    // What autovacuum would do soon after a bulk load, done before the clock starts (VACUUM
    // cannot share a statement string with anything else).
    sqlx::raw_sql("VACUUM ANALYZE")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
}

/// A session of 50: ten invoices already claimed, ten files already claimed under a misread
/// key, ten near duplicates (same seller, amount and date, another key), twenty new ones.
fn session(total: usize) -> Vec<InvoiceEntry> {
    (0..SESSION)
        .map(|n| {
            // Distinct stored invoices of accepted claims (claim % 10 == 0), spread evenly.
            let stride = total / 40 / SESSION;
            let held = n * stride * 40 + n % PER_CLAIM;
            let fresh = format!("2744200000{n:010}");
            match n / 10 {
                0 => stored(held),
                1 => InvoiceEntry {
                    key: fresh.clone(),
                    number: fresh,
                    ..stored(held)
                },
                2 => InvoiceEntry {
                    key: fresh.clone(),
                    number: fresh,
                    sha256: "0".repeat(64),
                    ..stored(held)
                },
                _ => InvoiceEntry {
                    key: fresh.clone(),
                    number: fresh,
                    sha256: format!("{:064x}", n),
                    seller: "新销售方".into(),
                    ..stored(held)
                },
            }
        })
        .collect()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

fn measure(name: &str, ledger: &Ledger, total: usize) {
    let probes = session(total);
    let keys: Vec<String> = probes.iter().map(|p| p.key.clone()).collect();
    let hashes: Vec<String> = probes.iter().map(|p| p.sha256.clone()).collect();
    let check = || {
        let holders = ledger.holders(&keys).unwrap();
        let by_file = ledger.holders_by_sha256(&hashes).unwrap();
        let near = ledger.near_duplicates(&probes).unwrap();
        (holders.len(), by_file.len(), near.len())
    };
    let found = check();
    assert_eq!(
        found,
        (10, 20, 20),
        "{name}: hits (keys, files, near duplicates)"
    );
    for _ in 0..50 {
        check();
    }
    let mut times: Vec<Duration> = (0..REPETITIONS)
        .map(|_| {
            let start = Instant::now();
            check();
            start.elapsed()
        })
        .collect();
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{name}: check of {SESSION} invoices against {total} (holders + holders_by_sha256 + \
         near_duplicates), {REPETITIONS} runs: median {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        ms(percentile(&times, 0.5)),
        ms(percentile(&times, 0.99)),
        ms(times[times.len() - 1]),
    );
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn bench_sqlite(total: usize) {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("ledger.db").display());
    let ledger = Ledger::open(&url).unwrap();
    let start = Instant::now();
    runtime().block_on(load_sqlite(&url, total));
    println!(
        "SQLite: {total} invoices loaded in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    measure("SQLite", &ledger, total);
}

fn bench_postgres(server: &str, total: usize) {
    let schema = format!("bench_{}", std::process::id());
    let rt = runtime();
    let exec = |sql: String| {
        rt.block_on(async {
            let mut conn = sqlx::PgConnection::connect(server).await.unwrap();
            sqlx::raw_sql(&sql).execute(&mut conn).await.unwrap();
        })
    };
    exec(format!("CREATE SCHEMA {schema}"));
    let sep = if server.contains('?') { '&' } else { '?' };
    let url = format!("{server}{sep}options[search_path]={schema}");
    let ledger = Ledger::open(&url).unwrap();
    let start = Instant::now();
    rt.block_on(load_postgres(&url, total));
    println!(
        "PostgreSQL: {total} invoices loaded in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    measure("PostgreSQL", &ledger, total);
    drop(ledger);
    exec(format!("DROP SCHEMA {schema} CASCADE"));
}

fn main() {
    let total: usize = std::env::var("REIMBURSE_BENCH_INVOICES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_000_000)
        / 40
        * 40;
    assert!(total >= 40 * SESSION, "at least {} invoices", 40 * SESSION);
    bench_sqlite(total);
    match std::env::var("REIMBURSE_BENCH_POSTGRES_URL") {
        Ok(server) if !server.is_empty() => bench_postgres(&server, total),
        _ => println!("PostgreSQL: skipped (REIMBURSE_BENCH_POSTGRES_URL is not set)"),
    }
}
