//! A photo of a POS slip (签购单): bilingual labels (`商户名称(MERCHANT
//! NAME):`) with the value beside or below, 卡号 `621700******1234`,
//! 交易类型 消费/SALE, 日期/时间 `2025/03/11 12:03:45`, 金额 `RMB 58.00`.

use super::fields::Fields;
use super::{Spec, extract};
use crate::record::{CHANNEL_POS, PaymentRecord};

pub const SPEC: Spec = Spec {
    headline_amount: false,
    amount_labels: &["金额", "AMOUNT", "交易金额", "总计", "TOTAL", "合计"],
    date_labels: &[
        "日期/时间",
        "DATE/TIME",
        "日期时间",
        "交易日期",
        "日期",
        "DATE",
    ],
    time_labels: &["时间", "TIME"],
    card_labels: &["卡号", "CARD NO", "CARDNO", "CARD"],
    bank_labels: &["发卡行", "ISSUER", "发卡机构"],
    merchant_labels: &["商户名称", "MERCHANT NAME", "商户名", "MERCHANT"],
    order_labels: &[
        "参考号",
        "REFER NO",
        "REF NO",
        "REF.NO",
        "检索参考号",
        "凭证号",
    ],
    status_labels: &["交易类型", "TRANS TYPE", "TXN TYPE", "TRANSTYPE"],
    row_labels: &["商户名称", "卡号", "交易类型"],
};

pub fn parse(f: &Fields) -> PaymentRecord {
    let mut r = extract(f, &SPEC).record;
    r.channel = CHANNEL_POS.to_owned();
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocr::OcrPage;

    #[test]
    fn reads_a_slip() {
        let page = OcrPage::from_text(
            "银联POS签购单\n持卡人存根 CARDHOLDER COPY\n商户名称(MERCHANT NAME):\n示例餐饮有限公司\n商户编号(MERCHANT NO.): 898110158120001\n发卡行(ISSUER): 招商银行\n卡号(CARD NO.):\n621700******1234 /C\n有效期(EXP DATE): 2028/12\n交易类型(TRANS TYPE):\n消费/SALE\n参考号(REFER NO.): 250311120345\n日期/时间(DATE/TIME):\n2025/03/11 12:03:45\n金额(AMOUNT): RMB 58.00",
        );
        let r = parse(&Fields::new(&page));
        assert_eq!(r.amount, "58.00");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2025/03/11", "12:03:45")
        );
        assert_eq!(r.card_last4, "1234");
        assert_eq!(r.card_bank, "招商银行");
        assert_eq!(r.merchant, "示例餐饮有限公司");
        assert_eq!(r.status, "成功");
        assert_eq!(r.order_no, "250311120345");
    }
}
