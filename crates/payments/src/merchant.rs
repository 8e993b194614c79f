//! Payee names compared loosely: legal-form words and bracketed parts
//! removed, then character bigrams (Dice coefficient), since a screen shows
//! `示例餐饮` where the invoice says `北京示例餐饮管理有限公司`.

use std::collections::HashMap;

use crate::text;

/// Legal-form words that say nothing about who the payee is, longest first.
const NOISE: &[&str] = &[
    "股份有限公司",
    "有限责任公司",
    "个体工商户",
    "有限公司",
    "分公司",
    "分店",
    "公司",
];

/// The name reduced to what identifies the payee.
pub fn normalize_name(name: &str) -> String {
    let mut s = text::folded_compact(name);
    // Bracketed parts: `(普通合伙)`, `(北京)`, `(中国)`.
    while let Some(open) = s.find('(') {
        match s[open..].find(')') {
            Some(close) => s.replace_range(open..open + close + 1, ""),
            None => {
                s.truncate(open);
            }
        }
    }
    for noise in NOISE {
        s = s.replace(noise, "");
    }
    s.chars().filter(|c| c.is_alphanumeric()).collect()
}

/// Similarity of two payee names in 0..=1; 0 when either is empty.
pub fn similarity(a: &str, b: &str) -> f64 {
    let a = normalize_name(a);
    let b = normalize_name(b);
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    if a == b {
        return 1.0;
    }
    let dice = dice(&a, &b);
    // One name inside the other (the short name a screen shows).
    let (short, long) = if a.chars().count() <= b.chars().count() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    if short.chars().count() >= 2 && long.contains(short.as_str()) {
        return dice.max(0.8);
    }
    dice
}

fn bigrams(s: &str) -> HashMap<(char, char), usize> {
    let chars: Vec<char> = s.chars().collect();
    let mut map = HashMap::new();
    if chars.len() == 1 {
        map.insert((chars[0], '\0'), 1);
    }
    for w in chars.windows(2) {
        *map.entry((w[0], w[1])).or_insert(0) += 1;
    }
    map
}

fn dice(a: &str, b: &str) -> f64 {
    let ba = bigrams(a);
    let bb = bigrams(b);
    let total: usize = ba.values().sum::<usize>() + bb.values().sum::<usize>();
    if total == 0 {
        return 0.0;
    }
    let common: usize = ba
        .iter()
        .map(|(k, n)| (*n).min(bb.get(k).copied().unwrap_or(0)))
        .sum();
    #[expect(clippy::cast_precision_loss, reason = "bigram counts are small")]
    let score = 2.0 * common as f64 / total as f64;
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_legal_forms() {
        assert_eq!(
            normalize_name("北京示例餐饮管理有限公司"),
            "北京示例餐饮管理"
        );
        assert_eq!(normalize_name("示例咨询中心（普通合伙）"), "示例咨询中心");
        assert_eq!(normalize_name("个体工商户 示例小吃"), "示例小吃");
    }

    #[test]
    fn similar_names() {
        assert!(similarity("示例餐饮", "北京示例餐饮管理有限公司") >= 0.8);
        assert!(similarity("示例餐饮管理有限公司", "示例餐饮管理(北京)有限公司") > 0.99);
        assert!(similarity("示例书店", "样例科技有限公司") < 0.2);
        assert!(similarity("", "x").abs() < f64::EPSILON);
    }
}
