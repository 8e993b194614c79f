//! Travel or general: the class that decides the document and the reimbursement flow.

use serde::{Deserialize, Serialize};

/// The class of an invoice, as `reimburse-classify` decides it: a travel claim (差旅报销) or a
/// general one (日常报销).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvoiceKind {
    /// Rail, flights and air-ticket agency fees, hotel stays, taxi and ride-hailing, tolls.
    Travel,
    /// Everything else (office supplies, consumables, meals, …).
    #[default]
    General,
}

impl InvoiceKind {
    /// The wire name: `travel` or `general`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Travel => "travel",
            Self::General => "general",
        }
    }
}
