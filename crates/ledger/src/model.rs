//! The ledger's vocabulary: claims as drafted, stored, listed and filtered; the accounts,
//! sign-ins and audit trail around them.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A claim's row id in the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClaimId(pub i64);

impl fmt::Display for ClaimId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Where a claim stands. Only `Pending` and `Accepted` claims hold their invoices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimStatus {
    /// Reserved before submitting to the portal; the outcome is not known yet.
    Pending,
    /// The portal accepted it and gave a claim number.
    Accepted,
    /// The submission did not go through; its invoices are free again.
    Released,
    /// Accepted, then cancelled by a person with a reason; its invoices are free again.
    Voided,
}

impl ClaimStatus {
    /// The word stored in the database: `pending`, `accepted`, `released`, `voided`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Accepted => "accepted",
            Self::Released => "released",
            Self::Voided => "voided",
        }
    }

    /// The status as people read it in the exports.
    pub fn label(self) -> &'static str {
        match self {
            Self::Pending => "提交中",
            Self::Accepted => "已报销",
            Self::Released => "已释放",
            Self::Voided => "已作废",
        }
    }

    /// The status of its stored word; None for any other word.
    pub fn parse(word: &str) -> Option<Self> {
        [Self::Pending, Self::Accepted, Self::Released, Self::Voided]
            .into_iter()
            .find(|s| s.as_str() == word)
    }
}

impl fmt::Display for ClaimStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which database a ledger lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// A SQLite file, embedded.
    Sqlite,
    /// A PostgreSQL server, shared by several service instances.
    Postgres,
}

/// One invoice of a claim, as reserved and as read back.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvoiceEntry {
    /// The guarded identity, from [`crate::invoice_key`].
    pub key: String,
    /// 发票号码.
    pub number: String,
    /// 发票代码 (old formats), or empty.
    pub code: String,
    /// `YYYY-MM-DD`, or empty when unknown.
    pub date: String,
    /// 价税合计 in cents.
    pub amount_cents: i64,
    /// 销售方名称.
    pub seller: String,
    /// SHA-256 of the invoice file in lowercase hex (stored lowercased), or empty.
    pub sha256: String,
}

/// A claim about to be submitted: what [`crate::Ledger::reserve`] records as pending.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimDraft {
    /// The finance portal (flow name) it goes to.
    pub portal: String,
    /// `general` or `travel`.
    pub kind: String,
    /// The claimant's staff number.
    pub staff_no: String,
    /// The claimant's name.
    pub claimant: String,
    /// The reimbursement session it comes from.
    pub session_id: String,
    /// The claim's total in cents.
    pub total_cents: i64,
    /// Its invoices; their keys must be distinct and not empty.
    pub invoices: Vec<InvoiceEntry>,
    /// The service user who submits it (stored as given); empty with sign-in off.
    pub owner: String,
}

/// A claim that holds an invoice (pending or accepted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holder {
    /// The invoice held.
    pub invoice_key: String,
    /// The claim holding it.
    pub claim_id: ClaimId,
    /// Empty while pending.
    pub claim_no: String,
    /// Pending or accepted.
    pub status: ClaimStatus,
    /// `YYYY-MM-DD` (China) of the acceptance, or of the reservation while pending.
    pub date: String,
    /// The holding claim's claimant.
    pub claimant: String,
    /// The holding claim's staff number.
    pub staff_no: String,
    /// The session the holding claim came from.
    pub session_id: String,
    /// The held invoice's file SHA-256 (lowercase hex), or empty: which probe a
    /// `holders_by_sha256` answer matched.
    pub sha256: String,
}

/// A claim reserved whose outcome was never recorded: to reconcile after a crash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingClaim {
    /// The claim.
    pub id: ClaimId,
    /// The session it came from.
    pub session_id: String,
    /// UTC, RFC 3339.
    pub reserved_at: String,
}

/// Which claims [`crate::Ledger::claims`] and the exports list. Empty fields do not filter.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ClaimFilter {
    /// Only this staff number.
    pub staff_no: Option<String>,
    /// `general` or `travel`.
    pub kind: Option<String>,
    /// First submitted date included, `YYYY-MM-DD`.
    pub from: Option<String>,
    /// Last submitted date included, `YYYY-MM-DD`.
    pub to: Option<String>,
    /// Part of the claim number, the claimant, a seller or an invoice number (case-insensitive
    /// for ASCII).
    pub text: Option<String>,
    /// Only claims in this state.
    pub status: Option<ClaimStatus>,
    /// Only the claims of this service user, compared exactly (not trimmed; `Some("")` lists
    /// the claims without an owner), so that a user's view never widens to everyone's.
    pub owner: Option<String>,
    /// At most this many claims (all when None).
    pub limit: Option<u32>,
    /// Claims skipped before the first listed.
    pub offset: u32,
}

/// One claim as listed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimSummary {
    /// The claim's id.
    pub id: ClaimId,
    /// The finance portal (flow name) it went to.
    pub portal: String,
    /// `general` or `travel`.
    pub kind: String,
    /// The claimant's staff number.
    pub staff_no: String,
    /// The claimant's name.
    pub claimant: String,
    /// The session it came from.
    pub session_id: String,
    /// The total in cents.
    pub total_cents: i64,
    /// How many invoices it has.
    pub invoice_count: i64,
    /// Where it stands.
    pub status: ClaimStatus,
    /// Empty until accepted.
    pub claim_no: String,
    /// `YYYY-MM-DD` (China) of the acceptance, or of the reservation until then.
    pub submitted_on: String,
    /// UTC, RFC 3339.
    pub reserved_at: String,
    /// UTC, RFC 3339.
    pub accepted_at: Option<String>,
    /// The service user who submitted it; empty for claims from before sign-in or with it off.
    pub owner: String,
}

/// Why and when a pending claim was released.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReleaseInfo {
    /// Why, as the caller said.
    pub reason: String,
    /// UTC, RFC 3339.
    pub at: String,
}

/// Who voided an accepted claim, why and when.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VoidInfo {
    /// Why, as the person said.
    pub reason: String,
    /// Who voided it.
    pub by: String,
    /// UTC, RFC 3339.
    pub at: String,
}

/// One claim with its invoices (in the order reserved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimDetail {
    /// The claim as listed.
    pub summary: ClaimSummary,
    /// Its invoices.
    pub invoices: Vec<InvoiceEntry>,
    /// Set when it was released.
    pub released: Option<ReleaseInfo>,
    /// Set when it was voided.
    pub voided: Option<VoidInfo>,
}

/// A user to register with [`crate::Ledger::add_user`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewUser {
    /// The sign-in name: not empty, no spaces around it; compared exactly.
    pub username: String,
    /// The name shown on pages.
    pub display_name: String,
    /// The password's hash as the caller made it (algorithm and salt included), never the
    /// password itself.
    pub password_hash: String,
    /// Whether the user sees and manages every claim, not only their own.
    pub finance: bool,
}

/// A registered user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserRecord {
    /// The sign-in name.
    pub username: String,
    /// The name shown on pages.
    pub display_name: String,
    /// The password's hash, as it was given.
    pub password_hash: String,
    /// Whether the user has the finance role.
    pub finance: bool,
    /// A disabled user cannot sign in; their sign-ins were ended when disabled.
    pub disabled: bool,
    /// UTC, RFC 3339.
    pub created_at: String,
    /// UTC, RFC 3339: the last change of name, password, role or state.
    pub updated_at: String,
}

/// A sign-in that is still valid, with its user's name and role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoginRecord {
    /// Who is signed in.
    pub username: String,
    /// Their name as shown now.
    pub display_name: String,
    /// Whether they have the finance role now.
    pub finance: bool,
    /// Where the user signed in from (as the caller gave it).
    pub address: String,
    /// UTC, RFC 3339.
    pub created_at: String,
    /// UTC, RFC 3339: from this instant on the sign-in is no longer valid.
    pub expires_at: String,
}

/// What a caller records in the audit trail; the time comes from the ledger's clock.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditEntry {
    /// Who did it; empty with sign-in off.
    pub username: String,
    /// Where from (as the caller gave it).
    pub address: String,
    /// What was done, a short word such as `login` or `claim_accepted` (required).
    pub action: String,
    /// The reimbursement session concerned, or empty.
    pub session_id: String,
    /// Anything more, as text, or empty. Never a password or its hash.
    pub detail: String,
}

/// One line of the audit trail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRecord {
    /// The line's id, increasing.
    pub id: i64,
    /// UTC, RFC 3339.
    pub at: String,
    /// Who did it; empty with sign-in off.
    pub username: String,
    /// Where from.
    pub address: String,
    /// What was done (`login`, `claim_accepted`, …).
    pub action: String,
    /// The session concerned, or empty.
    pub session_id: String,
    /// Anything more, or empty.
    pub detail: String,
}

/// Which audit lines [`crate::Ledger::audit_log`] and its export list. Empty fields do not
/// filter.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AuditFilter {
    /// Only this user's lines.
    pub username: Option<String>,
    /// Only this action.
    pub action: Option<String>,
    /// Only this session's lines.
    pub session_id: Option<String>,
    /// First day included, `YYYY-MM-DD` in China (UTC+8).
    pub from: Option<String>,
    /// Last day included, `YYYY-MM-DD` in China (UTC+8).
    pub to: Option<String>,
    /// At most this many lines (all when None).
    pub limit: Option<u32>,
    /// Lines skipped before the first listed.
    pub offset: u32,
}
