//! The claims ledger: every claim submitted to a finance portal, with its invoices, in a real
//! database (SQLite embedded by default, PostgreSQL for several service instances), so that an
//! invoice is never reimbursed twice across sessions, users and instances. A partial unique
//! index on the active invoice key is the guard; the API is blocking (see [`Ledger`]).
//!
//! The same database holds who may see what: the service's accounts (password hashes made by
//! the caller) and their sign-ins (by token hash, with an expiry), each claim's owner, the
//! defaults each user saved, and the audit trail of who did what, from where and when.
//!
//! ```
//! use reimburse_ledger::{
//!     ClaimDraft, ClaimFilter, ClaimStatus, InvoiceEntry, Ledger, LedgerError, invoice_key,
//! };
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! let ledger = Ledger::open_sqlite(&dir.path().join("ledger.db"))?; // or Ledger::open(url)
//!
//! let invoice = InvoiceEntry {
//!     key: invoice_key("", "25442000000116575693"), // a 数电 invoice: its number
//!     number: "25442000000116575693".into(),
//!     date: "2026-11-01".into(),
//!     amount_cents: 65_500,
//!     seller: "示例文具有限公司".into(),
//!     ..InvoiceEntry::default()
//! };
//! let draft = ClaimDraft {
//!     portal: "demo-portal".into(),
//!     kind: "general".into(),
//!     staff_no: "1001".into(),
//!     claimant: "张三".into(),
//!     session_id: "5f0c3c9e-1111-4a2b-9c3d-000000000001".into(),
//!     total_cents: 65_500,
//!     invoices: vec![invoice],
//!     owner: String::new(),
//! };
//!
//! // Before submitting: reserve the invoices. A second claim of the same invoice is refused,
//! // naming the claim that holds it.
//! let id = ledger.reserve(&draft)?;
//! match ledger.reserve(&draft) {
//!     Err(LedgerError::AlreadyClaimed(holders)) => assert_eq!(holders[0].claim_id, id),
//!     other => panic!("a second claim went through: {other:?}"),
//! }
//!
//! // After the portal answered: accept with its claim number (or release on failure).
//! ledger.accept(id, "BX20261102-0003")?;
//! let claims = ledger.claims(&ClaimFilter::default())?;
//! assert_eq!(claims[0].status, ClaimStatus::Accepted);
//! assert_eq!(claims[0].claim_no, "BX20261102-0003");
//! # Ok(())
//! # }
//! ```
//!
//! Start from [`Ledger`]: [`Ledger::reserve`] a [`ClaimDraft`] of [`InvoiceEntry`]s keyed by
//! [`invoice_key`], then [`Ledger::accept`] or [`Ledger::release`] it; [`Ledger::claims`]
//! lists [`ClaimSummary`]s by a [`ClaimFilter`] and exports them as CSV or a workbook. Accounts
//! ([`NewUser`], [`UserRecord`]), sign-ins ([`LoginRecord`]) and the audit trail
//! ([`AuditEntry`], [`AuditRecord`]) are methods of the same [`Ledger`]. Failures are
//! [`LedgerError`]s, whose messages can be shown to a user.

#![warn(missing_docs)]

mod accounts;
mod audit;
mod clock;
mod conn;
mod error;
mod export;
mod key;
mod ledger;
mod model;
mod open;
mod query;
mod read;
mod write;

pub use error::LedgerError;
pub use key::invoice_key;
pub use ledger::Ledger;
pub use model::{
    AuditEntry, AuditFilter, AuditRecord, Backend, ClaimDetail, ClaimDraft, ClaimFilter, ClaimId,
    ClaimStatus, ClaimSummary, Holder, InvoiceEntry, LoginRecord, NewUser, PendingClaim,
    ReleaseInfo, UserRecord, VoidInfo,
};
