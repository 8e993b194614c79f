//! Text normalisation for OCR output: full-width forms, odd spaces, and the
//! helpers parsers use to compare labels regardless of spacing.

/// The ASCII digits of a text, in order.
pub fn digits_of(text: &str) -> String {
    text.chars().filter(char::is_ascii_digit).collect()
}

/// Folds full-width ASCII (`０-９`, `Ａ`, `：`, `（`) to ASCII, the ideographic
/// space to a space, `￥` to `¥`, unifies dashes, and collapses runs of
/// spaces. Chinese punctuation without an ASCII twin (`。`, `、`) is kept:
/// amount and date scanners handle it where it matters.
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut last_space = true;
    for c in s.chars() {
        let c = fold_char(c);
        if c.is_whitespace() {
            if !last_space {
                out.push(' ');
            }
            last_space = true;
        } else {
            out.push(c);
            last_space = false;
        }
    }
    while out.ends_with(' ') {
        out.pop();
    }
    out
}

fn fold_char(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
        '\u{3000}' | '\u{00A0}' | '\t' => ' ',
        '\u{FFE5}' => '¥',
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE63}' => '-',
        '\u{2018}' | '\u{2019}' => '\'',
        '\u{201C}' | '\u{201D}' => '"',
        '\u{3010}' => '[',
        '\u{3011}' => ']',
        _ => c,
    }
}

/// The string without any whitespace: OCR of Chinese puts spaces between
/// characters at random, so labels are compared in this form.
pub fn compact(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Whether `c` is a CJK ideograph.
pub fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}')
}

/// Trims separators OCR leaves around a value: spaces, colons, dots and
/// stray bars.
pub fn trim_value(s: &str) -> &str {
    s.trim_matches(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                ':' | ';'
                    | '|'
                    | '.'
                    | '。'
                    | ','
                    | '，'
                    | '、'
                    | '_'
                    | '>'
                    | '"'
                    | '\''
                    | '`'
                    | '“'
                    | '”'
                    | '‘'
                    | '’'
            )
    })
}

/// Removes spaces between two ideographs: OCR splits Chinese words at
/// random, while a space next to a Latin letter or digit is real.
pub fn join_cjk(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' {
            let prev = out.chars().last();
            let next = chars[i + 1..].iter().find(|c| **c != ' ');
            if prev.is_some_and(is_cjk_or_punct) && next.is_some_and(|n| is_cjk_or_punct(*n)) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

fn is_cjk_or_punct(c: char) -> bool {
    is_cjk(c) || matches!(c, '(' | ')' | '（' | '）' | '·')
}

/// Levenshtein distance over chars; labels are short, so the quadratic cost
/// does not matter.
pub fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_full_width() {
        assert_eq!(normalize("金额：￥５８．００（元）"), "金额:¥58.00(元)");
        assert_eq!(normalize("  a\u{3000}\u{3000}b  "), "a b");
        assert_eq!(normalize("−58.00"), "-58.00");
    }

    #[test]
    fn compacts_and_trims() {
        assert_eq!(compact("支 付 时间"), "支付时间");
        assert_eq!(trim_value(" : 消费。 "), "消费");
        assert_eq!(join_cjk("样例 实验耗材 有限公司"), "样例实验耗材有限公司");
        assert_eq!(join_cjk("示例 Coffee 店"), "示例 Coffee 店");
    }

    #[test]
    fn distance() {
        let a: Vec<char> = "收款方全称".chars().collect();
        let b: Vec<char> = "必款方全称".chars().collect();
        assert_eq!(edit_distance(&a, &b), 1);
        assert_eq!(edit_distance(&a, &[]), 5);
    }
}
