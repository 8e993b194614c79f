//! The claim forms as received and the accepted claims as stored and served by `/api/claims`.

use serde::{Deserialize, Serialize};

/// The 日常报销 form: every value exactly as the browser sent it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneralForm {
    pub claimant: String,
    pub employee_no: String,
    pub department: String,
    pub purpose: String,
    pub rows: Vec<GeneralRow>,
}

/// One invoice row of the general form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneralRow {
    pub invoice_number: String,
    pub invoice_date: String,
    pub item_name: String,
    /// 金额（价税合计）.
    pub amount: String,
    pub seller_name: String,
    pub card_date: String,
    pub card_number: String,
    pub card_amount: String,
}

/// The 差旅报销 form: every value exactly as the browser sent it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TravelForm {
    /// 出差人.
    pub claimant: String,
    pub employee_no: String,
    pub purpose: String,
    pub origin: String,
    pub destination: String,
    pub depart_date: String,
    pub return_date: String,
    pub rows: Vec<TravelRow>,
}

/// One ticket, hotel or other expense of the travel form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TravelRow {
    /// One of [`EXPENSE_TYPES`]' values.
    pub expense_type: String,
    pub invoice_number: String,
    pub date: String,
    pub amount: String,
    pub note: String,
}

/// The 类型 options of a travel row: (value, label).
pub const EXPENSE_TYPES: [(&str, &str); 6] = [
    ("train", "火车票"),
    ("flight", "机票"),
    ("hotel", "住宿"),
    ("taxi", "出租车"),
    ("toll", "通行费"),
    ("other", "其他"),
];

/// The Chinese label of an expense type value, or the value itself when unknown.
pub fn expense_label(value: &str) -> &str {
    EXPENSE_TYPES
        .iter()
        .find(|(v, _)| *v == value)
        .map_or(value, |(_, label)| label)
}

/// An uploaded file as recorded with its claim (the bytes themselves are not kept).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    /// The form field it came from: `invoice-files`, `outbound-file` or `attachment-files`.
    pub field: String,
    /// The file name the browser sent.
    pub name: String,
    pub size: u64,
    /// Lowercase hex SHA-256 of the content.
    pub sha256: String,
}

/// Which form a claim came from, with its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClaimDetails {
    General(GeneralForm),
    Travel(TravelForm),
}

impl ClaimDetails {
    pub fn claimant(&self) -> &str {
        match self {
            Self::General(form) => &form.claimant,
            Self::Travel(form) => &form.claimant,
        }
    }

    pub fn purpose(&self) -> &str {
        match self {
            Self::General(form) => &form.purpose,
            Self::Travel(form) => &form.purpose,
        }
    }

    /// Chinese name of the claim type.
    pub fn kind_label(&self) -> &'static str {
        match self {
            Self::General(_) => "日常报销",
            Self::Travel(_) => "差旅报销",
        }
    }

    /// Trimmed, non-empty invoice numbers with their 1-based row numbers.
    pub fn invoice_numbers(&self) -> Vec<(usize, &str)> {
        let numbers: Vec<&str> = match self {
            Self::General(form) => form
                .rows
                .iter()
                .map(|r| r.invoice_number.as_str())
                .collect(),
            Self::Travel(form) => form
                .rows
                .iter()
                .map(|r| r.invoice_number.as_str())
                .collect(),
        };
        numbers
            .into_iter()
            .enumerate()
            .map(|(i, n)| (i + 1, n.trim()))
            .filter(|(_, n)| !n.is_empty())
            .collect()
    }
}

/// An accepted claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// 报销单号, `BX` + date (UTC+8) + `-` + four-digit sequence of that day.
    pub claim_no: String,
    /// RFC 3339 time in UTC+8, e.g. `2026-11-21T14:03:05+08:00`.
    pub created_at: String,
    /// Employee number of the account that was logged in.
    pub submitted_by: String,
    #[serde(flatten)]
    pub details: ClaimDetails,
    /// Sum of the rows' amounts, two decimals.
    pub total: String,
    pub attachments: Vec<Attachment>,
}
