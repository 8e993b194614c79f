//! Filed claims: their numbers (`CW` + year + six-digit sequence), the rule that an invoice is
//! reimbursed once across all claims, and the records `/api/claims` reports.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::clock;
use crate::config::CampusConfig;

/// Which form a claim came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    /// 日常报销.
    Daily,
    /// 差旅报销.
    Travel,
}

impl ClaimKind {
    /// The name the pages show.
    pub(crate) fn label(self) -> &'static str {
        match self {
            Self::Daily => "日常报销",
            Self::Travel => "差旅报销",
        }
    }
}

/// One invoice row of a claim, as posted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimRow {
    /// 发票号码 (`inv_no[]`).
    pub invoice_no: String,
    /// 开票日期 (`inv_date[]`), `YYYY-MM-DD`.
    pub invoice_date: String,
    /// 费用项目 (`item[]`) on the daily form, 费用类型 (`category[]`) on the travel form.
    pub item: String,
    /// 金额 (`amount[]`), normalised to two decimals.
    pub amount: String,
    /// 销售方名称 (`seller[]`).
    pub seller: String,
}

/// A file posted in `files`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    /// The file name the browser sent.
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// Lowercase hex SHA-256 of its bytes.
    pub sha256: String,
}

/// A claim the portal accepted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// `CW` + year + six-digit sequence, e.g. `CW2026000101`.
    pub claim_no: String,
    /// The form it came from.
    pub kind: ClaimKind,
    /// 工号 of the logged-in user (the read-only field is not trusted).
    pub staff_no: String,
    /// 报销人, the account's name.
    pub applicant: String,
    /// The department's option value.
    pub department_code: String,
    /// The department's name.
    pub department: String,
    /// 报销事由 (daily) or 出差事由 (travel).
    pub reason: String,
    /// 报销日期 (daily form only).
    pub claim_date: Option<String>,
    /// 出差地点 (travel form only).
    pub destination: Option<String>,
    /// 出差开始日期 (travel form only).
    pub start_date: Option<String>,
    /// 出差结束日期 (travel form only).
    pub end_date: Option<String>,
    /// The invoice rows in form order.
    pub rows: Vec<ClaimRow>,
    /// Sum of the rows' amounts, two decimals.
    pub total: String,
    /// The attached files in posting order.
    pub attachments: Vec<Attachment>,
    /// Beijing time of filing, `YYYY-MM-DD HH:MM:SS`.
    pub submitted_at: String,
}

/// All claims of a running portal.
#[derive(Debug)]
pub(crate) struct ClaimStore {
    claims: Vec<Claim>,
    /// Invoice number to the claim that reimbursed it, prior claims included.
    claimed: HashMap<String, String>,
    next_sequence: u32,
    year: Option<u16>,
}

impl ClaimStore {
    pub(crate) fn new(config: &CampusConfig) -> Self {
        let claimed = config
            .prior_invoices
            .iter()
            .map(|p| (p.invoice_no.clone(), p.claim_no.clone()))
            .collect();
        Self {
            claims: Vec::new(),
            claimed,
            next_sequence: config.first_sequence,
            year: config.claim_year,
        }
    }

    /// Files a validated claim: refuses it if one of its invoices was already reimbursed,
    /// otherwise gives it the next number and the filing time. Checking and recording happen
    /// under one borrow, so two concurrent posts cannot both claim an invoice.
    pub(crate) fn file(&mut self, mut claim: Claim) -> Result<String, String> {
        for row in &claim.rows {
            if let Some(earlier) = self.claimed.get(&row.invoice_no) {
                return Err(format!(
                    "发票号码 {} 已在单据 {earlier} 中报销，不能重复报销",
                    row.invoice_no
                ));
            }
        }
        let (today, stamp) = clock::now_beijing();
        let year = self.year.unwrap_or(today.year);
        let number = format!("CW{year:04}{:06}", self.next_sequence);
        self.next_sequence = self.next_sequence.saturating_add(1);
        for row in &claim.rows {
            self.claimed.insert(row.invoice_no.clone(), number.clone());
        }
        claim.claim_no.clone_from(&number);
        claim.submitted_at = stamp;
        self.claims.push(claim);
        Ok(number)
    }

    /// Every claim, oldest first.
    pub(crate) fn all(&self) -> &[Claim] {
        &self.claims
    }

    /// One user's claims, newest first (how 我的单据 lists them).
    pub(crate) fn of(&self, staff_no: &str) -> Vec<Claim> {
        self.claims
            .iter()
            .rev()
            .filter(|c| c.staff_no == staff_no)
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::PriorInvoice;

    fn claim(invoice_no: &str) -> Claim {
        Claim {
            claim_no: String::new(),
            kind: ClaimKind::Daily,
            staff_no: "200001".to_owned(),
            applicant: "李四".to_owned(),
            department_code: "0101".to_owned(),
            department: "计算机科学与技术学院".to_owned(),
            reason: "耗材".to_owned(),
            claim_date: Some("2026-03-10".to_owned()),
            destination: None,
            start_date: None,
            end_date: None,
            rows: vec![ClaimRow {
                invoice_no: invoice_no.to_owned(),
                invoice_date: "2026-03-01".to_owned(),
                item: "耗材".to_owned(),
                amount: "1.00".to_owned(),
                seller: "某店".to_owned(),
            }],
            total: "1.00".to_owned(),
            attachments: Vec::new(),
            submitted_at: String::new(),
        }
    }

    #[test]
    fn numbers_follow_the_sequence_and_invoices_are_claimed_once() {
        let config = CampusConfig {
            claim_year: Some(2026),
            prior_invoices: vec![PriorInvoice {
                invoice_no: "11112222".to_owned(),
                claim_no: "CW2025000003".to_owned(),
            }],
            ..CampusConfig::default()
        };
        let mut store = ClaimStore::new(&config);
        assert_eq!(store.file(claim("12345678")), Ok("CW2026000101".to_owned()));
        assert_eq!(store.file(claim("87654321")), Ok("CW2026000102".to_owned()));
        assert_eq!(
            store.file(claim("12345678")),
            Err("发票号码 12345678 已在单据 CW2026000101 中报销，不能重复报销".to_owned())
        );
        assert_eq!(
            store.file(claim("11112222")),
            Err("发票号码 11112222 已在单据 CW2025000003 中报销，不能重复报销".to_owned())
        );
        assert_eq!(store.all().len(), 2);
        assert_eq!(store.of("200001")[0].claim_no, "CW2026000102");
        assert!(store.of("200002").is_empty());
    }
}
