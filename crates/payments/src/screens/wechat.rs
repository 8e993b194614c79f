//! WeChat Pay screens. 账单详情: payee name, amount big (`-58.00`), then
//! 当前状态 支付成功, 支付时间 `2025年3月11日 12:03:45`, 商品, 商户全称,
//! 支付方式 `招商银行信用卡(1234)`, 交易单号, 商户单号. 支付成功 page: a
//! check mark, 支付成功, the payee, `¥58.00`, sometimes 支付方式, 完成.

use super::fields::Fields;
use super::{Spec, extract, header_merchant, headline_merchant_and_status};
use crate::record::{CHANNEL_WECHAT, PaymentRecord, STATUS_SUCCESS};

pub const BILL_SPEC: Spec = Spec {
    headline_amount: true,
    amount_labels: &["支付金额", "金额"],
    date_labels: &["支付时间", "转账时间", "交易时间", "退款时间", "收款时间"],
    time_labels: &[],
    card_labels: &["支付方式", "退款方式", "付款方式"],
    bank_labels: &[],
    merchant_labels: &["商户全称", "收款方全称", "收款方"],
    order_labels: &["交易单号", "转账单号"],
    status_labels: &["当前状态", "交易状态"],
    row_labels: &[
        "当前状态",
        "支付时间",
        "商品",
        "商户全称",
        "收单机构",
        "支付方式",
        "交易单号",
        "商户单号",
        "转账时间",
        "退款时间",
    ],
};

pub const SUCCESS_SPEC: Spec = Spec {
    headline_amount: true,
    amount_labels: &["支付金额", "实付金额", "金额"],
    date_labels: &["支付时间", "交易时间"],
    time_labels: &[],
    card_labels: &["支付方式", "付款方式"],
    bank_labels: &[],
    merchant_labels: &["收款方", "商户名称", "商户"],
    order_labels: &["交易单号", "订单号"],
    status_labels: &[],
    // The page has no rows above its amount.
    row_labels: &["支付方式", "收款方", "支付时间"],
};

pub fn parse_bill(f: &Fields) -> PaymentRecord {
    let x = extract(f, &BILL_SPEC);
    let mut r = x.record;
    r.channel = CHANNEL_WECHAT.to_owned();
    headline_merchant_and_status(f, x.headline_line, x.rows_start, &mut r);
    // A bill shows one date, or two on a refund: with no date label read,
    // the page's only date is the payment's.
    if r.date.is_empty()
        && let Some(dt) = f.only_date_time()
    {
        r.date = dt.date.to_string();
        r.time = dt.time;
    }
    r
}

pub fn parse_success(f: &Fields) -> PaymentRecord {
    let x = extract(f, &SUCCESS_SPEC);
    let mut r = x.record;
    r.channel = CHANNEL_WECHAT.to_owned();
    r.status = STATUS_SUCCESS.to_owned();
    if r.merchant.is_empty() {
        // The payee stands between 支付成功 and the amount.
        if let (Some(title), Some(line)) = (f.find_line("支付成功"), x.headline_line)
            && line > title + 1
        {
            r.merchant = header_merchant(f, line).unwrap_or_default();
        }
    }
    if r.date.is_empty()
        && let Some(dt) = f.any_date_time()
    {
        r.date = dt.date.to_string();
        r.time = dt.time;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocr::OcrPage;

    #[test]
    fn a_bill_whose_date_label_is_garbled_takes_its_only_date() {
        let bill = |rows: &str| {
            let page = OcrPage::from_text(&format!(
                "账单详情\n测试咖啡\n-40.86\n当前状态 支付成功\n{rows}\n商品 咖啡\n商户全称 测试餐饮服务有限公司\n支付方式 兴业银行信用卡(0210)"
            ));
            parse_bill(&Fields::new(&page))
        };
        let r = bill("医生晤一 2025 年 2 月 7 日 18:18:02");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2025/02/07", "18:18:02")
        );
        // Two dates without a label: neither.
        let r = bill("医生晤一 2025 年 2 月 7 日 18:18:02\n医生晤 2025 年 2 月 9 日 10:00:00");
        assert_eq!(r.date, "");
    }

    #[test]
    fn reads_a_bill() {
        let page = OcrPage::from_text(
            "账单详情\n示例超市\n-58.00\n当前状态 支付成功\n支付时间 2025年3月11日 12:03:45\n商品 日用品\n商户全称 示例超市有限公司\n收单机构 财付通支付科技有限公司\n支付方式 招商银行信用卡(1234)\n交易单号 4200002345202503111234567890\n商户单号 可在支持的商户扫码退款",
        );
        let r = parse_bill(&Fields::new(&page));
        assert_eq!(r.amount, "58.00");
        assert_eq!(r.date, "2025/03/11");
        assert_eq!(r.time, "12:03:45");
        assert_eq!(r.card_last4, "1234");
        assert_eq!(r.merchant, "示例超市有限公司");
        assert_eq!(r.status, "成功");
        assert_eq!(r.order_no, "4200002345202503111234567890");
    }

    #[test]
    fn full_refund() {
        let page = OcrPage::from_text(
            "示例超市\n-58.00\n当前状态 已全额退款\n支付时间 2025年3月11日 12:03:45",
        );
        assert_eq!(parse_bill(&Fields::new(&page)).status, "退款");
    }

    #[test]
    fn success_page() {
        let page = OcrPage::from_text("支付成功\n示例便利店\n¥23.40\n支付方式 零钱\n完成");
        let r = parse_success(&Fields::new(&page));
        assert_eq!(r.amount, "23.40");
        assert_eq!(r.merchant, "示例便利店");
        assert_eq!(r.card_last4, "");
        assert_eq!(r.date, "");
    }
}
