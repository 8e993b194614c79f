//! 大写: amounts in Chinese capital numerals, as printed in 价税合计（大写）.

use crate::money::Cents;

const DIGITS: [char; 10] = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const PLACES: [&str; 4] = ["", "拾", "佰", "仟"];
const GROUPS: [&str; 3] = ["", "万", "亿"];

/// `壹佰肆拾陆圆整`, `伍拾叁圆肆角`, `壹佰玖拾圆零壹角玖分`, `壹仟零伍圆零捌分`. Invoices write 圆 and end a whole
/// amount with 整; an amount with 角 and no 分 ends with the 角 (as many printers do).
pub(crate) fn in_words(cents: Cents) -> String {
    let mut out = String::new();
    if cents < 0 {
        out.push('负');
    }
    let abs = cents.unsigned_abs();
    let yuan = abs / 100;
    let jiao = (abs / 10) % 10;
    let fen = abs % 10;
    if yuan > 0 {
        out.push_str(&integer_words(yuan));
        out.push('圆');
    }
    if jiao == 0 && fen == 0 {
        if yuan == 0 {
            out.push('零');
            out.push('圆');
        }
        out.push('整');
        return out;
    }
    if jiao > 0 {
        // 壹佰玖拾圆零壹角: a zero units digit is read out before the 角.
        if yuan.is_multiple_of(10) && yuan > 0 {
            out.push('零');
        }
        out.push(digit(jiao));
        out.push('角');
    } else if yuan > 0 {
        out.push('零');
    }
    if fen > 0 {
        out.push(digit(fen));
        out.push('分');
    }
    out
}

fn digit(d: u64) -> char {
    DIGITS
        .get(usize::try_from(d).unwrap_or(0))
        .copied()
        .unwrap_or('零')
}

/// Whole yuan in groups of four digits (个, 万, 亿), with one 零 for every run of zeros that
/// sits between non-zero digits.
fn integer_words(n: u64) -> String {
    let groups = [n % 10_000, (n / 10_000) % 10_000, n / 100_000_000];
    let mut out = String::new();
    let mut pending_zero = false;
    for (index, &group) in groups.iter().enumerate().rev() {
        if group == 0 {
            pending_zero |= !out.is_empty();
            continue;
        }
        if !out.is_empty() && group < 1000 {
            pending_zero = true;
        }
        if pending_zero {
            out.push('零');
            pending_zero = false;
        }
        out.push_str(&group_words(group));
        out.push_str(GROUPS.get(index).copied().unwrap_or_default());
    }
    out
}

/// 1..=9999 without a group unit.
fn group_words(group: u64) -> String {
    let mut out = String::new();
    let mut zero = false;
    for place in (0..4).rev() {
        let d = (group / 10_u64.pow(place)) % 10;
        if d == 0 {
            zero |= !out.is_empty();
            continue;
        }
        if zero {
            out.push('零');
            zero = false;
        }
        out.push(digit(d));
        out.push_str(PLACES.get(place as usize).copied().unwrap_or_default());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reading an extractor does: back to cents.
    fn parse(words: &str) -> Cents {
        let mut total: i64 = 0;
        let mut section: i64 = 0;
        let mut number: i64 = 0;
        let mut cents: i64 = 0;
        for c in words.chars() {
            if let Some(d) = DIGITS.iter().position(|&x| x == c) {
                number = d as i64;
                continue;
            }
            match c {
                '拾' => section += number.max(1) * 10,
                '佰' => section += number * 100,
                '仟' => section += number * 1000,
                '万' => {
                    total += (section + number) * 10_000;
                    section = 0;
                }
                '亿' => {
                    total = (total + section + number) * 100_000_000;
                    section = 0;
                }
                '圆' => {
                    total += section + number;
                    section = 0;
                }
                '角' => cents += number * 10,
                '分' => cents += number,
                _ => {}
            }
            if c != '零' {
                number = 0;
            }
        }
        total * 100 + cents
    }

    #[test]
    fn known_amounts() {
        assert_eq!(in_words(14_600), "壹佰肆拾陆圆整");
        assert_eq!(in_words(5_340), "伍拾叁圆肆角");
        assert_eq!(in_words(19_019), "壹佰玖拾圆零壹角玖分");
        assert_eq!(in_words(100_508), "壹仟零伍圆零捌分");
        assert_eq!(in_words(1_005_000), "壹万零伍拾圆整");
        assert_eq!(in_words(2_000_000), "贰万圆整");
        assert_eq!(in_words(1_000), "壹拾圆整");
        assert_eq!(in_words(50), "伍角");
        assert_eq!(in_words(10_000_000_000), "壹亿圆整");
        assert_eq!(in_words(1_000_010_000), "壹仟万零壹佰圆整");
    }

    #[test]
    fn round_trips() {
        let mut value: i64 = 1;
        while value < 20_000_000_000 {
            for delta in [0, 1, 9, 10, 99, 100, 1001, 30_307] {
                let cents = value + delta;
                assert_eq!(
                    parse(&in_words(cents)),
                    cents,
                    "{cents}: {}",
                    in_words(cents)
                );
            }
            value = value * 3 + 7;
        }
    }
}
