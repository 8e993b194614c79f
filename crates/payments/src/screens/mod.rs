//! Screen types and their parsers: detection picks the type by keywords,
//! then a per-type spec of labels drives one shared extractor, with the
//! type's own touches (headline amount, status line, merchant header).

pub mod alipay;
pub mod bank;
pub mod detect;
pub mod fields;
pub mod pos;
pub mod unionpay;
pub mod wechat;

use serde::{Deserialize, Serialize};

use crate::amount::{self, AmountHit};
use crate::card;
use crate::ocr::OcrPage;
use crate::record::PaymentRecord;
use crate::text;
use fields::Fields;

/// The kinds of screenshot recognised.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScreenType {
    /// Alipay 账单详情.
    AlipayBill,
    /// WeChat 账单详情.
    WechatBill,
    /// WeChat's 支付成功 page right after paying.
    WechatSuccess,
    /// 云闪付 (UnionPay app) transaction details.
    Unionpay,
    /// A bank app's card transaction details.
    BankCard,
    /// A photo of a POS slip (签购单).
    PosSlip,
    /// Payment words and an amount, but no known layout.
    Other,
    /// No payment on the screen (a chat, a photo).
    NoPayment,
}

impl ScreenType {
    /// Every type, in table order.
    pub const ALL: [Self; 8] = [
        Self::AlipayBill,
        Self::WechatBill,
        Self::WechatSuccess,
        Self::Unionpay,
        Self::BankCard,
        Self::PosSlip,
        Self::Other,
        Self::NoPayment,
    ];

    /// Snake-case name, also the fixture file prefix.
    pub fn name(self) -> &'static str {
        match self {
            Self::AlipayBill => "alipay_bill",
            Self::WechatBill => "wechat_bill",
            Self::WechatSuccess => "wechat_success",
            Self::Unionpay => "unionpay",
            Self::BankCard => "bank_card",
            Self::PosSlip => "pos_slip",
            Self::Other => "other",
            Self::NoPayment => "no_payment",
        }
    }
}

/// Labels one screen type uses for each field, preferred first.
#[derive(Debug)]
pub struct Spec {
    /// Bill screens show the amount big and unlabelled above the rows.
    pub headline_amount: bool,
    pub amount_labels: &'static [&'static str],
    pub date_labels: &'static [&'static str],
    /// Where the time stands apart from the date.
    pub time_labels: &'static [&'static str],
    pub card_labels: &'static [&'static str],
    pub bank_labels: &'static [&'static str],
    pub merchant_labels: &'static [&'static str],
    pub order_labels: &'static [&'static str],
    pub status_labels: &'static [&'static str],
    /// Labels that start the rows below the headline.
    pub row_labels: &'static [&'static str],
}

/// What the shared extractor found, with positions the screen parsers use.
#[derive(Debug)]
pub struct Extracted {
    pub record: PaymentRecord,
    /// The amount as found (sign, currency).
    pub amount: Option<AmountHit>,
    /// Line of the headline amount, when the amount came from there.
    pub headline_line: Option<usize>,
    /// First labelled row.
    pub rows_start: usize,
}

/// Fills a record from the labels of `spec`.
pub fn extract(f: &Fields, spec: &Spec) -> Extracted {
    let mut r = PaymentRecord::default();
    let rows_start = f.first_label_line(spec.row_labels).unwrap_or(f.lines.len());
    let headline = if spec.headline_amount {
        f.headline_amount(rows_start.max(1))
    } else {
        None
    };
    let (hit, headline_line) = match headline {
        Some((line, hit)) => (Some(hit), Some(line)),
        None => {
            // With a discount on the screen, the order total is not what
            // was paid: only a paid-amount label (or the headline) counts.
            let labels: Vec<&str> = if f.has_discount() {
                spec.amount_labels
                    .iter()
                    .copied()
                    .filter(|l| !fields::ORDER_TOTAL_LABELS.contains(l))
                    .collect()
            } else {
                spec.amount_labels.to_vec()
            };
            let labeled = f
                .labeled_amount(&labels)
                .or_else(|| f.amount_under_column_label(&labels));
            // Bank screens sometimes also headline the amount: fall back to it.
            let fallback = || f.headline_amount(rows_start.max(1));
            match labeled {
                Some(hit) => (Some(hit), None),
                None if !spec.headline_amount => match fallback() {
                    Some((line, hit)) => (Some(hit), Some(line)),
                    None => (None, None),
                },
                None => (None, None),
            }
        }
    };
    if let Some(hit) = hit {
        r.amount = amount::format_cents(hit.cents);
    }
    if let Some(dt) = f.date_time(spec.date_labels, spec.time_labels) {
        r.date = dt.date.to_string();
        r.time = dt.time;
    }
    if let Some(c) = f.card(spec.card_labels) {
        r.card_last4 = c.last4;
        r.card_number = c.number;
        r.card_bank = c.bank;
    }
    if r.card_bank.is_empty()
        && let Some(bank) = spec
            .bank_labels
            .iter()
            .find_map(|l| f.text(&[l]).and_then(|v| card::find_bank(&v)))
    {
        r.card_bank = bank;
    }
    if let Some(m) = f.text(spec.merchant_labels) {
        r.merchant = clean_merchant(&m);
    }
    if let Some(o) = f.code(spec.order_labels) {
        r.order_no = o;
    }
    if let Some(s) = spec
        .status_labels
        .iter()
        .find_map(|l| f.text(&[l]).and_then(|v| fields::status_of(&v)))
    {
        r.status = s.to_owned();
    }
    Extracted {
        record: r,
        amount: hit,
        headline_line,
        rows_start,
    }
}

/// A merchant name as OCR gives it, without its trailing arrows and icons.
pub fn clean_merchant(s: &str) -> String {
    let joined = text::join_cjk(s);
    let t = text::trim_value(&joined);
    let t = t.trim_end_matches(|c: char| !c.is_alphanumeric() && c != ')' && c != '）');
    t.to_owned()
}

/// The short payee name a bill screen shows above its amount.
pub fn header_merchant(f: &Fields, amount_line: usize) -> Option<String> {
    let line = f.lines.get(amount_line.checked_sub(1)?)?;
    let compact = text::compact(line);
    let cjk_or_alpha = compact
        .chars()
        .filter(|c| text::is_cjk(*c) || c.is_ascii_alphabetic())
        .count();
    let is_title = ["账单详情", "交易详情", "支付成功", "详情"]
        .iter()
        .any(|t| compact.contains(t));
    (cjk_or_alpha >= 2 && !is_title).then(|| clean_merchant(line))
}

/// A bill screen's touches from its headline: the short payee name above
/// the amount (when no row named the merchant) and the status under it
/// (when no row gave one).
pub fn headline_merchant_and_status(
    f: &Fields,
    headline_line: Option<usize>,
    rows_start: usize,
    r: &mut PaymentRecord,
) {
    let Some(line) = headline_line else { return };
    if r.merchant.is_empty() {
        r.merchant = header_merchant(f, line).unwrap_or_default();
    }
    if r.status.is_empty() {
        r.status = fields::status_line(f, line, rows_start.max(line + 3))
            .unwrap_or_default()
            .to_owned();
    }
}

/// A page parsed into a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed {
    pub screen: ScreenType,
    pub record: PaymentRecord,
    /// Fields (`amount`, `card_last4`) read only from words tesseract
    /// doubted: to be confirmed by another pass, else dropped.
    pub tentative: Vec<&'static str>,
    /// Amounts (cents) the page names as something else than the payment
    /// (a balance, a discounted order's total).
    pub not_paid: Vec<i64>,
}

/// Detects the screen type and parses the page into a record.
pub fn parse(file: &str, page: &OcrPage) -> Parsed {
    let f = Fields::new(page);
    let screen = detect::detect(&f);
    let mut record = match screen {
        ScreenType::AlipayBill => alipay::parse(&f),
        ScreenType::WechatBill => wechat::parse_bill(&f),
        ScreenType::WechatSuccess => wechat::parse_success(&f),
        ScreenType::Unionpay => unionpay::parse(&f),
        ScreenType::BankCard => bank::parse(&f),
        ScreenType::PosSlip => pos::parse(&f),
        ScreenType::Other => bank::parse_other(&f),
        ScreenType::NoPayment => PaymentRecord::no_payment(file),
    };
    if screen != ScreenType::NoPayment
        && record.amount.is_empty()
        && record.date.is_empty()
        && record.card_last4.is_empty()
    {
        // Keywords alone made it look like a payment; nothing was read.
        tracing::debug!(file, screen = screen.name(), "no payment field read");
    }
    record.file = file.to_owned();
    let not_paid = f.not_paid_amounts();
    if record
        .amount_cents()
        .is_some_and(|c| not_paid.contains(&c.abs()))
    {
        record.amount.clear();
    }
    record.fill_unreadable();
    let mut tentative = Vec::new();
    let cents = record.amount_cents();
    if cents.is_some()
        && !f.shown_confidently(|l| {
            amount::find_amounts(l)
                .iter()
                .any(|h| Some(h.cents) == cents)
        })
    {
        tentative.push(crate::record::FIELD_AMOUNT);
    }
    let last4 = record.card_last4.clone();
    // Also when the number it ends fails its check digit: the misread digit
    // may be one of the four (`6200 0000 0000 0000 059` read `6206 0000
    // 6006 0600 659`).
    if !last4.is_empty()
        && (!f.shown_confidently(|l| text::compact(l).contains(&last4))
            || f.lines
                .iter()
                .any(|l| card::unchecked_number_ends_with(l, &last4)))
    {
        tentative.push(crate::record::FIELD_CARD_LAST4);
    }
    Parsed {
        screen,
        record,
        tentative,
        not_paid,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bank_page(card: &str) -> OcrPage {
        OcrPage::from_text(&format!(
            "交易详情\n浦发银行\n交易卡号: {card}\n交易金额 -529.21\n交易日期 2024-11-16\n交易时间 15:44:11\n对方户名 示例餐饮管理有限公司"
        ))
    }

    #[test]
    fn a_last_four_ending_a_number_that_fails_its_check_digit_is_tentative() {
        let misread = parse("b.png", &bank_page("6206 0000 6006 0600 659"));
        assert_eq!(misread.record.card_last4, "0659");
        assert!(misread.tentative.contains(&crate::record::FIELD_CARD_LAST4));
        let read = parse("b.png", &bank_page("6200 0000 0000 0000 059"));
        assert_eq!(read.record.card_last4, "0059");
        assert!(read.tentative.is_empty());
    }
}
