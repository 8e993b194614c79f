//! The claim forms as received and the accepted claims as stored and served by `/api/claims`.

use serde::{Deserialize, Serialize};

/// The 日常报销 form: every value exactly as the browser sent it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneralForm {
    /// 报销人.
    pub claimant: String,
    /// 工号.
    pub employee_no: String,
    /// 部门, one of the configured departments.
    pub department: String,
    /// 报销事由.
    pub purpose: String,
    /// The invoice rows, in the order submitted.
    pub rows: Vec<GeneralRow>,
}

/// One invoice row of the general form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GeneralRow {
    /// 发票号码.
    pub invoice_number: String,
    /// 开票日期.
    pub invoice_date: String,
    /// 项目名称.
    pub item_name: String,
    /// 金额（价税合计）.
    pub amount: String,
    /// 销售方名称.
    pub seller_name: String,
    /// 刷卡日期 (optional).
    pub card_date: String,
    /// 公务卡号 (optional): the last 4 digits or the whole number.
    pub card_number: String,
    /// 刷卡金额 (optional).
    pub card_amount: String,
}

/// The 差旅报销 form: every value exactly as the browser sent it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TravelForm {
    /// 出差人.
    pub claimant: String,
    /// 工号.
    pub employee_no: String,
    /// 出差事由.
    pub purpose: String,
    /// 出发地.
    pub origin: String,
    /// 目的地.
    pub destination: String,
    /// 出发日期.
    pub depart_date: String,
    /// 返回日期.
    pub return_date: String,
    /// The expense rows, in the order submitted.
    pub rows: Vec<TravelRow>,
}

/// One ticket, hotel or other expense of the travel form.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TravelRow {
    /// One of [`EXPENSE_TYPES`]' values.
    pub expense_type: String,
    /// 发票号码 (optional: a taxi receipt may have none).
    pub invoice_number: String,
    /// 日期.
    pub date: String,
    /// 金额.
    pub amount: String,
    /// 说明 (optional).
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
    /// Its size in bytes.
    pub size: u64,
    /// Lowercase hex SHA-256 of the content.
    pub sha256: String,
}

/// Which form a claim came from, with its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ClaimDetails {
    /// A 日常报销 claim.
    General(GeneralForm),
    /// A 差旅报销 claim.
    Travel(TravelForm),
}

impl ClaimDetails {
    /// 报销人 or 出差人.
    pub fn claimant(&self) -> &str {
        match self {
            Self::General(form) => &form.claimant,
            Self::Travel(form) => &form.claimant,
        }
    }

    /// 报销事由 or 出差事由.
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
    /// The form it came from, with every value as received.
    #[serde(flatten)]
    pub details: ClaimDetails,
    /// Sum of the rows' amounts, two decimals.
    pub total: String,
    /// The files uploaded with it.
    pub attachments: Vec<Attachment>,
}
