//! The 13-column invoice row of invoice_summary.csv, in the interface's order and names.

use serde::{Deserialize, Serialize};

/// Column names of the invoice table, in the order the interface fixes.
pub const COLUMNS: [&str; 13] = [
    "序号",
    "发票号码",
    "开票日期",
    "项目名称",
    "规格型号",
    "价税合计",
    "销售方名称",
    "人员姓名",
    "刷卡日期",
    "公务卡号",
    "刷卡金额",
    "备注",
    "工号",
];

/// One row of the invoice table. Every cell is a string and may be empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct InvoiceRow {
    /// 序号: the row's number, from 1.
    #[serde(rename = "序号")]
    pub seq: String,
    /// 发票号码: the invoice number.
    #[serde(rename = "发票号码")]
    pub invoice_number: String,
    /// 开票日期: the issue date, `YYYY/MM/DD`.
    #[serde(rename = "开票日期")]
    pub invoice_date: String,
    /// 项目名称: the first item's name (or the trip of a ticket).
    #[serde(rename = "项目名称")]
    pub item_name: String,
    /// 规格型号: the first item's specification (or a ticket's seat class).
    #[serde(rename = "规格型号")]
    pub spec: String,
    /// 价税合计: the total with tax, two decimals.
    #[serde(rename = "价税合计")]
    pub total_with_tax: String,
    /// 销售方名称: the seller.
    #[serde(rename = "销售方名称")]
    pub seller_name: String,
    /// 人员姓名: the claimant, from the session configuration.
    #[serde(rename = "人员姓名")]
    pub person_name: String,
    /// 刷卡日期: the day the card payment was made, from a screenshot.
    #[serde(rename = "刷卡日期")]
    pub card_date: String,
    /// 公务卡号: the official card paid with.
    #[serde(rename = "公务卡号")]
    pub card_number: String,
    /// 刷卡金额: the amount paid by card.
    #[serde(rename = "刷卡金额")]
    pub card_amount: String,
    /// 备注: further items, the passenger, and what needs a human look.
    #[serde(rename = "备注")]
    pub remark: String,
    /// 工号: the claimant's employee number.
    #[serde(rename = "工号")]
    pub employee_id: String,
}

impl InvoiceRow {
    /// The cells in column order.
    pub fn cells(&self) -> [&str; 13] {
        [
            &self.seq,
            &self.invoice_number,
            &self.invoice_date,
            &self.item_name,
            &self.spec,
            &self.total_with_tax,
            &self.seller_name,
            &self.person_name,
            &self.card_date,
            &self.card_number,
            &self.card_amount,
            &self.remark,
            &self.employee_id,
        ]
    }

    /// The row with its person columns from the session configuration, as the service's
    /// table holds it: 人员姓名 is `default_name`; 工号 is `default_person_id`, else the
    /// finance-system `username` (which is the employee number).
    pub fn with_claimant(mut self, config: &crate::SessionConfig) -> Self {
        self.person_name = config.default_name.clone();
        self.employee_id = if config.default_person_id.is_empty() {
            config.username.clone()
        } else {
            config.default_person_id.clone()
        };
        self
    }

    /// The cells by column name (the shape `agent`'s rows and the CSV table use).
    pub fn keyed(&self) -> std::collections::BTreeMap<String, String> {
        COLUMNS
            .iter()
            .zip(self.cells())
            .map(|(column, cell)| ((*column).to_owned(), cell.to_owned()))
            .collect()
    }

    /// Builds a row from a lookup by column name; absent columns stay empty.
    pub fn from_lookup<'a>(mut cell: impl FnMut(&str) -> Option<&'a str>) -> Self {
        let mut take = |name: &str| cell(name).unwrap_or_default().to_owned();
        Self {
            seq: take(COLUMNS[0]),
            invoice_number: take(COLUMNS[1]),
            invoice_date: take(COLUMNS[2]),
            item_name: take(COLUMNS[3]),
            spec: take(COLUMNS[4]),
            total_with_tax: take(COLUMNS[5]),
            seller_name: take(COLUMNS[6]),
            person_name: take(COLUMNS[7]),
            card_date: take(COLUMNS[8]),
            card_number: take(COLUMNS[9]),
            card_amount: take(COLUMNS[10]),
            remark: take(COLUMNS[11]),
            employee_id: take(COLUMNS[12]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serialises_with_the_chinese_column_names_in_order() {
        let row = InvoiceRow {
            seq: "1".into(),
            total_with_tax: "146.00".into(),
            ..InvoiceRow::default()
        };
        let json = serde_json::to_value(&row).unwrap();
        let keys: Vec<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let mut sorted_columns = COLUMNS.to_vec();
        sorted_columns.sort_unstable();
        let mut sorted_keys = keys.clone();
        sorted_keys.sort_unstable();
        assert_eq!(sorted_keys, sorted_columns);
        assert_eq!(json["价税合计"], "146.00");
    }

    #[test]
    fn cells_follow_column_order() {
        let row = InvoiceRow::from_lookup(|name| COLUMNS.iter().find(|c| **c == name).copied());
        assert_eq!(row.cells(), COLUMNS);
    }

    #[test]
    fn lookup_leaves_missing_columns_empty() {
        let row = InvoiceRow::from_lookup(|name| (name == "备注").then_some("x"));
        assert_eq!(row.remark, "x");
        assert_eq!(row.seq, "");
    }
}
