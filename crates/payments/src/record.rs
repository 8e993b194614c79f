//! The payment record: what one screenshot says about one payment, produced
//! alike by the offline OCR path and by the LLM path.

use serde::{Deserialize, Serialize};

use crate::{amount, card, date, text};

/// `amount` in [`PaymentRecord::unreadable`] (the field's serde name).
pub const FIELD_AMOUNT: &str = "amount";
/// `date` in [`PaymentRecord::unreadable`].
pub const FIELD_DATE: &str = "date";
/// `time` in [`PaymentRecord::unreadable`].
pub const FIELD_TIME: &str = "time";
/// `card_last4` in [`PaymentRecord::unreadable`].
pub const FIELD_CARD_LAST4: &str = "card_last4";
/// `merchant` in [`PaymentRecord::unreadable`].
pub const FIELD_MERCHANT: &str = "merchant";

/// [`PaymentRecord::status`] of a payment made.
pub const STATUS_SUCCESS: &str = "成功";
/// [`PaymentRecord::status`] of a refund.
pub const STATUS_REFUND: &str = "退款";
/// [`PaymentRecord::status`] of a failed payment.
pub const STATUS_FAILED: &str = "失败";
/// [`PaymentRecord::status`] of a payment still in progress.
pub const STATUS_PENDING: &str = "处理中";
/// [`PaymentRecord::status`] of a closed (cancelled) transaction.
pub const STATUS_CLOSED: &str = "关闭";

/// [`PaymentRecord::channel`] of an Alipay screen.
pub const CHANNEL_ALIPAY: &str = "支付宝";
/// [`PaymentRecord::channel`] of a WeChat screen.
pub const CHANNEL_WECHAT: &str = "微信支付";
/// [`PaymentRecord::channel`] of a 云闪付 (UnionPay app) screen.
pub const CHANNEL_UNIONPAY: &str = "云闪付";
/// [`PaymentRecord::channel`] of a POS slip.
pub const CHANNEL_POS: &str = "POS";
/// The end of [`PaymentRecord::channel`] for a bank app: `<bank name>手机银行`.
pub const CHANNEL_BANK_SUFFIX: &str = "手机银行";

/// One payment as read from one screenshot.
///
/// Every string is empty when the screen does not show the field or it could
/// not be read: a value is never guessed. `unreadable` names the key fields
/// (amount, date, time, card_last4, merchant) left empty, so a caller knows
/// what to ask a person (or the LLM) for.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PaymentRecord {
    /// Stored file name of the screenshot.
    pub file: String,
    /// Amount paid, positive, two decimals (`58.00`); a refund keeps the
    /// positive amount and says so in `status`.
    pub amount: String,
    /// `YYYY/MM/DD`.
    pub date: String,
    /// `HH:MM` or `HH:MM:SS`.
    pub time: String,
    /// Last four digits of the card paid with.
    pub card_last4: String,
    /// Full card number, digits only, when the screen shows it unmasked.
    pub card_number: String,
    /// Issuing bank as shown (`招商银行`).
    pub card_bank: String,
    /// Payee as shown (full name preferred over the short one).
    pub merchant: String,
    /// `支付宝`, `微信支付`, `云闪付`, `<bank>手机银行` or `POS`.
    pub channel: String,
    /// Order or transaction number as shown (a slip's 参考号).
    pub order_no: String,
    /// `成功`, `退款`, `失败`, `处理中`, `关闭`, or empty when not shown.
    pub status: String,
    /// The screenshot shows no payment at all (a chat, a photo).
    pub no_payment: bool,
    /// The key fields left empty (`FIELD_*` names), for a person to supply.
    pub unreadable: Vec<String>,
}

impl PaymentRecord {
    /// A record for a screenshot that shows no payment.
    pub fn no_payment(file: &str) -> Self {
        Self {
            file: file.to_owned(),
            no_payment: true,
            ..Self::default()
        }
    }

    /// Whether matching may use this record: a successful (or not stated)
    /// payment with an amount.
    pub fn is_payment(&self) -> bool {
        !self.no_payment
            && !self.amount.is_empty()
            && (self.status.is_empty() || self.status == STATUS_SUCCESS)
    }

    /// Amount in cents, if the amount is well-formed.
    pub fn amount_cents(&self) -> Option<i64> {
        amount::parse_plain(&self.amount)
    }

    /// Brings every field to its canonical form and drops what is not
    /// well-formed (an amount that is not a number, a date that does not
    /// exist, a last-four that is not four digits), then recomputes
    /// `unreadable`. Meant for records that come from outside the OCR path
    /// (an LLM's JSON), so both paths hand matching the same shapes.
    #[must_use]
    pub fn sanitized(mut self) -> Self {
        self.amount = amount::parse_plain(&text::normalize(&self.amount))
            .map(|c| domain::format_cents(c.abs()))
            .unwrap_or_default();
        self.date = date::find_date(&text::normalize(&self.date))
            .map(|d| d.to_string())
            .unwrap_or_default();
        self.time = date::find_time(&text::normalize(&self.time)).unwrap_or_default();
        let digits: String = self
            .card_number
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        self.card_number = if card::is_plausible_card_number(&digits) {
            digits
        } else {
            String::new()
        };
        let last4: String = self
            .card_last4
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        self.card_last4 = if last4.len() == 4 {
            last4
        } else if let Some(tail) = self
            .card_number
            .get(self.card_number.len().saturating_sub(4)..)
        {
            tail.to_owned()
        } else {
            String::new()
        };
        if !self.card_number.is_empty() && !self.card_number.ends_with(&self.card_last4) {
            self.card_number.clear();
        }
        for field in [
            &mut self.card_bank,
            &mut self.merchant,
            &mut self.channel,
            &mut self.order_no,
            &mut self.status,
        ] {
            *field = text::normalize(field).trim().to_owned();
        }
        if self.no_payment {
            let file = std::mem::take(&mut self.file);
            return Self::no_payment(&file);
        }
        self.fill_unreadable();
        self
    }

    /// Empties a date after `today` (days since 1970-01-01 in the civil calendar), with a
    /// day's grace for time zones: no payment happened in the future, so such a date is a
    /// misread digit (`2028` for `2024`).
    pub fn drop_future_date(&mut self, today: i64) {
        let future = date::Date::parse(&self.date).is_some_and(|d| d.day_number() > today + 1);
        if future {
            self.date.clear();
            self.time.clear();
            self.fill_unreadable();
        }
    }

    /// Recomputes `unreadable` from the key fields that are empty.
    pub fn fill_unreadable(&mut self) {
        self.unreadable.clear();
        if self.no_payment {
            return;
        }
        for (name, value) in [
            (FIELD_AMOUNT, &self.amount),
            (FIELD_DATE, &self.date),
            (FIELD_TIME, &self.time),
            (FIELD_CARD_LAST4, &self.card_last4),
            (FIELD_MERCHANT, &self.merchant),
        ] {
            if value.is_empty() {
                self.unreadable.push(name.to_owned());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_future_date_is_a_misread() {
        let today = date::Date::new(2026, 11, 22).map_or(0, date::Date::day_number);
        let mut r = PaymentRecord {
            date: "2028/12/12".into(),
            time: "10:00".into(),
            ..PaymentRecord::default()
        };
        r.drop_future_date(today);
        assert_eq!((r.date.as_str(), r.time.as_str()), ("", ""));
        assert!(r.unreadable.iter().any(|f| f == "date"));
        let mut r = PaymentRecord {
            date: "2026/11/23".into(),
            ..PaymentRecord::default()
        };
        r.drop_future_date(today);
        assert_eq!(r.date, "2026/11/23", "a day's grace for time zones");
    }

    #[test]
    fn sanitized_canonicalises_llm_output() {
        let raw = PaymentRecord {
            file: "a.png".into(),
            amount: "-￥1,058.5".into(),
            date: "2025年3月1日".into(),
            time: "9:05".into(),
            card_number: "6200 0000 0000 1235".into(),
            card_last4: "".into(),
            merchant: " 示例餐饮有限公司 ".into(),
            ..PaymentRecord::default()
        };
        let r = raw.sanitized();
        assert_eq!(r.amount, "1058.50");
        assert_eq!(r.date, "2025/03/01");
        assert_eq!(r.time, "09:05");
        assert_eq!(r.card_number, "6200000000001235");
        assert_eq!(r.card_last4, "1235");
        assert_eq!(r.merchant, "示例餐饮有限公司");
        assert!(r.unreadable.is_empty());
    }

    #[test]
    fn sanitized_drops_malformed_values() {
        let raw = PaymentRecord {
            amount: "about fifty".into(),
            date: "2025/02/30".into(),
            card_last4: "12".into(),
            ..PaymentRecord::default()
        };
        let r = raw.sanitized();
        assert_eq!(r.amount, "");
        assert_eq!(r.date, "");
        assert_eq!(r.card_last4, "");
        assert!(r.unreadable.contains(&FIELD_AMOUNT.to_owned()));
    }

    #[test]
    fn deserializes_partial_json() {
        let r: PaymentRecord =
            serde_json::from_str(r#"{"amount":"58.00","no_payment":false}"#).unwrap_or_default();
        assert_eq!(r.amount, "58.00");
        assert_eq!(r.date, "");
    }
}
