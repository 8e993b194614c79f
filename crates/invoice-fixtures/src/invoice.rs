//! What a VAT-style invoice prints, independent of layout: the single source from which both
//! the drawing and the golden record are made, so they cannot drift apart.

use crate::money::{self, Cents};
use crate::words;
use domain::DocumentType;

/// Buyer or seller as printed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Party {
    pub name: String,
    pub tax_id: String,
    /// 地址、电话 (old formats print it; 数电 leaves it to the remark).
    pub address_phone: String,
    /// 开户行及账号.
    pub bank_account: String,
}

/// The toll columns of an old-format 通行费 invoice.
#[derive(Debug, Clone, Default)]
pub(crate) struct TollColumns {
    pub plate: String,
    pub vehicle_type: String,
    /// YYYYMMDD as printed.
    pub date_from: String,
    pub date_to: String,
}

/// One line of the item table as printed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Item {
    /// With its `*category*` prefix; may contain spaces (they are printed, and removed in the
    /// golden record).
    pub name: String,
    pub spec: String,
    pub unit: String,
    pub quantity: String,
    pub unit_price: String,
    pub amount: Cents,
    /// `13%`, `1%`, `免税`.
    pub tax_rate: String,
    /// `None` prints `***` (tax-free lines).
    pub tax: Option<Cents>,
    pub toll: Option<TollColumns>,
}

impl Item {
    /// A line with quantity and unit price derived from the amount.
    pub(crate) fn priced(
        name: &str,
        spec: &str,
        unit: &str,
        quantity: i64,
        amount: Cents,
        percent: i64,
    ) -> Self {
        Self {
            name: name.to_owned(),
            spec: spec.to_owned(),
            unit: unit.to_owned(),
            quantity: quantity.to_string(),
            unit_price: money::unit_price(amount, quantity),
            amount,
            tax_rate: format!("{percent}%"),
            tax: Some(money::tax_at(amount, percent)),
            toll: None,
        }
    }

    /// A line printing only name, amount, rate and tax (meals, discounts).
    pub(crate) fn bare(name: &str, amount: Cents, percent: i64) -> Self {
        Self {
            name: name.to_owned(),
            amount,
            tax_rate: format!("{percent}%"),
            tax: Some(money::tax_at(amount, percent)),
            ..Self::default()
        }
    }

    /// 税额 as printed.
    pub(crate) fn tax_text(&self, thousands: bool) -> String {
        self.tax
            .map_or_else(|| "***".to_owned(), |t| money::printed(t, thousands))
    }
}

/// The currency sign a layout prints before totals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Yen {
    /// U+00A5 `¥`, drawn in Helvetica (数电).
    Half,
    /// U+FFE5 `￥`, drawn in the CJK font (old formats, railway).
    Full,
}

impl Yen {
    pub(crate) fn sign(self) -> &'static str {
        match self {
            Self::Half => "¥",
            Self::Full => "￥",
        }
    }
}

/// The producer quirks a fixture exercises.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    /// `：` or `:` after labels.
    pub colon: char,
    pub yen: Yen,
    /// Amounts printed as `1,234.00`.
    pub thousands: bool,
    /// Labels printed with Kangxi radicals for some ideographs.
    pub kangxi: bool,
    /// Labels (and the seller name) drawn one character at a time with gaps, as OFD-to-PDF
    /// converters do.
    pub spaced: bool,
    /// Every label drawn before any value, values in reverse order: drawing order is not
    /// reading order.
    pub labels_first: bool,
    /// A QR code image is printed.
    pub qr: bool,
    /// The rotated 下载次数 stamp in the right margin.
    pub download_stamp: bool,
    /// Labels drawn in a font whose text maps into the private-use area (the values stay
    /// readable): a text layer that lies, read by OCR.
    pub unmapped_labels: bool,
    /// The QR code is the Shenzhen blockchain invoice's verification address.
    pub blockchain_qr: bool,
}

impl Default for Style {
    fn default() -> Self {
        Self {
            colon: '：',
            yen: Yen::Half,
            thousands: false,
            kangxi: false,
            spaced: false,
            labels_first: false,
            qr: true,
            download_stamp: false,
            unmapped_labels: false,
            blockchain_qr: false,
        }
    }
}

/// A VAT-style invoice: 数电 普通/专用, old 增值税电子普通发票, 通行费, 通用机打发票.
#[derive(Debug, Clone, Default)]
pub(crate) struct Invoice {
    pub doc_type: DocumentType,
    /// As printed (may contain Kangxi radicals).
    pub title: String,
    pub number: String,
    /// 发票代码 (old formats).
    pub code: String,
    pub date: (u16, u8, u8),
    /// 校验码, 20 digits (old formats).
    pub check_code: String,
    /// 机器编号 (old formats).
    pub machine_no: String,
    /// 密码区 lines (old formats).
    pub cipher: Vec<String>,
    pub buyer: Party,
    pub seller: Party,
    pub items: Vec<Item>,
    /// The amount 大写 spells when it deliberately disagrees with 小写.
    pub words_amount: Option<Cents>,
    /// One line, printed in 备注.
    pub remark: String,
    pub issuer: String,
    pub payee: String,
    pub reviewer: String,
    /// The seed-derived tail of the QR payload.
    pub qr_tail: String,
    /// Items on the first page of a two-page 数电 invoice (0: one page).
    pub first_page_items: usize,
    pub style: Style,
}

impl Invoice {
    /// 合计 金额.
    pub(crate) fn total_amount(&self) -> Cents {
        self.items.iter().map(|i| i.amount).sum()
    }

    /// 合计 税额 (`***` lines count as 0).
    pub(crate) fn total_tax(&self) -> Cents {
        self.items.iter().filter_map(|i| i.tax).sum()
    }

    /// 价税合计.
    pub(crate) fn total(&self) -> Cents {
        self.total_amount() + self.total_tax()
    }

    /// 价税合计（大写） as printed.
    pub(crate) fn words(&self) -> String {
        words::in_words(self.words_amount.unwrap_or_else(|| self.total()))
    }

    /// An amount as this invoice prints it.
    pub(crate) fn amount_text(&self, cents: Cents) -> String {
        money::printed(cents, self.style.thousands)
    }

    /// A label as this invoice prints it: Kangxi radicals when the style asks for them.
    pub(crate) fn label(&self, text: &str) -> String {
        if self.style.kangxi {
            crate::text::kangxi(text)
        } else {
            text.to_owned()
        }
    }

    /// A label followed by the invoice's colon.
    pub(crate) fn label_colon(&self, text: &str) -> String {
        format!("{}{}", self.label(text), self.style.colon)
    }

    /// The check code in groups of five, as old formats print it.
    pub(crate) fn check_code_groups(&self) -> Vec<String> {
        let chars: Vec<char> = self.check_code.chars().collect();
        chars.chunks(5).map(|c| c.iter().collect()).collect()
    }

    /// The pages' item ranges.
    pub(crate) fn page_items(&self) -> Vec<&[Item]> {
        if self.first_page_items == 0 || self.first_page_items >= self.items.len() {
            vec![&self.items[..]]
        } else {
            let (first, rest) = self.items.split_at(self.first_page_items);
            vec![first, rest]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_and_words() {
        let invoice = Invoice {
            items: vec![
                Item::bare("*餐饮服务*餐饮费", 14_455, 1),
                Item {
                    tax: None,
                    tax_rate: "免税".into(),
                    amount: 1000,
                    ..Item::default()
                },
            ],
            ..Invoice::default()
        };
        assert_eq!(invoice.total_amount(), 15_455);
        assert_eq!(invoice.total_tax(), 145);
        assert_eq!(invoice.total(), 15_600);
        assert_eq!(invoice.words(), "壹佰伍拾陆圆整");
        assert_eq!(invoice.items[1].tax_text(false), "***");
        assert_eq!(invoice.page_items().len(), 1);
    }
}
