//! A bank app's card transaction details (交易详情 / 收支明细): 交易金额
//! (or the amount big), 交易时间 or 交易日期 + 时间, 卡号 `6217 **** ****
//! 1234` or the full number, 交易类型 消费, 商户名称 / 交易对手. Also the
//! fallback for payment screens of no known layout.

use super::fields::Fields;
use super::{Spec, extract};
use crate::amount::Sign;
use crate::card;
use crate::record::{CHANNEL_BANK_SUFFIX, PaymentRecord, STATUS_SUCCESS};

pub const SPEC: Spec = Spec {
    headline_amount: false,
    amount_labels: &[
        "交易金额",
        "支出金额",
        "消费金额",
        "入账金额",
        "收入金额",
        "金额",
        "人民币",
    ],
    date_labels: &[
        "交易时间",
        "交易日期",
        "记账日期",
        "入账日期",
        "消费时间",
        "日期",
    ],
    time_labels: &["时间"],
    card_labels: &[
        "卡号",
        "交易卡号",
        "银行卡号",
        "付款卡号",
        "本方账号",
        "账号",
        "付款账号",
        "交易账户",
    ],
    bank_labels: &["开户行", "发卡行"],
    merchant_labels: &[
        "商户名称",
        "交易对手",
        "对方户名",
        "收款方",
        "对方账户名",
        "交易商户",
        "商户",
    ],
    order_labels: &["交易流水号", "流水号", "交易参考号", "参考号", "交易编号"],
    status_labels: &["交易状态", "交易类型", "交易摘要", "摘要"],
    // Where the details rows start: a headline stands above them. Not the
    // card row, which a hero card shows above its amount.
    row_labels: &["交易金额", "交易时间", "交易日期", "交易类型", "商户名称"],
};

/// Every label any screen uses: for screens of no known layout.
pub const OTHER_SPEC: Spec = Spec {
    headline_amount: false,
    amount_labels: &[
        "交易金额",
        "支付金额",
        "付款金额",
        "订单金额",
        "实付金额",
        "消费金额",
        "金额",
    ],
    date_labels: &[
        "支付时间",
        "交易时间",
        "付款时间",
        "创建时间",
        "交易日期",
        "日期",
    ],
    time_labels: &["时间"],
    card_labels: &[
        "付款方式",
        "支付方式",
        "付款卡",
        "卡号",
        "交易卡号",
        "银行卡",
    ],
    bank_labels: &["发卡行"],
    merchant_labels: &[
        "收款方全称",
        "商户全称",
        "商户名称",
        "收款方",
        "交易对手",
        "对方户名",
    ],
    order_labels: &["订单号", "交易单号", "订单编号", "交易流水号"],
    status_labels: &["交易状态", "当前状态", "交易类型"],
    row_labels: &[
        "支付时间",
        "交易时间",
        "付款方式",
        "支付方式",
        "交易金额",
        "订单号",
    ],
};

pub fn parse(f: &Fields) -> PaymentRecord {
    let x = extract(f, &SPEC);
    let mut r = x.record;
    // A bank's transaction details list posted transactions: money out
    // (a minus, or a 支出 label) is a completed payment even when the
    // 交易类型 row was not read.
    let outflow = x.amount.is_some_and(|a| a.sign == Sign::Minus) || f.contains("支出金额");
    if r.status.is_empty() && outflow {
        r.status = STATUS_SUCCESS.to_owned();
    }
    // Many apps print the card grey under their name, without a label.
    if r.card_last4.is_empty()
        && let Some(c) = f.lines.iter().find_map(|l| card::number_line(l))
    {
        r.card_last4 = c.last4;
        r.card_number = c.number;
    }
    // Or as the bank's name and the last four (`中国银行 尾号2297`), or its
    // labelled number (`中国银行 · 卡号 6200 **** **** 8809`), in the
    // account strip above the details.
    if r.card_last4.is_empty()
        && let Some(c) = f
            .lines
            .iter()
            .filter(|l| is_own_card_tail(l))
            .map(|l| own_card_of(l))
            .find(|c| !c.last4.is_empty())
    {
        r.card_last4 = c.last4;
        r.card_number = c.number;
    }
    // The app's name heads the screen; else the card's bank names it.
    let header_bank = f.lines.iter().take(4).find_map(|l| card::find_bank(l));
    if r.card_bank.is_empty() {
        r.card_bank = header_bank.clone().unwrap_or_default();
    }
    let bank = header_bank.unwrap_or_else(|| r.card_bank.clone());
    if !bank.is_empty() {
        r.channel = format!("{bank}{CHANNEL_BANK_SUFFIX}");
    }
    r
}

/// A line naming the account's own card by its last four: a tail marker
/// beside a bank's name or a card word, and not the other party's account.
pub fn is_own_card_tail(line: &str) -> bool {
    let c = crate::text::compact(line);
    // 尾 alone: a shrunk screenshot's 尾号 comes back as 尾引.
    let marked = ["尾", "末四位", "后四位", CARD_NUMBER_LABEL]
        .iter()
        .any(|m| c.contains(m));
    let names_card = card::find_bank(&c).is_some() || c.contains('卡');
    let other_party = ["对方", "收款", "对手", "转入"]
        .iter()
        .any(|w| c.contains(w));
    marked && names_card && !other_party
}

/// The card label inside an account strip's line.
const CARD_NUMBER_LABEL: &str = "卡号";

/// The card of an account strip's line: the value after its card label
/// read as a card field (masks read as letters or ideographs still count),
/// else the tail after 尾号.
fn own_card_of(line: &str) -> card::CardInfo {
    match line.find(CARD_NUMBER_LABEL) {
        Some(at) => card::parse_card_field(line[at + CARD_NUMBER_LABEL.len()..].trim()),
        None => card::parse_card(line),
    }
}

pub fn parse_other(f: &Fields) -> PaymentRecord {
    let mut x = extract(f, &OTHER_SPEC);
    if x.record.date.is_empty()
        && let Some(dt) = f.any_date_time()
    {
        x.record.date = dt.date.to_string();
        x.record.time = dt.time;
    }
    x.record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocr::OcrPage;

    #[test]
    fn the_amount_under_a_hero_card_s_number_is_the_headline() {
        // The amount's label (支出金额) faded on the red hero card, which
        // shows the card number above the amount.
        let page = OcrPage::from_text(
            "收支明细\n中国工商银行\n卡号 6200 **** **** 0972\n-783.92\n交易时间 2024-01-05 21:29:20\n交易摘要 消费\n币种 人民币\n账户余额 86,365.53",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(r.amount, "783.92");
    }

    #[test]
    fn reads_card_details() {
        let page = OcrPage::from_text(
            "中国工商银行\n交易详情\n交易金额 -2,300.00\n交易日期 2025-06-01\n交易时间 09:15:02\n卡号 6222 **** **** 8765\n交易类型 消费\n商户名称 示例酒店管理有限公司\n可用余额 12,345.67",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(r.amount, "2300.00");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2025/06/01", "09:15:02")
        );
        assert_eq!(r.card_last4, "8765");
        assert_eq!(r.card_bank, "中国工商银行");
        assert_eq!(r.channel, "中国工商银行手机银行");
        assert_eq!(r.merchant, "示例酒店管理有限公司");
        assert_eq!(r.status, "成功");
    }

    #[test]
    fn card_under_the_bank_name() {
        let page = OcrPage::from_text(
            "明细详情\n中国银行\n6200 **** **** 1028\n交易金额\n-387.00 元\n账户余额 7,351.04\n交易时间 2025-04-13 22:15:08",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(
            (r.card_last4.as_str(), r.amount.as_str()),
            ("1028", "387.00")
        );
    }

    #[test]
    fn card_as_a_tail_in_the_account_strip() {
        let page = OcrPage::from_text(
            "交易详情\n生 中国银行尾号 2297\n支出金额 (元)\n-4,691.21 元\n交易对手 示例酒店\n交易时间 2024-01-14 07:23:34",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(
            (r.card_last4.as_str(), r.card_number.as_str()),
            ("2297", "")
        );
        let misread = OcrPage::from_text("交易详情\n秤 兴业银行尾引 7243\n收入金额 (元)\n+31.00");
        assert_eq!(parse(&Fields::new(&misread)).card_last4, "7243");
        let labelled = OcrPage::from_text(
            "交易详情\n支出金额 (元 )\n682.72\n中国银行 , 卡号 6200 #*##k 冰 #k 8809\n交易时间 2025 年 12 月 7 日 16:28:46",
        );
        assert_eq!(parse(&Fields::new(&labelled)).card_last4, "8809");
        let other = OcrPage::from_text(
            "交易详情\n交易金额 -58.00\n对方账户 中国银行 尾号 1234\n交易时间 2024-01-14 07:23:34",
        );
        assert_eq!(parse(&Fields::new(&other)).card_last4, "");
    }

    #[test]
    fn a_full_number_wrapped_onto_the_next_line() {
        let page = OcrPage::from_text(
            "交易详情\n交易金额 -126.12\n交易日期 2024-11-17\n交易卡号 6200 0000 0000\n0001 453\n交易类型 消费",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(
            (r.card_last4.as_str(), r.card_number.as_str()),
            ("1453", "6200000000000001453")
        );
    }

    #[test]
    fn full_number_and_refund() {
        let page = OcrPage::from_text(
            "交易明细\n交易金额 +99.90\n交易时间 2025-06-03 10:00\n卡号 6200 0000 0000 0047\n交易类型 退货\n交易对手 示例商城",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(r.card_number, "6200000000000047");
        assert_eq!(r.card_last4, "0047");
        assert_eq!(r.status, "退款");
        assert_eq!(r.channel, "");
    }
}
