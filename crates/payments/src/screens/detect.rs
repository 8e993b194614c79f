//! Screen type detection by keywords typical of each app (not by the
//! layout of any one template), each weighted by how specific it is.

use super::ScreenType;
use super::fields::Fields;
use crate::amount;
use crate::garbled_headline::GarbledHeadline;
use crate::text;

/// Keywords and their weights per screen type.
const KEYWORDS: &[(ScreenType, &[(&str, i32)])] = &[
    (
        ScreenType::PosSlip,
        &[
            ("签购单", 6),
            // An app's link to the slip's image (云闪付's 电子签购单 查看 ›)
            // is not a slip: it cancels the 签购单 it contains.
            ("电子签购单", -6),
            ("POS", 2),
            ("CARDHOLDER", 3),
            ("MERCHANT", 3),
            ("商户存根", 3),
            ("持卡人存根", 3),
            ("终端编号", 3),
            ("凭证号", 3),
            ("批次号", 3),
            ("授权码", 2),
            ("发卡行", 2),
            ("收单行", 2),
            ("TRANS", 2),
            ("有效期", 1),
            ("操作员", 2),
            ("持卡人签名", 3),
            // Other terminals' wording (`终端号 TER ID`, `BATCH NO`).
            ("终端号", 3),
            ("发卡机构", 2),
            ("BATCH", 2),
            ("TRACE", 2),
            ("SIGNATURE", 2),
        ],
    ),
    (
        ScreenType::WechatBill,
        &[
            ("交易单号", 4),
            ("商户单号", 4),
            ("当前状态", 4),
            ("收单机构", 3),
            ("财付通", 2),
            ("零钱", 1),
            ("微信", 2),
            ("商户全称", 2),
            ("年", 0),
        ],
    ),
    (
        ScreenType::AlipayBill,
        &[
            ("创建时间", 3),
            ("商家订单号", 3),
            ("收款方全称", 3),
            ("商品说明", 3),
            ("账单分类", 3),
            ("支付宝", 3),
            ("花呗", 2),
            ("余额宝", 2),
            ("交易成功", 2),
            ("付款方式", 2),
            ("标签和备注", 3),
            ("对此订单有疑问", 3),
            ("计入收支", 2),
            ("订单号", 1),
        ],
    ),
    (
        ScreenType::Unionpay,
        &[
            ("云闪付", 6),
            // 闪 in the app's logo type is often read as 内.
            ("云内付", 6),
            ("银联", 3),
            ("UnionPay", 4),
            ("付款卡", 3),
            ("订单编号", 2),
            ("电子签购单", 3),
            ("交易类型", 1),
            ("优惠", 1),
        ],
    ),
    (
        ScreenType::BankCard,
        &[
            ("手机银行", 3),
            ("交易明细", 2),
            ("收支明细", 3),
            ("交易卡号", 3),
            ("交易金额", 2),
            ("记账日期", 3),
            ("余额", 2),
            ("对方户名", 3),
            ("交易渠道", 3),
            ("卡号", 2),
            ("交易地点", 2),
            ("交易摘要", 2),
            ("交易对手", 3),
            ("交易日期", 2),
            // The currency row: only bank apps show one.
            ("币种", 2),
        ],
    ),
];

/// Minimum score for a known layout.
const MIN_SCORE: i32 = 4;

/// Decides the screen type of a page.
pub fn detect(f: &Fields) -> ScreenType {
    let joined = f.joined();
    let mut best = (ScreenType::Other, 0);
    for (screen, words) in KEYWORDS {
        let score: i32 = words
            .iter()
            .filter(|(w, _)| joined.contains(w))
            .map(|(_, s)| s)
            .sum();
        if score > best.1 {
            best = (*screen, score);
        }
    }
    let success = wechat_success_score(f);
    if success > best.1 {
        best = (ScreenType::WechatSuccess, success);
    }
    if best.1 >= MIN_SCORE {
        return best.0;
    }
    if looks_like_payment(f) {
        ScreenType::Other
    } else {
        ScreenType::NoPayment
    }
}

/// WeChat's 支付成功 page has almost no labels: 支付成功 on its own line,
/// an amount with `¥`, and a 完成 button.
fn wechat_success_score(f: &Fields) -> i32 {
    let standalone = f.lines.iter().any(|l| is_success_title(l));
    if !standalone || f.contains("账单详情") || f.contains("交易单号") {
        return 0;
    }
    let mut score = 3;
    if f.contains("完成") {
        score += 2;
    }
    // The amount, or a headline the page mangled (`Y0635.05`, `f035.05`
    // for a heavy `¥635.05` on black), which a re-read may read.
    if f.lines.iter().any(|l| {
        amount::find_amounts(l)
            .iter()
            .any(|h| h.alone && h.currency)
            || GarbledHeadline::of(l).is_some()
    }) {
        score += 2;
    }
    if f.contains("微信") || f.contains("收款方") {
        score += 1;
    }
    // The method row (`支付方式 招商银行信用卡(1234)`), when the amount
    // and the 完成 button were not read.
    if f.lines.iter().any(|l| {
        let c = text::compact(l);
        ["支付方式", "付款方式"].iter().any(|m| c.starts_with(m))
    }) {
        score += 1;
    }
    score
}

/// A line that is the title of a payment's result page: 支付成功 (or
/// 付款成功) on its own, one ideograph misread (`文付成功`) or an icon
/// before it (`息支付成功`).
pub fn is_success_title(line: &str) -> bool {
    let title: Vec<char> = "支付成功".chars().collect();
    let c: Vec<char> = text::compact(line).chars().collect();
    (3..=5).contains(&c.len()) && text::edit_distance(&c, &title) <= 1
        || c.ends_with(&title) && c.len() <= 6
        || c == ['付', '款', '成', '功']
}

/// Payment words together with an amount: a payment of some unknown
/// layout rather than a chat that mentions money.
fn looks_like_payment(f: &Fields) -> bool {
    let words = ["支付", "付款", "交易", "消费", "订单", "金额", "收款"];
    let labelled = f.lines.iter().any(|l| {
        let c = text::compact(l);
        words.iter().any(|w| c.starts_with(w)) && c.chars().count() <= 30
    });
    let amount = f
        .lines
        .iter()
        .any(|l| amount::find_amounts(l).iter().any(|h| h.alone));
    // Rows of a payment's details (time, method, payee, order number),
    // even when its amount was not read: a payment, for later passes to
    // read, not a chat.
    let rows = ROW_LABELS
        .iter()
        .filter(|label| f.lines.iter().any(|l| row_label_of(l) == Some(**label)))
        .count();
    labelled && amount || rows >= 3
}

/// The payment-detail label a line starts with, if any (`付款方式` of
/// `付款方式 招商银行信用卡(7272)`).
pub fn row_label_of(line: &str) -> Option<&'static str> {
    let c = text::compact(line);
    let c = c.trim_start_matches(|c: char| !c.is_alphanumeric());
    ROW_LABELS
        .iter()
        .copied()
        .find(|label| c.starts_with(label))
}

/// Labels that start a row of a payment's details on many screens.
const ROW_LABELS: &[&str] = &[
    "商户名称",
    "交易时间",
    "支付时间",
    "付款时间",
    "支付方式",
    "付款方式",
    "订单号",
    "订单编号",
    "交易单号",
    "收款方",
    "交易类型",
    "交易状态",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocr::OcrPage;

    fn kind(s: &str) -> ScreenType {
        detect(&Fields::new(&OcrPage::from_text(s)))
    }

    #[test]
    fn detects_types() {
        assert_eq!(
            kind("账单详情\n-58.00\n交易成功\n付款方式 招商银行信用卡(1234)\n商品说明 x\n订单号 1"),
            ScreenType::AlipayBill
        );
        assert_eq!(
            kind("-58.00\n当前状态 支付成功\n交易单号 42\n商户单号 1"),
            ScreenType::WechatBill
        );
        assert_eq!(
            kind("支付成功\n示例店\n¥58.00\n完成"),
            ScreenType::WechatSuccess
        );
        assert_eq!(
            kind("@\n文付成功\n示例店\nY576.08\n完成"),
            ScreenType::WechatSuccess
        );
        assert_eq!(
            kind("支付成功\n样例文具\nY+113.006\n支付方式 中国建设银行信用卡(9126)"),
            ScreenType::WechatSuccess
        );
        // Dark, no 完成 read, the amount mangled: the title and a mangled
        // headline say it.
        assert_eq!(
            kind("X\n支付成功\n演示图文\nY0635.05\n演示图文 扫码点音"),
            ScreenType::WechatSuccess
        );
        assert_eq!(
            kind("云闪付\n-58.00\n付款卡 尾号1234"),
            ScreenType::Unionpay
        );
        assert_eq!(
            kind("交易明细\n交易金额 -58.00\n卡号 6217 **** **** 1234\n余额 1.00"),
            ScreenType::BankCard
        );
        assert_eq!(
            kind("POS签购单\n商户名称(MERCHANT NAME)\n凭证号 1"),
            ScreenType::PosSlip
        );
        // 云闪付 links to the slip's image; 付款卡 misread, no app name.
        assert_eq!(
            kind(
                "交易详情 客服\n-9.04\n交易时间 2025-05-16 20:09:14\n休圳卡 中国建设银行 借记卡 尾号 9733\n交易类型 消费\n订单编号 2025\n电子签购单 查看"
            ),
            ScreenType::Unionpay
        );
        // Another acquirer's slip whose title OCR garbled, under 中国银联.
        assert_eq!(
            kind(
                "中国银联\nP0S 等购音\n终端号 TER ID 1\n卡号 CARD NO\n交易类型 TXN TYPE 消费\nBATCH 1 TRACE 2"
            ),
            ScreenType::PosSlip
        );
        // A bank page whose card row the page left out: the currency row
        // tells it from a bill.
        assert_eq!(
            kind(
                "交易详情\n中国银行\n交易时间 2025.03.23 12:00:37\n交易对手 示例公司\n币种 人民币"
            ),
            ScreenType::BankCard
        );
    }

    #[test]
    fn payment_rows_without_a_known_app_are_a_payment() {
        assert_eq!(
            kind(
                "订单详情\n商户名称 示例酒店\n交易时间 2025-05-06 17:40:21\n支付方式 兴业银行 尾号 1671\n订单号 2025"
            ),
            ScreenType::Other
        );
    }

    #[test]
    fn success_titles() {
        for line in [
            "支付成功",
            "@ 支付成功",
            "息支付成功",
            "文付成功",
            "付款成功",
        ] {
            assert!(is_success_title(line), "{line}");
        }
        for line in ["对方已收到,支付成功了吗", "交易成功"] {
            assert!(!is_success_title(line), "{line}");
        }
    }

    #[test]
    fn chat_is_no_payment() {
        assert_eq!(
            kind("示例同事\n发票我明天发你\n好的，一共58元\n12:30\n发送"),
            ScreenType::NoPayment
        );
        assert_eq!(kind(""), ScreenType::NoPayment);
    }
}
