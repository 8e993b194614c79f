//! 大写 amounts (Chinese capital numerals, e.g. `壹仟贰佰伍拾元整`, `伍拾叁圆肆角`) to cents,
//! an independent check of 价税合计（小写）.

/// Characters that may appear in a capital amount; anything else around it (brackets, the
/// `⊗` some producers print before it) is not part of it.
pub(crate) fn is_words_char(c: char) -> bool {
    digit(c).is_some() || "拾佰仟万亿元圆角分整正负".contains(c)
}

fn digit(c: char) -> Option<i64> {
    Some(match c {
        '零' | '〇' => 0,
        '壹' => 1,
        '贰' | '貳' => 2,
        '叁' | '參' => 3,
        '肆' => 4,
        '伍' => 5,
        '陆' | '陸' => 6,
        '柒' => 7,
        '捌' => 8,
        '玖' => 9,
        _ => return None,
    })
}

/// Converts a capital amount to cents; `None` if it holds no numeral or an unexpected
/// character. A leading `负` (red-letter invoices) makes it negative.
pub(crate) fn to_cents(words: &str) -> Option<i64> {
    let mut negative = false;
    let mut total: i64 = 0; // completed 万/亿 groups
    let mut section: i64 = 0; // below the current 万
    let mut num: i64 = 0; // pending digit
    let mut yuan: Option<i64> = None;
    let mut jiao: i64 = 0;
    let mut fen: i64 = 0;
    let mut seen_numeral = false;
    for c in words.chars().filter(|c| !c.is_whitespace()) {
        if let Some(d) = digit(c) {
            num = d;
            seen_numeral = true;
            continue;
        }
        match c {
            '负' => negative = true,
            '拾' => {
                // A leading 拾 means 壹拾.
                let n = if num == 0 && section == 0 { 1 } else { num };
                section += n * 10;
                num = 0;
                seen_numeral = true;
            }
            '佰' => {
                section += num * 100;
                num = 0;
            }
            '仟' => {
                section += num * 1000;
                num = 0;
            }
            '万' => {
                total = total.checked_add((section + num).checked_mul(10_000)?)?;
                section = 0;
                num = 0;
            }
            '亿' => {
                total = total.checked_add(section + num)?.checked_mul(100_000_000)?;
                section = 0;
                num = 0;
            }
            '元' | '圆' => {
                yuan = Some(total.checked_add(section + num)?);
                total = 0;
                section = 0;
                num = 0;
            }
            '角' => {
                jiao = num;
                num = 0;
            }
            '分' => {
                fen = num;
                num = 0;
            }
            '整' | '正' => {}
            _ => return None,
        }
    }
    if !seen_numeral {
        return None;
    }
    let yuan = match yuan {
        Some(y) => y,
        None => total.checked_add(section)?,
    };
    let cents = yuan.checked_mul(100)?.checked_add(jiao * 10 + fen)?;
    Some(if negative { -cents } else { cents })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_amounts() {
        assert_eq!(to_cents("壹仟贰佰伍拾元整"), Some(125_000));
        assert_eq!(to_cents("陆佰伍拾伍圆整"), Some(65_500));
        assert_eq!(to_cents("贰万圆整"), Some(2_000_000));
        assert_eq!(to_cents("捌拾圆整"), Some(8_000));
        assert_eq!(to_cents("拾元整"), Some(1_000));
        assert_eq!(to_cents("壹拾伍元整"), Some(1_500));
        assert_eq!(to_cents("伍佰零柒圆整"), Some(50_700));
        assert_eq!(to_cents("贰仟玖佰叁拾贰圆整"), Some(293_200));
    }

    #[test]
    fn jiao_and_fen() {
        assert_eq!(to_cents("伍拾叁圆肆角"), Some(5_340));
        assert_eq!(to_cents("陆佰捌拾肆圆肆角整"), Some(68_440));
        assert_eq!(to_cents("壹佰玖拾元零壹角玖分"), Some(19_019));
        assert_eq!(to_cents("叁拾捌元零叁分"), Some(3_803));
        assert_eq!(to_cents("壹佰元零角伍分"), Some(10_005));
        assert_eq!(to_cents("伍角"), Some(50));
    }

    #[test]
    fn large_and_negative() {
        assert_eq!(
            to_cents("壹拾贰万叁仟肆佰伍拾陆元柒角捌分"),
            Some(12_345_678)
        );
        assert_eq!(to_cents("壹亿零伍万元整"), Some(10_005_000_000));
        assert_eq!(to_cents("负壹佰元整"), Some(-10_000));
    }

    #[test]
    fn rejects_non_amounts() {
        assert_eq!(to_cents(""), None);
        assert_eq!(to_cents("整"), None);
        assert_eq!(to_cents("壹佰abc"), None);
    }
}
