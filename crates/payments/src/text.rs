//! Text normalisation for OCR output: full-width forms, odd spaces, and the
//! helpers parsers use to compare labels regardless of spacing.

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

/// [`normalize`]d, then [`compact`]ed: the form labels and values are compared in.
pub fn folded_compact(s: &str) -> String {
    compact(&normalize(s))
}

/// Whether `c` is a CJK ideograph.
pub fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}')
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
    }
}
