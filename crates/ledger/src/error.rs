//! What can go wrong with the ledger, said in Chinese for the person who reads it.

use crate::model::{ClaimStatus, Holder};
use std::fmt::Write as _;

/// An error of the ledger. Its `Display` is the message shown to the person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LedgerError {
    /// Invoices of the draft are held by other claims (pending or accepted): every holder.
    #[error("{}", already_claimed(.0))]
    AlreadyClaimed(Vec<Holder>),
    /// No claim has this id.
    #[error("报销台账中没有这张报销单")]
    NotFound,
    /// Only an accepted claim can be voided.
    #[error("只有已报销的报销单可以作废")]
    NotAccepted,
    /// Accept and release apply to a pending claim only; this one is in the given state.
    #[error("报销单已是“{}”状态，不能再改为此状态", .0.label())]
    NotPending(ClaimStatus),
    /// A void without a reason.
    #[error("请填写作废原因")]
    EmptyReason,
    /// An accept without a claim number.
    #[error("请填写报销单号")]
    EmptyClaimNo,
    /// The draft cannot be recorded as it is (no invoices, a repeated or empty key, …).
    #[error("报销单内容有误：{0}")]
    InvalidDraft(String),
    /// A filter value is malformed (a date not `YYYY-MM-DD`).
    #[error("查询条件有误：{0}")]
    InvalidFilter(String),
    /// A value given to the ledger cannot be stored (an empty username or password hash, …):
    /// the message says which.
    #[error("{0}")]
    Invalid(String),
    /// A user with this username is already registered.
    #[error("用户 {0} 已存在")]
    UserExists(String),
    /// There is no registered user with this username.
    #[error("没有用户 {0}")]
    NoSuchUser(String),
    /// The user is disabled and cannot sign in.
    #[error("用户 {0} 已停用")]
    UserDisabled(String),
    /// The database address is not one the ledger understands.
    #[error("报销台账的数据库地址无效：{0}")]
    BadUrl(String),
    /// The database could not be opened or reached.
    #[error("无法打开报销台账数据库 {location}：{message}")]
    Connect {
        /// The database's file or address, its password masked.
        location: String,
        /// The driver's message.
        message: String,
    },
    /// A query failed.
    #[error("报销台账数据库出错：{0}")]
    Database(String),
    /// The schema could not be brought up to date.
    #[error("报销台账数据库结构升级失败：{0}")]
    Migration(String),
    /// The ledger's own runtime could not be started or is gone.
    #[error("报销台账无法运行：{0}")]
    Runtime(String),
    /// The export could not be written.
    #[error("导出报销台账失败：{0}")]
    Export(String),
}

fn already_claimed(holders: &[Holder]) -> String {
    let mut out = String::new();
    for (i, h) in holders.iter().enumerate() {
        if i > 0 {
            out.push('；');
        }
        let _ = match h.status {
            ClaimStatus::Pending => write!(
                out,
                "发票 {} 正在报销单提交中（{}）",
                h.invoice_key, h.claimant
            ),
            _ => write!(
                out,
                "发票 {} 已于 {} 在报销单 {} 中报销（{}）",
                h.invoice_key, h.date, h.claim_no, h.claimant
            ),
        };
    }
    if out.is_empty() {
        out.push_str("发票已在其他报销单中报销");
    }
    out
}

pub(crate) fn database(e: sqlx::Error) -> LedgerError {
    LedgerError::Database(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ClaimId;

    fn holder(status: ClaimStatus, claim_no: &str) -> Holder {
        Holder {
            invoice_key: "25442000000116575693".into(),
            claim_id: ClaimId(3),
            claim_no: claim_no.into(),
            status,
            date: "2026-11-02".into(),
            claimant: "张三".into(),
            staff_no: "1001".into(),
            session_id: "s".into(),
            sha256: String::new(),
        }
    }

    #[test]
    fn already_claimed_names_each_holder() {
        let accepted =
            LedgerError::AlreadyClaimed(vec![holder(ClaimStatus::Accepted, "BX20261102-0003")]);
        assert_eq!(
            accepted.to_string(),
            "发票 25442000000116575693 已于 2026-11-02 在报销单 BX20261102-0003 中报销（张三）"
        );
        let both = LedgerError::AlreadyClaimed(vec![
            holder(ClaimStatus::Pending, ""),
            holder(ClaimStatus::Accepted, "BX1"),
        ]);
        assert_eq!(
            both.to_string(),
            "发票 25442000000116575693 正在报销单提交中（张三）；\
             发票 25442000000116575693 已于 2026-11-02 在报销单 BX1 中报销（张三）"
        );
    }
}
