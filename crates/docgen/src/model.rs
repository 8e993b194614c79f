//! The data printed on the outbound-stock document: header fields, items, and the totals
//! computed from the items.

use serde::{Deserialize, Serialize};

use crate::error::DocError;
use domain::{AmountError, Cents};

/// One outbound-stock document (易耗品出库单).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutboundDoc {
    /// The document date as `YYYY/MM/DD` (the interface's date format). `{{日期}}` prints it as
    /// `2025年03月11日`; a string in another shape is printed unchanged.
    pub date: String,
    /// 领用人: the person taking the consumables (the claimant).
    pub claimant: String,
    /// 部门.
    pub department: String,
    /// 存放地点: the session's `consumable_storage`.
    pub storage: String,
    /// The item lines, printed in this order, one table row each.
    pub items: Vec<OutboundItem>,
}

/// One line of the document. All fields are strings as printed on the invoice and are printed
/// unchanged; only `amount` is also read, to compute the totals.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutboundItem {
    /// 名称.
    pub name: String,
    /// 规格型号.
    pub spec: String,
    /// 单位.
    pub unit: String,
    /// 数量.
    pub quantity: String,
    /// 单价.
    pub unit_price: String,
    /// 金额: decimal yuan, e.g. `655.00`.
    pub amount: String,
}

/// The totals row of the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    /// Sum of the item amounts, exact to the cent.
    pub cents: Cents,
    /// `{{合计金额}}`: the sum with two decimals, e.g. `655.00`.
    pub amount: String,
    /// `{{合计大写}}`: the sum in Chinese capitals, e.g. `陆佰伍拾伍元整`.
    pub capital: String,
}

impl OutboundDoc {
    /// Adds up the item amounts in integer cents. An amount that is not a number is an error
    /// naming the item, because a wrong total on a finance document is worse than none.
    pub fn totals(&self) -> Result<Totals, DocError> {
        let mut sum = Cents(0);
        for (position, item) in self.items.iter().enumerate() {
            let bad = |error: AmountError| match error {
                AmountError::TooLarge => DocError::TotalTooLarge,
                AmountError::NotANumber | AmountError::SubCent => DocError::BadAmount {
                    index: position + 1,
                    name: item.name.clone(),
                    value: item.amount.clone(),
                },
            };
            let cents = Cents::parse(&item.amount).map_err(bad)?;
            sum = sum.checked_add(cents).ok_or(DocError::TotalTooLarge)?;
        }
        Ok(Totals {
            cents: sum,
            amount: sum.to_string(),
            capital: sum.to_capital(),
        })
    }

    /// The date as printed by `{{日期}}`: `2025/03/11` becomes `2025年03月11日` (also accepted
    /// with `-` or `.` separators); anything else is printed as given.
    pub fn date_text(&self) -> String {
        let date = self.date.trim();
        let parts: Vec<&str> = date.split(['/', '-', '.']).collect();
        match parts.as_slice() {
            [y, m, d]
                if y.len() == 4
                    && (1..=2).contains(&m.len())
                    && (1..=2).contains(&d.len())
                    && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit())) =>
            {
                format!("{y}年{m:0>2}月{d:0>2}日")
            }
            _ => date.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(name: &str, amount: &str) -> OutboundItem {
        OutboundItem {
            name: name.to_owned(),
            amount: amount.to_owned(),
            ..OutboundItem::default()
        }
    }

    #[test]
    fn totals_add_up_to_the_cent() {
        let doc = OutboundDoc {
            items: vec![
                item("A4纸", "255.10"),
                item("墨盒", "399.90"),
                item("笔", "0.00"),
            ],
            ..OutboundDoc::default()
        };
        let totals = doc.totals().unwrap();
        assert_eq!(totals.cents, Cents(65_500));
        assert_eq!(totals.amount, "655.00");
        assert_eq!(totals.capital, "陆佰伍拾伍元整");
    }

    #[test]
    fn totals_with_a_discount_line() {
        let doc = OutboundDoc {
            items: vec![item("键盘", "199.00"), item("折扣", "-19.90")],
            ..OutboundDoc::default()
        };
        assert_eq!(doc.totals().unwrap().amount, "179.10");
    }

    #[test]
    fn no_items_total_zero() {
        let totals = OutboundDoc::default().totals().unwrap();
        assert_eq!(totals.amount, "0.00");
        assert_eq!(totals.capital, "零元整");
    }

    #[test]
    fn a_bad_amount_names_the_item() {
        let doc = OutboundDoc {
            items: vec![item("A4纸", "25"), item("墨盒", "三十")],
            ..OutboundDoc::default()
        };
        let error = doc.totals().unwrap_err();
        assert_eq!(
            error.to_string(),
            "第 2 项物品（墨盒）的金额无法识别：“三十”"
        );
    }

    #[test]
    fn date_is_printed_in_chinese() {
        let mut doc = OutboundDoc {
            date: "2025/03/11".to_owned(),
            ..OutboundDoc::default()
        };
        assert_eq!(doc.date_text(), "2025年03月11日");
        doc.date = "2025-3-1".to_owned();
        assert_eq!(doc.date_text(), "2025年03月01日");
        doc.date = "2025年3月1日".to_owned();
        assert_eq!(doc.date_text(), "2025年3月1日");
        doc.date = String::new();
        assert_eq!(doc.date_text(), "");
    }
}
