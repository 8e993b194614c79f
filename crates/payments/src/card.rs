//! Card numbers and banks: `招商银行信用卡(1234)`, `尾号1234`,
//! `6217 **** **** 1234`, `621700******1234`, full numbers.

/// What a text says about a card.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CardInfo {
    pub last4: String,
    /// Digits of an unmasked card number, else empty.
    pub number: String,
    pub bank: String,
}

/// Banks as written on screens, longest first where one name contains
/// another, so `中国工商银行` wins over `工商银行` and `中国银行`.
const BANKS: &[&str] = &[
    "中国邮政储蓄银行",
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
    "邮政储蓄银行",
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

/// Characters that stand for hidden digits (and what OCR makes of `*`).
pub fn is_mask(c: char) -> bool {
    matches!(
        c,
        '*' | 'x' | 'X' | '•' | '·' | '●' | '※' | '+' | '#' | '×' | '米' | '。'
    )
}

/// A plausible payment card number: 13 to 19 digits passing the Luhn
/// check, which every bank card number does; a number OCR got a digit of
/// wrong (or dropped a group of) fails it, and is then not reported.
pub fn is_plausible_card_number(digits: &str) -> bool {
    is_full_number(digits) && luhn(digits)
}

/// An unmasked card number's length, all digits: 13 to 19.
fn is_full_number(token: &str) -> bool {
    (13..=19).contains(&token.len()) && token.chars().all(|c| c.is_ascii_digit())
}

/// Whether the line shows an unmasked card number (13 to 19 digits, in
/// groups or not) ending in `last4` that fails the Luhn check: OCR got a
/// digit of it wrong, perhaps one of the last four.
pub fn unchecked_number_ends_with(line: &str, last4: &str) -> bool {
    card_tokens(line)
        .iter()
        .any(|token| is_full_number(token) && token.ends_with(last4) && !luhn(token))
}

fn luhn(digits: &str) -> bool {
    let sum: u32 = digits
        .chars()
        .rev()
        .filter_map(|c| c.to_digit(10))
        .enumerate()
        .map(|(i, d)| {
            if i % 2 == 1 {
                if d * 2 > 9 { d * 2 - 9 } else { d * 2 }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// The bank named in the text: a known name, else any `…银行` of two to six
/// ideographs (a city commercial bank, a rural bank).
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

/// Reads the card a line mentions. Unmasked numbers go to `number` (and
/// their last four digits to `last4`); masked numbers, `尾号1234` and
/// `(1234)` after a card or bank word give `last4` only.
pub fn parse_card(s: &str) -> CardInfo {
    let mut info = CardInfo {
        bank: find_bank(s).unwrap_or_default(),
        ..CardInfo::default()
    };
    for token in card_tokens(s) {
        let digit_count = token.chars().filter(char::is_ascii_digit).count();
        let mask_count = token.chars().filter(|c| is_mask(*c)).count();
        if is_full_number(&token) {
            // The last four are right even when a digit before them is not;
            // the full number only when it passes the check.
            info.last4 = token.get(token.len() - 4..).unwrap_or_default().to_owned();
            if is_plausible_card_number(&token) {
                info.number = token;
            }
            return info;
        }
        if mask_count >= 2 && digit_count >= 4 {
            let tail = trailing_digits(&token);
            if tail.len() == 4 {
                info.last4 = tail.to_owned();
                return info;
            }
        }
    }
    if let Some(last4) = tail_number_after_word(s) {
        info.last4 = last4;
    }
    info
}

/// Reads the value of a card label (`卡号`, `付款卡`): like [`parse_card`],
/// and when OCR turned the mask stars into letters (`6200 sx xxxs 8311`,
/// `621700**xxy*6471 /C`), the final group of four digits still counts if
/// the value shows signs of a masked number: a leading digit group that is
/// too short for a full number, or junk glued before the group.
pub fn parse_card_field(s: &str) -> CardInfo {
    let mut info = parse_card(s);
    if info.last4.is_empty() {
        info.last4 = masked_tail(s).unwrap_or_default();
    }
    info
}

fn masked_tail(s: &str) -> Option<String> {
    let mut t = s.trim_end().trim_end_matches([')', ' ']);
    for suffix in ["/C", "/c", "/ C", "C"] {
        if let Some(rest) = t.strip_suffix(suffix) {
            t = rest.trim_end();
            break;
        }
    }
    let chars: Vec<char> = t.chars().collect();
    let n = chars.len();
    if n < 6 || !chars[n - 4..].iter().all(char::is_ascii_digit) || chars[n - 5].is_ascii_digit() {
        return None;
    }
    let before = &chars[..n - 4];
    let groups: Vec<usize> = before
        .split(|c| !c.is_ascii_digit())
        .map(<[char]>::len)
        .filter(|&len| len > 0)
        .collect();
    let digits: usize = groups.iter().sum::<usize>() + 4;
    // `6217 <junk> 1234`: a bank prefix, hidden digits, the last four. The
    // junk must be there: `6200 0000 0000` is the start of a full number
    // (wrapped onto the next line), not a masked one.
    let prefixed = groups.first().is_some_and(|&g| (4..=6).contains(&g))
        && before
            .iter()
            .any(|c| !c.is_ascii_digit() && !c.is_whitespace())
        && before.first().is_some_and(|c| ('3'..='6').contains(c))
        && (8..13).contains(&digits);
    let junk = before
        .iter()
        .rev()
        .take_while(|c| !c.is_ascii_digit() && !crate::text::is_cjk(**c))
        .filter(|c| !c.is_whitespace())
        .count();
    (prefixed || (groups.is_empty() && junk >= 2)).then(|| chars[n - 4..].iter().collect())
}

/// Runs of digits and mask characters, with single spaces and hyphens
/// between groups removed (`6217 **** **** 1234` → `6217********1234`).
fn card_tokens(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let is_card = |c: char| c.is_ascii_digit() || is_mask(c);
    let mut tokens = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if is_card(c) {
            cur.push(c);
        } else if matches!(c, ' ' | '-')
            && !cur.is_empty()
            && chars.get(i + 1).is_some_and(|n| is_card(*n))
            && chars.get(i.wrapping_sub(1)).is_some_and(|p| is_card(*p))
        {
            // A group separator inside the number.
        } else if !cur.is_empty() {
            tokens.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    tokens
}

/// A line that is nothing but a card number in groups, without a label
/// (a bank app prints it grey under its name): `6200 **** **** 1028`, the
/// stars perhaps read as ideographs (`6200 冰水水 水冰 6057`), or a full
/// number that passes the check digit. An icon's stray mark or two may
/// precede it. Stricter than a label's value, since nothing names it a
/// card: a full number must pass the Luhn check, a masked one must open
/// with a four-digit bank prefix and close with four digits.
pub fn number_line(s: &str) -> Option<CardInfo> {
    let groups: Vec<&str> = s.split_whitespace().collect();
    // Up to two leading marks (an icon read as `9`, `D)`), then the number.
    let start = groups
        .iter()
        .take(3)
        .position(|g| g.chars().count() >= 4 && g.chars().take(4).all(|c| c.is_ascii_digit()))?;
    if groups[..start]
        .iter()
        .map(|g| g.chars().count())
        .sum::<usize>()
        > 2
    {
        return None;
    }
    let groups = &groups[start..];
    // The digits-only reader runs the groups together (`6200******1028`).
    let compact: Vec<char> = groups.concat().chars().collect();
    if compact.iter().all(char::is_ascii_digit) {
        let digits: String = compact.iter().collect();
        let grouped = groups.len() >= 3 || compact.len() >= 16;
        if !(grouped && is_plausible_card_number(&digits)) {
            return None;
        }
        return Some(CardInfo {
            last4: digits[digits.len() - 4..].to_owned(),
            number: digits,
            bank: String::new(),
        });
    }
    let prefix = compact.iter().take_while(|c| c.is_ascii_digit()).count();
    let suffix = compact
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let middle = &compact[prefix..compact.len() - suffix];
    let masked = (2..=18).contains(&middle.len()) && !middle.iter().any(char::is_ascii_digit);
    let bank_prefix = (4..=6).contains(&prefix) && ('3'..='6').contains(&compact[0]);
    (bank_prefix && masked && suffix == 4).then(|| CardInfo {
        last4: compact[compact.len() - 4..].iter().collect(),
        ..CardInfo::default()
    })
}

/// A line of nothing but digit groups, as long as a card number, that is
/// none (`62600 60000 9000 0009 489`: a bold monospaced number's dotted
/// zeros read as `60`, its last group parted): a card number misread.
pub fn misread_number_line(s: &str) -> bool {
    let groups: Vec<&str> = s.split_whitespace().collect();
    let digits: usize = groups.iter().map(|g| g.len()).sum();
    groups.len() >= 3
        && groups.iter().all(|g| g.chars().all(|c| c.is_ascii_digit()))
        && (13..=23).contains(&digits)
        && groups[0].starts_with(['3', '4', '5', '6'])
        && number_line(s).is_none()
}

/// `尾号1234`, `末四位 1234`, `(1234)`, or four digits ending a line that
/// names a card or a bank (`招商银行信用卡 1234`).
fn tail_number_after_word(s: &str) -> Option<String> {
    let compact = crate::text::compact(s);
    let chars: Vec<char> = compact.chars().collect();
    let four_at = |i: usize| -> Option<String> {
        let group: String = chars.get(i..i + 4)?.iter().collect();
        let bounded = !(chars.get(i + 4).is_some_and(char::is_ascii_digit)
            || i > 0 && chars[i - 1].is_ascii_digit());
        (group.chars().all(|c| c.is_ascii_digit()) && bounded).then_some(group)
    };
    for marker in ["尾号", "末四位", "后四位", "尾数"] {
        if let Some(pos) = compact.find(marker) {
            let mut i = compact[..pos].chars().count() + marker.chars().count();
            while chars.get(i).is_some_and(|c| matches!(c, ':' | '为' | '是')) {
                i += 1;
            }
            if let Some(found) = four_at(i) {
                return Some(found);
            }
        }
    }
    let names_card = ["卡", "银行", "Card", "card"]
        .iter()
        .any(|w| compact.contains(w));
    if !names_card {
        return None;
    }
    // The last standalone group of four digits, in brackets or at the end.
    (0..chars.len()).rev().find_map(|i| {
        let found = four_at(i)?;
        let before = i.checked_sub(1).map(|k| chars[k]);
        let after = chars.get(i + 4).copied();
        let bracketed =
            matches!(before, Some('(' | '[' | '<')) || matches!(after, Some(')' | ']' | '>'));
        let at_end = after.is_none();
        (bracketed || at_end).then_some(found)
    })
}

/// The run of ASCII digits ending a text (`9462` of `*9462`).
pub(crate) fn trailing_digits(text: &str) -> &str {
    &text[text.trim_end_matches(|c: char| c.is_ascii_digit()).len()..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn last4(s: &str) -> String {
        parse_card(s).last4
    }

    #[test]
    fn misread_card_number_lines() {
        assert!(misread_number_line("62600 60000 9000 0009 489"));
        // A card number, a date, an amount, an order number: none.
        assert!(!misread_number_line("6200 0000 0000 0009 480"));
        assert!(!misread_number_line("2025 11 06 07 27"));
        assert!(!misread_number_line("70,216.23"));
        assert!(!misread_number_line("20250306300212669057"));
    }

    #[test]
    fn a_full_number_failing_its_check_digit_is_told() {
        assert!(unchecked_number_ends_with(
            "交易卡号: 6206 0000 6006 0600 659",
            "0659"
        ));
        assert!(!unchecked_number_ends_with(
            "交易卡号: 6200 0000 0000 0000 059",
            "0059"
        ));
        assert!(!unchecked_number_ends_with(
            "卡号 6200 **** **** 0659",
            "0659"
        ));
        assert!(!unchecked_number_ends_with(
            "交易卡号: 6206 0000 6006 0600 659",
            "0059"
        ));
    }

    #[test]
    fn app_payment_methods() {
        let c = parse_card("招商银行信用卡(1234)");
        assert_eq!(
            (c.last4.as_str(), c.bank.as_str(), c.number.as_str()),
            ("1234", "招商银行", "")
        );
        assert_eq!(last4("中国工商银行储蓄卡(0042"), "0042");
        assert_eq!(last4("建设银行 借记卡 尾号 5678"), "5678");
        // Bullets read as ideographic full stops.
        assert_eq!(last4("。。。。3263"), "3263");
        assert_eq!(last4("付款卡 交通银行信用卡 9012"), "9012");
        assert_eq!(last4("零钱"), "");
        assert_eq!(last4("余额宝"), "");
        assert_eq!(parse_card("中国工商银行储蓄卡").bank, "中国工商银行");
        assert_eq!(parse_card("中国银行信用卡").bank, "中国银行");
        assert_eq!(
            parse_card("示例农村商业银行借记卡").bank,
            "示例农村商业银行"
        );
    }

    #[test]
    fn masked_and_full_numbers() {
        assert_eq!(last4("卡号 6217 **** **** 1234"), "1234");
        assert_eq!(last4("CARD NO. 621700******1234 /C"), "1234");
        assert_eq!(last4("6217 xxxx xxxx 4321"), "4321");
        assert_eq!(last4("**** 8765"), "8765");
        let c = parse_card("卡号 6200 0000 0000 0001 230");
        assert_eq!(
            (c.number.as_str(), c.last4.as_str()),
            ("6200000000000001230", "1230")
        );
        // One digit misread: the check fails, only the last four remain.
        let c = parse_card("卡号 6200 0000 0000 0001 231");
        assert_eq!((c.number.as_str(), c.last4.as_str()), ("", "1231"));
    }

    #[test]
    fn masks_misread_by_ocr() {
        assert_eq!(parse_card_field("6200 \"sx xxxs 8311").last4, "8311");
        assert_eq!(parse_card_field("6200 sr 7224").last4, "7224");
        assert_eq!(parse_card_field("621700**xxy*6471 /C").last4, "6471");
        assert_eq!(parse_card_field("sxxxx 1234").last4, "1234");
        assert_eq!(parse_card_field("6200 一 8962").last4, "8962");
        assert_eq!(parse_card_field("6200 \"5 9310").last4, "9310");
        assert_eq!(parse_card_field("2025-03-11 1234").last4, "");
        assert_eq!(parse_card_field("电话 1234").last4, "");
        // The start of a full number, the rest wrapped onto the next line.
        assert_eq!(parse_card_field("6200 0000 0000").last4, "");
    }

    #[test]
    fn unlabelled_number_lines() {
        let last4 = |s: &str| number_line(s).map(|c| c.last4);
        assert_eq!(last4("6200 **** **** 1028").as_deref(), Some("1028"));
        assert_eq!(last4("9 6200 冰水水 水冰 6057").as_deref(), Some("6057"));
        let full = number_line("6200 0000 0000 0000 505").map(|c| c.number);
        assert_eq!(full.as_deref(), Some("6200000000000000505"));
        // A digit misread fails the check; dates, times and amounts are no cards.
        assert_eq!(last4("6200 0000 0000 0000 506"), None);
        assert_eq!(last4("2025-03-11 12:03:45"), None);
        assert_eq!(last4("11:27 HD 4G 31%"), None);
        assert_eq!(last4("交易金额 6200 **** **** 1028"), None);
        assert_eq!(last4("1234 5678"), None);
        assert_eq!(last4("6200******1028").as_deref(), Some("1028"));
        assert_eq!(last4("6200****-1776").as_deref(), Some("1776"));
        assert_eq!(last4("20251002638804768051"), None);
        assert_eq!(last4("-387.00"), None);
    }

    #[test]
    fn no_card_in_other_numbers() {
        assert_eq!(last4("订单号 2025031122001412345678901234"), "");
        assert_eq!(last4("2025-03-11 12:03:45"), "");
    }
}
