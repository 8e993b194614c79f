//! Text transforms: the NFKC form the golden records hold, and the look-alike code points some
//! producers print.

use unicode_normalization::UnicodeNormalization;

/// NFKC, as the golden records hold every printed string (Kangxi radicals become the unified
/// ideographs, full-width punctuation becomes ASCII: `（` → `(`, `：` → `:`, `￥` → `¥`).
pub(crate) fn nfkc(text: &str) -> String {
    text.nfkc().collect()
}

/// NFKC with whitespace removed: names (items, parties) are compared without the spaces that
/// wrapping or spaced-out drawing put into them.
pub(crate) fn nfkc_compact(text: &str) -> String {
    text.nfkc().filter(|c| !c.is_whitespace()).collect()
}

/// Replaces ideographs that some producers' fonts map to Kangxi radicals (U+2F00 block) with
/// those radicals, as in real 数电 files: `方` → `⽅`, `子` → `⼦`, `一` → `⼀`, `人` → `⼈`,
/// `金` → `⾦`, `大` → `⼤`.
pub(crate) fn kangxi(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '方' => '\u{2F45}',
            '子' => '\u{2F26}',
            '一' => '\u{2F00}',
            '人' => '\u{2F08}',
            '金' => '\u{2FA6}',
            '大' => '\u{2F24}',
            other => other,
        })
        .collect()
}

/// `2025/03/11` from year, month and day.
pub(crate) fn slash_date(date: (u16, u8, u8)) -> String {
    format!("{:04}/{:02}/{:02}", date.0, date.1, date.2)
}

/// `2025年03月11日`.
pub(crate) fn chinese_date(date: (u16, u8, u8)) -> String {
    format!("{:04}年{:02}月{:02}日", date.0, date.1, date.2)
}

/// `2025-03-11`.
pub(crate) fn dash_date(date: (u16, u8, u8)) -> String {
    format!("{:04}-{:02}-{:02}", date.0, date.1, date.2)
}

/// `20250311`, as QR codes and file names carry dates.
pub(crate) fn compact_date(date: (u16, u8, u8)) -> String {
    format!("{:04}{:02}{:02}", date.0, date.1, date.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kangxi_round_trips_through_nfkc() {
        let printed = kangxi("购买方 电子发票 统一社会信用代码/纳税人识别号 金额 大写");
        assert!(printed.contains('\u{2F45}') && printed.contains('\u{2F26}'));
        assert_eq!(
            nfkc(&printed),
            "购买方 电子发票 统一社会信用代码/纳税人识别号 金额 大写"
        );
    }

    #[test]
    fn nfkc_folds_full_width_forms() {
        assert_eq!(nfkc("电子发票（普通发票）"), "电子发票(普通发票)");
        assert_eq!(nfkc("￥12.00："), "¥12.00:");
        assert_eq!(
            nfkc_compact("*日用品*示例 收纳箱\u{3000}大号"),
            "*日用品*示例收纳箱大号"
        );
    }

    #[test]
    fn dates() {
        assert_eq!(slash_date((2025, 3, 1)), "2025/03/01");
        assert_eq!(chinese_date((2025, 3, 1)), "2025年03月01日");
        assert_eq!(dash_date((2025, 3, 1)), "2025-03-01");
        assert_eq!(compact_date((2025, 3, 1)), "20250301");
    }
}
