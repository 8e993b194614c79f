//! The words invoice forms print as labels. A text layer whose labels lie is repaired by OCR,
//! and knowing that the unreadable glyphs spell labels (the values of such layers are mapped)
//! lets the engine choose among these characters only: `额`, not the look-alike `领`.

/// Labels and form words of the layouts read here (old VAT, 数电, tolls, machine-printed,
/// railway, air), as printed.
const LABELS: &[&str] = &[
    "增值税电子普通发票",
    "增值税电子专用发票",
    "电子发票普通发票增值税专用发票",
    "通行费",
    "通用机打发票",
    "全国统一发票监制章",
    "国家税务总局",
    "发票代码",
    "发票号码",
    "开票日期",
    "校验码",
    "机器编号",
    "购买方",
    "销售方",
    "名称",
    "纳税人识别号",
    "统一社会信用代码",
    "地址、电话",
    "开户行及账号",
    "密码区",
    "货物或应税劳务、服务名称",
    "项目名称",
    "规格型号",
    "单位",
    "数量",
    "单价",
    "金额",
    "税率",
    "征收率",
    "税额",
    "合计",
    "价税合计（大写）",
    "（小写）",
    "备注",
    "收款人",
    "复核",
    "开票人",
    "车牌号",
    "类型",
    "通行日期起",
    "通行日期止",
    "票据代码",
    "票据号码",
    "交款人",
    "收款单位（章）",
    "省市自治区北京天津上海重庆河北山西辽宁吉林黑龙江江苏浙江安徽福建江西山东河南湖北湖南广东海南四川贵州云南陕西甘肃青海内蒙古广西西藏宁夏新疆深圳大连青岛宁波厦门",
];

/// Punctuation labels carry.
const PUNCTUATION: &str = ":：、（）()¥￥";

/// Every character a label may hold, each once, in first-seen order.
pub(crate) fn label_alphabet() -> String {
    let mut out = String::new();
    for c in LABELS
        .iter()
        .flat_map(|l| l.chars())
        .chain(PUNCTUATION.chars())
    {
        if !out.contains(c) {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alphabet_holds_each_label_character_once() {
        let a = label_alphabet();
        for c in "发票号码金额税价合计销售方购买:".chars() {
            assert_eq!(a.matches(c).count(), 1, "{c}");
        }
        assert!(!a.contains('领'));
    }
}
