//! 云闪付 (UnionPay app) transaction details: payee, amount big, status,
//! then 交易时间, 付款卡 `招商银行信用卡(1234)` or `尾号1234`, 交易类型,
//! 商户名称, 订单编号.

use super::fields::{self, Fields};
use super::{Spec, extract, header_merchant};
use crate::record::{CHANNEL_UNIONPAY, PaymentRecord};

pub const SPEC: Spec = Spec {
    headline_amount: true,
    amount_labels: &["实付金额", "支付金额", "交易金额", "订单金额", "金额"],
    date_labels: &["交易时间", "支付时间", "付款时间", "创建时间", "订单时间"],
    time_labels: &[],
    card_labels: &[
        "付款卡",
        "支付卡",
        "付款方式",
        "支付方式",
        "银行卡",
        "交易卡号",
        "卡号",
    ],
    bank_labels: &[],
    merchant_labels: &["商户名称", "收款方", "商户全称", "收款方名称"],
    order_labels: &["订单编号", "订单号", "交易流水号", "流水号"],
    status_labels: &["交易状态", "订单状态", "交易类型"],
    row_labels: &[
        "交易时间",
        "支付时间",
        "付款卡",
        "支付卡",
        "付款方式",
        "支付方式",
        "交易类型",
        "商户名称",
        "订单编号",
        "交易状态",
    ],
};

pub fn parse(f: &Fields) -> PaymentRecord {
    let x = extract(f, &SPEC);
    let mut r = x.record;
    r.channel = CHANNEL_UNIONPAY.to_owned();
    if let Some(line) = x.headline_line {
        if r.merchant.is_empty() {
            r.merchant = header_merchant(f, line).unwrap_or_default();
        }
        // The status line under the amount is more specific than 交易类型.
        if let Some(s) = fields::status_line(f, line, x.rows_start.max(line + 3)) {
            r.status = s.to_owned();
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocr::OcrPage;

    #[test]
    fn reads_details() {
        let page = OcrPage::from_text(
            "交易详情\n示例文具店\n-128.00\n交易成功\n交易时间 2025-05-20 18:30:00\n付款卡 建设银行 借记卡 尾号 4321\n交易类型 消费\n商户名称 示例文具有限公司\n订单编号 20250520183000123456",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(r.amount, "128.00");
        assert_eq!(r.date, "2025/05/20");
        assert_eq!(r.card_last4, "4321");
        assert_eq!(r.card_bank, "建设银行");
        assert_eq!(r.merchant, "示例文具有限公司");
        assert_eq!(r.status, "成功");
        assert_eq!(r.channel, "云闪付");
    }

    #[test]
    fn an_order_total_is_not_taken_for_a_misread_headline() {
        // The headline lost its decimal point and the discount's label was
        // misread: `订单总额` is the total before the discount, not a
        // misread `订单金额`, and not what was paid.
        let page = OcrPage::from_text(
            "订单详情\n样例耗材\n-448 自 36\n交易类型 消费\n支付方式 兴业银行信用卡 (5684)\n交易时间 2024-09-19 07:27:06\n优惠信息\n银联立威 -Y1.90\n订单总额 Y450.26",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(r.amount, "");
        assert_eq!(r.card_last4, "5684");
    }

    #[test]
    fn a_card_icon_read_as_glyphs_before_the_label_is_skipped() {
        // The card picture before 付款卡 reads as a digit, a digit and an
        // ideograph, or a lone ideograph.
        for (row, last4) in [
            ("6 付款卡 中国建设银行信用卡 (8374)", "8374"),
            ("6 畏付款卡 中国银行信用卡 (6766)", "6766"),
            ("三 付款卡 中国农业银行信用卡 (8031)", "8031"),
        ] {
            let page = OcrPage::from_text(&format!(
                "交易详情\n测试咖啡\n-146.00\n交易成功\n{row}\n交易时间 2024-03-17 17:43:39\n交易类型 消费\n商户名称 测试餐饮服务有限公司"
            ));
            let r = parse(&Fields::new(&page));
            assert_eq!(r.card_last4, last4, "{row}");
        }
    }
}
