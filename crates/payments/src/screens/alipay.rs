//! Alipay 账单详情: the payee's short name, the amount big (`-58.00`), a
//! status line (`交易成功`, `退款成功`), then rows: 支付时间/创建时间,
//! 付款方式 `招商银行信用卡(1234)`, 商品说明, 收款方全称, 订单号.

use super::fields::{self, Fields};
use super::{Spec, extract, headline_merchant_and_status};
use crate::record::{CHANNEL_ALIPAY, PaymentRecord, STATUS_REFUND};

pub const SPEC: Spec = Spec {
    headline_amount: true,
    amount_labels: &["付款金额", "实付款", "金额"],
    // 支付时间 is when the money moved; older versions only show 创建时间.
    date_labels: &[
        "支付时间",
        "付款时间",
        "创建时间",
        "交易时间",
        "退款时间",
        "退款到账时间",
    ],
    time_labels: &[],
    card_labels: fields::PAYMENT_METHOD_LABELS,
    bank_labels: &[],
    merchant_labels: &["收款方全称", "对方全称", "商户全称", "收款方", "对方账户"],
    order_labels: &["订单号"],
    status_labels: &["交易状态"],
    row_labels: &[
        "支付时间",
        "付款时间",
        "创建时间",
        "付款方式",
        "支付方式",
        "退款方式",
        "商品说明",
        "收款方全称",
        "订单号",
        "退款时间",
    ],
};

pub fn parse(f: &Fields) -> PaymentRecord {
    let x = extract(f, &SPEC);
    let mut r = x.record;
    r.channel = CHANNEL_ALIPAY.to_owned();
    headline_merchant_and_status(f, x.headline_line, x.rows_start, &mut r);
    // A refund bill says so in its status line; `+` alone could be income.
    if r.status.is_empty() && f.contains("退款成功") {
        r.status = STATUS_REFUND.to_owned();
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocr::OcrPage;

    #[test]
    fn reads_a_bill() {
        let page = OcrPage::from_text(
            "12:30 令 85%\n< 账单详情\n示例餐饮店\n-1,058.00\n交易成功\n支付时间 2025-03-11 12:03:45\n付款方式 招商银行信用卡(1234)\n商品说明 午餐\n收款方全称 示例餐饮管理有限公司\n订单号 2025031122001412345678901234\n账单分类 餐饮美食",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(r.amount, "1058.00");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2025/03/11", "12:03:45")
        );
        assert_eq!(
            (r.card_last4.as_str(), r.card_bank.as_str()),
            ("1234", "招商银行")
        );
        assert_eq!(r.merchant, "示例餐饮管理有限公司");
        assert_eq!(r.order_no, "2025031122001412345678901234");
        assert_eq!(r.status, "成功");
    }

    #[test]
    fn refund_and_header_name() {
        let page = OcrPage::from_text(
            "账单详情\n示例书店\n+36.50\n退款成功\n退款时间 2025-04-02 08:00:01\n退款方式 退回中国银行储蓄卡(0007)",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(r.status, "退款");
        assert_eq!(r.amount, "36.50");
        assert_eq!(r.merchant, "示例书店");
        assert_eq!(r.card_last4, "0007");
        assert_eq!(r.date, "2025/04/02");
    }

    #[test]
    fn refund_with_its_arrival_time_and_path() {
        // The plus read as the ideograph ten.
        let page = OcrPage::from_text(
            "账单详情\n样例超市\n十 41.28\n退款成功\n退款到账时间 2025-10-17 13:51:59\n退款路径 退回交通银行信用卡 (9467)\n收款方全称 样例商贸有限公司",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(r.amount, "41.28");
        assert_eq!(
            (r.date.as_str(), r.card_last4.as_str()),
            ("2025/10/17", "9467")
        );
        assert_eq!(r.status, "退款");
    }
}
