//! `Ledger`: the blocking handle the service holds, with its own small runtime.

use crate::accounts::{self, Setting};
use crate::clock::Clock;
use crate::error::LedgerError;
use crate::model::{
    AuditEntry, AuditFilter, AuditRecord, Backend, ClaimDetail, ClaimDraft, ClaimFilter, ClaimId,
    ClaimSummary, Holder, InvoiceEntry, LoginRecord, NewUser, PendingClaim, UserRecord,
};
use crate::open::{self, Pool, Target};
use crate::{audit, export, query, read, write};
use std::fmt;
use std::future::Future;
use std::path::Path;
use std::sync::Arc;

/// The claims ledger. Cheap to clone (one pool and runtime behind an `Arc`).
///
/// Every method blocks the calling thread until the database answered: call it from plain
/// threads (jobs) or from `spawn_blocking` / actix's `web::block`, never directly from async
/// code (tokio refuses to block one of its worker threads and panics).
#[derive(Clone)]
pub struct Ledger {
    inner: Arc<Inner>,
}

struct Inner {
    pool: Pool,
    /// Taken only by `Drop`.
    runtime: Option<tokio::runtime::Runtime>,
    location: String,
    clock: Clock,
}

/// Runs `$body` (an async expression over the pool `$pool`, generic code instantiated once per
/// backend) on the ledger's runtime.
macro_rules! on_pool {
    ($ledger:expr, $pool:ident => $body:expr) => {
        match &$ledger.inner.pool {
            Pool::Sqlite($pool) => $ledger.block_on($body),
            Pool::Postgres($pool) => $ledger.block_on($body),
        }
    };
}

impl Ledger {
    /// Opens the ledger at `url` and brings its schema up to date: `sqlite:///abs/path.db` or
    /// `sqlite://rel.db` (the file is created when missing), or `postgres://user:pw@host/db`
    /// (options such as `?options[search_path]=ledger` pass through to the server).
    pub fn open(url: &str) -> Result<Ledger, LedgerError> {
        let target = open::parse_url(url)?;
        Self::start(target, open::mask_url(url.trim()))
    }

    /// Opens (creating it and its folder when missing) the SQLite ledger at `path`.
    pub fn open_sqlite(path: &Path) -> Result<Ledger, LedgerError> {
        Self::start(open::sqlite_target(path)?, path.display().to_string())
    }

    fn start(target: Target, location: String) -> Result<Ledger, LedgerError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ledger")
            .enable_all()
            .build()
            .map_err(|e| LedgerError::Runtime(e.to_string()))?;
        let pool = runtime.block_on(open::connect(target, &location))?;
        Ok(Ledger {
            inner: Arc::new(Inner {
                pool,
                runtime: Some(runtime),
                location,
                clock: Clock::system(),
            }),
        })
    }

    fn block_on<T>(
        &self,
        future: impl Future<Output = Result<T, LedgerError>>,
    ) -> Result<T, LedgerError> {
        match &self.inner.runtime {
            Some(runtime) => runtime.block_on(future),
            None => Err(LedgerError::Runtime("已关闭".into())),
        }
    }

    /// Which database the ledger lives in.
    pub fn backend(&self) -> Backend {
        self.inner.pool.backend()
    }

    /// Records a `pending` claim with its invoices and its owner, in one transaction. Refused
    /// with [`LedgerError::AlreadyClaimed`], listing every holder, when any invoice key is
    /// active in another claim (pending or accepted). The database's unique index on active
    /// keys is the guard, so two reservations racing from any number of instances cannot both
    /// win.
    pub fn reserve(&self, draft: &ClaimDraft) -> Result<ClaimId, LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => write::reserve(pool, clock, draft))
    }

    /// A pending claim was accepted by the portal as `claim_no`. Accepting it again with the
    /// same number is a no-op. The same transaction appends a `claim_accepted` line to the
    /// audit trail, by the claim's owner, with its session and `claim_no`.
    pub fn accept(&self, id: ClaimId, claim_no: &str) -> Result<(), LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => write::accept(pool, clock, id, claim_no))
    }

    /// A pending claim did not go through: it is kept as `released` and its invoices are free
    /// again. Releasing it again is a no-op.
    pub fn release(&self, id: ClaimId, reason: &str) -> Result<(), LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => write::release(pool, clock, id, reason))
    }

    /// An accepted claim is cancelled by `by` for `reason` (required): kept as `voided`, its
    /// invoices free again.
    pub fn void(&self, id: ClaimId, reason: &str, by: &str) -> Result<(), LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => write::void(pool, clock, id, reason, by))
    }

    /// Claims still pending (oldest first): after a crash, each is to be accepted or released.
    pub fn pending(&self) -> Result<Vec<PendingClaim>, LedgerError> {
        on_pool!(self, pool => read::pending(pool))
    }

    /// The active holders of these invoice keys, in the order of `keys`.
    pub fn holders(&self, keys: &[String]) -> Result<Vec<Holder>, LedgerError> {
        on_pool!(self, pool => read::holders(pool, keys))
    }

    /// The active invoices whose file had one of these SHA-256 digests (hex, any case).
    pub fn holders_by_sha256(&self, hashes: &[String]) -> Result<Vec<Holder>, LedgerError> {
        on_pool!(self, pool => read::holders_by_sha256(pool, hashes))
    }

    /// Active invoices with the same seller, amount and date as a probe but another key: the
    /// same purchase invoiced twice, or a key misread. Each with the index of its probe.
    /// Probes without a seller or a date are not compared.
    pub fn near_duplicates(
        &self,
        probes: &[InvoiceEntry],
    ) -> Result<Vec<(usize, Holder)>, LedgerError> {
        on_pool!(self, pool => read::near_duplicates(pool, probes))
    }

    /// Claims matching `filter`, newest first (by submitted date, then id).
    pub fn claims(&self, filter: &ClaimFilter) -> Result<Vec<ClaimSummary>, LedgerError> {
        on_pool!(self, pool => query::claims(pool, filter))
    }

    /// One claim with its invoices and what became of it; None when there is no such claim.
    pub fn claim(&self, id: ClaimId) -> Result<Option<ClaimDetail>, LedgerError> {
        on_pool!(self, pool => query::claim(pool, id))
    }

    /// The claims of `filter` (limit and offset included), one line per invoice with its
    /// claim's columns: CSV in UTF-8 with a BOM, so Excel reads the Chinese headers.
    pub fn export_csv(&self, filter: &ClaimFilter) -> Result<Vec<u8>, LedgerError> {
        let rows = on_pool!(self, pool => export::rows(pool, filter))?;
        export::csv(&rows)
    }

    /// The same lines as [`Ledger::export_csv`], as an Excel workbook.
    pub fn export_xlsx(&self, filter: &ClaimFilter) -> Result<Vec<u8>, LedgerError> {
        let rows = on_pool!(self, pool => export::rows(pool, filter))?;
        export::xlsx(&rows)
    }

    /// Registers a user. Refused with [`LedgerError::UserExists`] when the username is taken,
    /// [`LedgerError::Invalid`] for an empty username (or one with spaces around it) or an
    /// empty hash. Nothing is written to the audit trail: that is the caller's.
    pub fn add_user(&self, user: &NewUser) -> Result<(), LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => accounts::add_user(pool, clock, user))
    }

    /// The user registered as `username` (exactly); None when there is none.
    pub fn user(&self, username: &str) -> Result<Option<UserRecord>, LedgerError> {
        on_pool!(self, pool => accounts::user(pool, username))
    }

    /// Every registered user, by username.
    pub fn users(&self) -> Result<Vec<UserRecord>, LedgerError> {
        on_pool!(self, pool => accounts::users(pool))
    }

    /// Replaces the user's password hash and ends all their sign-ins (a new password signs
    /// them out everywhere). [`LedgerError::NoSuchUser`] for an unknown user.
    pub fn set_password_hash(&self, username: &str, hash: &str) -> Result<(), LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => accounts::set_password_hash(pool, clock, username, hash))
    }

    /// Disables (ending all their sign-ins) or enables the user. [`LedgerError::NoSuchUser`]
    /// for an unknown user.
    pub fn set_user_disabled(&self, username: &str, disabled: bool) -> Result<(), LedgerError> {
        let clock = &self.inner.clock;
        let setting = Setting::Disabled;
        on_pool!(self, pool => accounts::change_user(
            pool, clock, username, setting, disabled.into(), disabled
        ))
    }

    /// Gives or takes the finance role (every claim, not only one's own); sign-ins see the
    /// change at once. [`LedgerError::NoSuchUser`] for an unknown user.
    pub fn set_user_finance(&self, username: &str, finance: bool) -> Result<(), LedgerError> {
        let clock = &self.inner.clock;
        let setting = Setting::Finance;
        on_pool!(self, pool => accounts::change_user(
            pool, clock, username, setting, finance.into(), false
        ))
    }

    /// Records a sign-in of `username` from `address`, kept by the hash of its token, valid
    /// for `ttl_secs` from now (by the ledger's clock; at most ten years).
    /// [`LedgerError::NoSuchUser`] or [`LedgerError::UserDisabled`] when the user cannot sign
    /// in.
    pub fn create_login(
        &self,
        token_hash: &str,
        username: &str,
        address: &str,
        ttl_secs: i64,
    ) -> Result<LoginRecord, LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => accounts::create_login(
            pool, clock, token_hash, username, address, ttl_secs
        ))
    }

    /// The sign-in kept by `token_hash`, with its user's current name and role; None when
    /// there is none, it expired, or its user is disabled.
    pub fn login(&self, token_hash: &str) -> Result<Option<LoginRecord>, LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => accounts::login(pool, clock, token_hash))
    }

    /// Ends the sign-in kept by `token_hash` (signing out); nothing happens when there is none.
    pub fn delete_login(&self, token_hash: &str) -> Result<(), LedgerError> {
        on_pool!(self, pool => accounts::delete_login(pool, token_hash))
    }

    /// Deletes the expired sign-ins; how many.
    pub fn purge_expired_logins(&self) -> Result<u64, LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => accounts::purge_expired_logins(pool, clock))
    }

    /// The defaults `username` saved (a JSON document, as given); None when never saved. Any
    /// username, registered or not (users signed in by a proxy have no account here).
    pub fn user_defaults(&self, username: &str) -> Result<Option<String>, LedgerError> {
        on_pool!(self, pool => accounts::user_defaults(pool, username))
    }

    /// Saves (or replaces) the defaults of `username`; the ledger does not read them.
    pub fn set_user_defaults(&self, username: &str, config_json: &str) -> Result<(), LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => accounts::set_user_defaults(pool, clock, username, config_json))
    }

    /// Appends `entry` to the audit trail, stamped by the ledger's clock.
    /// [`LedgerError::Invalid`] when it has no action.
    pub fn record(&self, entry: &AuditEntry) -> Result<(), LedgerError> {
        let clock = &self.inner.clock;
        on_pool!(self, pool => audit::record(pool, clock, entry))
    }

    /// The audit lines matching `filter`, newest first.
    pub fn audit_log(&self, filter: &AuditFilter) -> Result<Vec<AuditRecord>, LedgerError> {
        on_pool!(self, pool => audit::log(pool, filter))
    }

    /// The audit lines of `filter` (limit and offset included) as CSV in UTF-8 with a BOM,
    /// the time in China: 时间, 用户, 地址, 操作, 会话, 详情.
    pub fn export_audit_csv(&self, filter: &AuditFilter) -> Result<Vec<u8>, LedgerError> {
        let records = on_pool!(self, pool => audit::log(pool, filter))?;
        audit::csv(&records)
    }

    /// Tests only: stamp every later change at `utc` (`2026-11-02T08:00:00Z`) instead of the
    /// system clock; None goes back to the system clock.
    #[doc(hidden)]
    pub fn set_clock_for_tests(&self, utc: Option<&str>) -> Result<(), LedgerError> {
        let secs = match utc {
            Some(text) => Some(
                crate::clock::parse_utc(text)
                    .ok_or_else(|| LedgerError::Runtime(format!("时间格式无效：{text}")))?,
            ),
            None => None,
        };
        self.inner.clock.fix(secs);
        Ok(())
    }
}

impl fmt::Debug for Ledger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ledger")
            .field("backend", &self.backend())
            .field("location", &self.inner.location)
            .finish()
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        let Some(runtime) = self.runtime.take() else {
            return;
        };
        if tokio::runtime::Handle::try_current().is_err() {
            // A plain thread: close the connections properly (SQLite checkpoints its WAL).
            runtime.block_on(self.pool.close());
        } else {
            // Inside another runtime (the last clone dropped by an async task or a blocking
            // task): blocking here is not allowed; the connections close as they drop.
            runtime.shutdown_background();
        }
    }
}
