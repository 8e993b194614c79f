//! Cards as screens write them: `兴业银行信用卡(1569)`, `尾号1234`, `6200 0000 0000 9410`,
//! `621700******0627/C`, `6217 **** **** 1234`.

/// What a text says about a card.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CardInfo {
    pub last4: String,
    /// Digits of an unmasked card number that passes the Luhn check, else empty.
    pub number: String,
    pub bank: String,
}

/// Banks as written on screens. The longest name found at the earliest place wins, so
/// `中国工商银行` beats `工商银行` and `中国银行`.
const BANKS: &[&str] = &[
    "中国邮政储蓄银行",
    "邮政储蓄银行",
    "中国工商银行",
    "中国建设银行",
    "中国农业银行",
    "中国光大银行",
    "中国民生银行",
    "上海浦东发展银行",
    "浦发银行",
    "工商银行",
    "建设银行",
    "农业银行",
    "中国银行",
    "交通银行",
    "招商银行",
    "中信银行",
    "光大银行",
    "民生银行",
    "兴业银行",
    "平安银行",
    "华夏银行",
    "广发银行",
    "邮储银行",
    "北京银行",
    "上海银行",
    "宁波银行",
    "江苏银行",
    "南京银行",
    "杭州银行",
    "浙商银行",
    "渤海银行",
    "恒丰银行",
    "北京农商银行",
    "上海农商银行",
    "徽商银行",
    "成都银行",
    "重庆银行",
    "长沙银行",
    "天津银行",
];

/// Characters that stand for hidden digits.
fn is_mask(c: char) -> bool {
    matches!(c, '*' | 'x' | 'X' | '•' | '·' | '●' | '×' | '＊')
}

/// 13 to 19 digits passing the Luhn check, which every bank card number does; a misread
/// digit fails it.
pub fn is_plausible_card_number(digits: &str) -> bool {
    (13..=19).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit()) && luhn(digits)
}

fn luhn(digits: &str) -> bool {
    let sum: u32 = digits
        .chars()
        .rev()
        .filter_map(|c| c.to_digit(10))
        .enumerate()
        .map(|(i, d)| match (i % 2, d * 2) {
            (1, d2) if d2 > 9 => d2 - 9,
            (1, d2) => d2,
            _ => d,
        })
        .sum();
    sum.is_multiple_of(10)
}

/// The bank named in the text: a known name, else `…银行` of two to six ideographs before it.
pub fn find_bank(s: &str) -> Option<String> {
    let compact = crate::text::compact(s);
    let known = BANKS
        .iter()
        .filter_map(|b| compact.find(b).map(|pos| (pos, *b)))
        .min_by_key(|(pos, b)| (*pos, std::cmp::Reverse(b.len())));
    if let Some((_, bank)) = known {
        return Some(bank.to_owned());
    }
    let chars: Vec<char> = compact.chars().collect();
    let end = chars.windows(2).position(|w| w == ['银', '行'])?;
    let mut start = end;
    while start > 0 && end - start < 6 && crate::text::is_cjk(chars[start - 1]) {
        start -= 1;
    }
    (end - start >= 2).then(|| chars[start..end + 2].iter().collect())
}

/// Reads the card a text names. An unmasked number gives `number` (when it passes the
/// check) and `last4`; a masked number gives `last4` when exactly four digits follow the
/// mask; `(1234)` or `尾号1234` give `last4`. Anything less clear gives nothing.
pub fn parse_card(s: &str) -> CardInfo {
    let compact = crate::text::compact(s);
    let mut info = CardInfo {
        bank: find_bank(&compact).unwrap_or_default(),
        ..CardInfo::default()
    };
    let tokens = tokens(&compact);
    // A number holds digits: a lone `·` between a bank and 尾号 is punctuation.
    if let Some(token) = tokens.iter().find(|t| {
        t.chars().any(|c| c.is_ascii_digit()) && (t.chars().any(is_mask) || t.len() >= 13)
    }) {
        let tail: String = token
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if token.chars().any(is_mask) {
            if tail.len() == 4 {
                info.last4 = tail;
            }
        } else if is_plausible_card_number(token) {
            info.last4 = tail[tail.len() - 4..].to_owned();
            info.number = token.clone();
        }
        return info;
    }
    info.last4 = marked_tail(&compact).unwrap_or_default();
    info
}

/// Runs of digits and mask characters; `/C` and similar suffixes end a run.
fn tokens(compact: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in compact.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || is_mask(c) {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    out
}

/// Words before a card's last four digits (`尾号1234`).
pub const TAIL_MARKERS: [&str; 4] = ["尾号", "末四位", "后四位", "尾数"];

/// `(1234)` or `尾号1234`, `末四位1234`: four digits a card word or brackets mark.
fn marked_tail(compact: &str) -> Option<String> {
    let four = |s: &str| {
        let d: String = s.chars().take_while(char::is_ascii_digit).collect();
        (d.len() == 4).then_some(d)
    };
    for marker in TAIL_MARKERS {
        if let Some((_, rest)) = compact.split_once(marker) {
            return four(rest.trim_start_matches([':', '为']));
        }
    }
    let (_, rest) = compact.rsplit_once('(')?;
    let digits = four(rest)?;
    rest[4..].starts_with(')').then_some(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(s: &str) -> (String, String, String) {
        let c = parse_card(s);
        (c.bank, c.last4, c.number)
    }

    #[test]
    fn card_texts() {
        let t = |b: &str, l: &str, n: &str| (b.to_owned(), l.to_owned(), n.to_owned());
        assert_eq!(read("兴业银行信用卡(1569)"), t("兴业银行", "1569", ""));
        assert_eq!(read("退回中国银行信用卡(1765)"), t("中国银行", "1765", ""));
        assert_eq!(
            read("6200 0000 0000 9410"),
            t("", "9410", "6200000000009410")
        );
        assert_eq!(read("621700******0627/C"), t("", "0627", ""));
        // A dropped digit after the mask leaves three: not a last four.
        assert_eq!(read("621700****627/C"), t("", "", ""));
        // A misread full number fails the check and gives nothing.
        assert_eq!(read("6200 0000 0000 9411"), t("", "", ""));
        assert_eq!(read("招商银行 尾号1234"), t("招商银行", "1234", ""));
        assert_eq!(read("中国银行·尾号6742"), t("中国银行", "6742", ""));
        assert_eq!(read("零钱"), t("", "", ""));
        assert_eq!(read("中国工商银行储蓄卡"), t("中国工商银行", "", ""));
    }
}
