//! Text normalisation: NFKC (Kangxi radicals, full-width forms), look-alike punctuation and
//! whitespace, applied to every piece of text before it is matched or output.

use unicode_normalization::UnicodeNormalization;

/// NFKC plus the few look-alikes NFKC leaves alone. Full-width colon, parentheses and yen
/// become `:` `(` `)` `¥`, Kangxi radicals (`⼦` U+2F26) their unified ideographs, so labels
/// match whichever the producer used.
pub(crate) fn normalize(s: &str) -> String {
    if s.is_ascii() {
        return s.to_owned();
    }
    // Most text is already NFKC; the quick check avoids decomposing it.
    if unicode_normalization::is_nfkc_quick(s.chars()) == unicode_normalization::IsNormalized::Yes {
        return s.chars().map(fold_lookalike).collect();
    }
    s.nfkc().map(fold_lookalike).collect()
}

/// Characters NFKC keeps distinct but that producers use interchangeably.
fn fold_lookalike(c: char) -> char {
    match c {
        '∶' | '︰' => ':',
        '￥' => '¥',
        // Middle-dot variants seen in names (e.g. transliterated foreign names).
        '•' | '・' | '‧' => '·',
        _ => c,
    }
}

/// CJK ideographs and the CJK punctuation that appears inside names.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{2FA1F}'
        | '\u{3000}'..='\u{303F}'
    )
}

/// Full width glyphs are about twice as wide as Latin ones; used to place characters inside
/// a run whose only known extent is its start and end.
pub(crate) fn width_weight(c: char) -> f32 {
    if is_cjk(c) || ('\u{FF00}'..='\u{FFEF}').contains(&c) || c == '¥' {
        2.0
    } else {
        1.0
    }
}

/// Removes every whitespace character: names and labels are compared and output without it
/// (OFD converters space CJK text out char by char).
pub(crate) fn compact(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Normalises free text from XML: NFKC, whitespace between CJK characters removed, other
/// whitespace runs collapsed to one space.
#[cfg(feature = "xml")]
pub(crate) fn clean(s: &str) -> String {
    let n = normalize(s);
    let mut out = String::with_capacity(n.len());
    let mut pending_space = false;
    for c in n.chars() {
        if c.is_whitespace() {
            pending_space = !out.is_empty();
            continue;
        }
        if pending_space {
            let prev_cjk = out.chars().next_back().is_some_and(is_cjk);
            if !(prev_cjk || is_cjk(c)) {
                out.push(' ');
            }
            pending_space = false;
        }
        out.push(c);
    }
    out
}

/// Joins tokens of one table cell: a space only between two Latin/digit tokens, where it
/// separates words; CJK text is joined directly.
pub(crate) fn join_tokens<'a>(tokens: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for t in tokens {
        let prev = out.chars().next_back();
        let next = t.chars().next();
        if let (Some(p), Some(n)) = (prev, next)
            && p.is_ascii_alphanumeric()
            && n.is_ascii_alphanumeric()
        {
            out.push(' ');
        }
        out.push_str(t);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nfkc_folds_kangxi_radicals_and_full_width_forms() {
        assert_eq!(normalize("电⼦发票"), "电子发票");
        assert_eq!(normalize("⽅⼀⼈⾦⼤"), "方一人金大");
        assert_eq!(normalize("名称："), "名称:");
        assert_eq!(normalize("（小写）￥１２"), "(小写)¥12");
        assert_eq!(normalize("比例∶"), "比例:");
        assert_eq!(normalize("plain"), "plain");
    }

    #[test]
    #[cfg(feature = "xml")]
    fn spaced_cjk_is_joined_but_latin_words_keep_a_space() {
        assert_eq!(clean(" 销 售 方  名 称 "), "销售方名称");
        assert_eq!(clean("Apple  Inc 公 司"), "Apple Inc公司");
        assert_eq!(compact("销 售\u{3000}方"), "销售方");
    }

    #[test]
    fn tokens_join_with_space_only_between_latin_words() {
        assert_eq!(join_tokens(["良品铺子", "臭豆腐"]), "良品铺子臭豆腐");
        assert_eq!(join_tokens(["XL", "200"]), "XL 200");
        assert_eq!(join_tokens(["型号", "A1"]), "型号A1");
    }

    #[test]
    fn cjk_detection_and_widths() {
        assert!(is_cjk('发'));
        assert!(!is_cjk('A'));
        assert_eq!(width_weight('发'), 2.0);
        assert_eq!(width_weight('1'), 1.0);
    }
}
