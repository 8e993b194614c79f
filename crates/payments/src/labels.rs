//! The label vocabulary: what each field's labels are, and labels of other things, so
//! that a longer label (商户单号) is never taken for a shorter one (商户).

/// Labels of the amount paid. Not 订单金额 or 原价 (before a discount), not 余额.
pub const PAID_LABELS: &[&str] = &[
    "交易金额",
    "支付金额",
    "实付金额",
    "付款金额",
    "消费金额",
    "支出金额",
    "收入金额",
    "实付款",
    "实付",
    "金额",
    "AMOUNT",
    "交易金额(元)",
];
/// Labels of the time the payment was made.
pub const PAID_TIME_LABELS: &[&str] = &[
    "支付时间",
    "交易时间",
    "付款时间",
    "创建时间",
    "日期/时间",
    "日期时间",
    "DATE/TIME",
    "交易日期",
    "时间",
    "下单时间",
    "订单时间",
    "记账日期",
    "记账时间",
    "日期",
    "DATE",
];
pub const REFUND_TIME_LABELS: &[&str] = &["退款时间", "退款到账时间"];
pub const CARD_LABELS: &[&str] = &[
    "付款方式",
    "支付方式",
    "付款卡",
    "交易卡号",
    "卡号",
    "退款方式",
    "退款路径",
    "付款银行卡",
    "银行卡",
    "CARDNO.",
    "CARDNO",
    "交易账号",
    "账号",
    "卡号/账号",
];
pub const ISSUER_LABELS: &[&str] = &["发卡行", "发卡银行", "发卡机构", "ISSUER"];
pub const MERCHANT_LABELS: &[&str] = &[
    "收款方全称",
    "商户全称",
    "商户名称",
    "对方户名",
    "交易对手",
    "对方账户名",
    "对方名称",
    "收款方",
    "收款商户",
    "商户",
    "收款单位",
    "MERCHANTNAME",
    "对方账户",
];
pub const ORDER_LABELS: &[&str] = &[
    "订单号",
    "交易单号",
    "订单编号",
    "交易流水号",
    "流水号",
    "交易编号",
];
/// A slip's retrieval reference number: always twelve digits.
pub const REFERENCE_LABELS: &[&str] = &["参考号", "REFERNO", "REFNO", "检索参考号"];
pub const STATUS_LABELS: &[&str] = &["当前状态", "交易状态", "状态"];

/// Labels of things no field takes: known so that they are not read as a shorter label.
pub const OTHER_LABELS: &[&str] = &[
    "商户单号",
    "商户订单号",
    "商家订单号",
    "商户编号",
    "商户存根",
    "商户号",
    "商品说明",
    "商品",
    "订单金额",
    "优惠金额",
    "优惠",
    "原价",
    "可用余额",
    "账户余额",
    "余额",
    "收单机构",
    "收单行",
    "交易类型",
    "终端编号",
    "操作员号",
    "批次号",
    "凭证号",
    "授权码",
    "有效期",
    "备注",
    "交易渠道",
    "币种",
    "钞汇",
    "摘要",
    "交易摘要",
    "账单分类",
    "标签和备注",
    "计入收支",
    "退款说明",
    "退款原因",
    "支付奖励",
    "积分",
    "交易凭证",
];

/// Every label of every list, for [`crate::layout::Layout::labelled`].
pub fn vocabulary() -> impl Iterator<Item = &'static str> {
    [
        PAID_LABELS,
        PAID_TIME_LABELS,
        REFUND_TIME_LABELS,
        CARD_LABELS,
        ISSUER_LABELS,
        MERCHANT_LABELS,
        ORDER_LABELS,
        REFERENCE_LABELS,
        STATUS_LABELS,
        OTHER_LABELS,
    ]
    .into_iter()
    .flatten()
    .copied()
}
