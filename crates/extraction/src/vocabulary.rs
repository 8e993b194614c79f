//! The words invoice forms print as labels. A text layer whose labels lie is repaired by OCR,
//! and knowing that the unreadable glyphs spell labels (the values of such layers are mapped)
//! lets the engine choose among these characters only: `额`, not the look-alike `领`.

/// Labels and form words of the layouts read here (old VAT, 数电, tolls, machine-printed,
/// railway, air), as printed. The supervision seal over the title (全国统一发票监制章) is left
/// out on purpose: nothing is read from it, and its characters are look-alikes of labels'
/// (`全` for `合`).
const LABELS: &[&str] = &[
    "增值税电子普通发票",
    "增值税电子专用发票",
    "电子发票普通发票增值税专用发票",
    "通行费",
    "通用机打发票",
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

/// Whether `text` (compact, normalised) is part of a known label, its punctuation aside.
pub(crate) fn is_label_part(text: &str) -> bool {
    let bare: String = text.chars().filter(|c| !PUNCTUATION.contains(*c)).collect();
    if bare.is_empty() {
        return !text.is_empty();
    }
    LABELS.iter().any(|label| {
        let label: String = crate::text::normalize(label)
            .chars()
            .filter(|c| !PUNCTUATION.contains(*c))
            .collect();
        label.contains(&bare)
    })
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

    #[test]
    fn parts_of_labels() {
        for part in ["金额", "发票号码:", "合", "(小写)", ":", "价税合计(大写)"] {
            assert!(is_label_part(part), "{part}");
        }
        for other in ["金”", "全计", "", "领"] {
            assert!(!is_label_part(other), "{other}");
        }
    }
}
