//! The screen type: which app page a screenshot is, or that it shows no payment. Each
//! screen has its marker words; the screen with the most markers present wins. Pages that
//! show a payment not (yet) made are told apart first, by their own rules.

use crate::layout::Layout;

/// The kinds of screen the reader knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScreenType {
    /// Alipay's 账单详情.
    AlipayBill,
    /// WeChat Pay's bill details (账单详情).
    WechatBill,
    /// WeChat Pay's 支付成功 page.
    WechatSuccess,
    /// The 云闪付 (UnionPay) app's transaction details.
    Unionpay,
    /// A bank app's transaction details (or a page of an unknown app that shows an amount, a
    /// time and a card).
    BankCard,
    /// A photo of a POS slip (签购单).
    PosSlip,
    /// A chat, a confirm-to-pay page, a payment code: nothing was paid here.
    NoPayment,
}

impl ScreenType {
    /// The name used by the fixtures (`alipay_bill`).
    pub fn name(self) -> &'static str {
        match self {
            Self::AlipayBill => "alipay_bill",
            Self::WechatBill => "wechat_bill",
            Self::WechatSuccess => "wechat_success",
            Self::Unionpay => "unionpay",
            Self::BankCard => "bank_card",
            Self::PosSlip => "pos_slip",
            Self::NoPayment => "no_payment",
        }
    }
}

/// One payment screen and the words that mark it.
struct Markers {
    screen: ScreenType,
    words: &'static [&'static str],
}

const MARKERS: &[Markers] = &[
    Markers {
        screen: ScreenType::AlipayBill,
        words: &[
            "收款方全称",
            "商家订单号",
            "计入收支",
            "账单分类",
            "标签和备注",
            "支付宝",
            "对此订单有疑问",
            "查看往来记录",
            "创建时间",
        ],
    },
    Markers {
        screen: ScreenType::WechatBill,
        words: &[
            "当前状态",
            "商户单号",
            "收单机构",
            "交易单号",
            "财付通",
            "商户全称",
            "对订单有疑惑",
            "微信支付",
            "零钱",
        ],
    },
    Markers {
        screen: ScreenType::WechatSuccess,
        words: &["支付成功", "完成", "收款方", "关注公众号", "零钱"],
    },
    Markers {
        screen: ScreenType::Unionpay,
        words: &[
            "云闪付",
            "付款卡",
            "订单编号",
            "交易凭证",
            "银联",
            "申请电子发票",
            "优惠金额",
        ],
    },
    Markers {
        screen: ScreenType::BankCard,
        words: &[
            "交易卡号",
            "对方户名",
            "交易对手",
            "可用余额",
            "账户余额",
            "余额",
            "交易渠道",
            "手机银行",
            "明细详情",
            "收支明细",
            "交易摘要",
            "摘要",
            "币种",
            "钞汇",
            "电子回单",
            "对方账户",
        ],
    },
    Markers {
        screen: ScreenType::PosSlip,
        words: &[
            "签购单",
            "MERCHANTCOPY",
            "CARDHOLDER",
            "商户存根",
            "持卡人存根",
            "终端编号",
            "TERMINAL",
            "凭证号",
            "VOUCHER",
            "批次号",
            "BATCH",
            "授权码",
            "收单行",
            "ACQUIRER",
            "发卡行",
            "ISSUER",
        ],
    },
];

/// A page that shows a payment about to be made or a way to pay, never one made: any of
/// `words`, unless one of `unless` says it went through.
struct NotPaid {
    rule: &'static str,
    words: &'static [&'static str],
}

const NOT_PAID: &[NotPaid] = &[
    NotPaid {
        rule: "confirm-to-pay page",
        words: &[
            "确认付款",
            "确认支付",
            "立即支付",
            "确认交易",
            "请输入支付密码",
            "输入密码",
            "去支付",
            "待支付",
        ],
    },
    NotPaid {
        rule: "payment or collection code",
        words: &[
            "收款码",
            "付款码",
            "向商家付款",
            "二维码收款",
            "扫码付款",
            "出示付款码",
            "向我付款",
        ],
    },
];

/// A list of orders or bills: several amounts, none of them the one payment a screenshot is
/// for. Unlike [`NOT_PAID`], not overruled by [`DONE`] (each order of a list says 交易成功).
const LIST_WORDS: &[&str] = &["我的订单", "全部订单", "订单列表", "账单列表"];

/// The fewest amounts (`¥…` lines) that make a list.
const LIST_AMOUNTS: usize = 2;

fn is_list(layout: &Layout) -> bool {
    let amounts = layout
        .cells
        .iter()
        .filter(|c| {
            let at = c.compact.find(['¥', '￥']);
            at.is_some_and(|i| {
                c.compact[i..]
                    .chars()
                    .nth(1)
                    .is_some_and(|d| d.is_ascii_digit())
            })
        })
        .count();
    amounts >= LIST_AMOUNTS && LIST_WORDS.iter().any(|w| layout.has(w))
}

/// Words that say a payment went through: they overrule [`NOT_PAID`].
const DONE: &[&str] = &[
    "支付成功",
    "交易成功",
    "付款成功",
    "已支付",
    "退款成功",
    "已全额退款",
    "签购单",
    "交易详情",
    "账单详情",
    "明细详情",
];

/// The rule of a list of orders or bills.
pub const LIST_RULE: &str = "order list";
/// The rule of a page with no marker word of any screen (which recognition still reads as a
/// bank page when it shows an amount, a time and a card).
pub const NO_MARKERS_RULE: &str = "no payment screen markers";

/// The screen type and the rule that decided it.
pub fn detect(layout: &Layout) -> (ScreenType, String) {
    if is_list(layout) {
        return (ScreenType::NoPayment, LIST_RULE.to_owned());
    }
    let done = DONE.iter().any(|w| layout.has(w));
    if !done
        && let Some(rule) = NOT_PAID
            .iter()
            .find(|r| r.words.iter().any(|w| layout.has(w)))
    {
        return (ScreenType::NoPayment, rule.rule.to_owned());
    }
    let mut best: Option<(usize, &Markers)> = None;
    for m in MARKERS {
        let n = m.words.iter().filter(|w| layout.has(w)).count();
        if n > 0 && best.is_none_or(|(b, _)| n > b) {
            best = Some((n, m));
        }
    }
    match best {
        Some((_, m)) => {
            let found: Vec<&str> = m.words.iter().copied().filter(|w| layout.has(w)).collect();
            (m.screen, format!("markers: {}", found.join(" ")))
        }
        None => (ScreenType::NoPayment, NO_MARKERS_RULE.to_owned()),
    }
}
