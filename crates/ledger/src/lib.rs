//! The claims ledger: every claim submitted to a finance portal, with its invoices, in a real
//! database (SQLite embedded by default, PostgreSQL for several service instances), so that an
//! invoice is never reimbursed twice across sessions, users and instances. A partial unique
//! index on the active invoice key is the guard; the API is blocking (see [`Ledger`]).
//!
//! The same database holds who may see what: the service's accounts (password hashes made by
//! the caller) and their sign-ins (by token hash, with an expiry), each claim's owner, the
//! defaults each user saved, and the audit trail of who did what, from where and when.

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
