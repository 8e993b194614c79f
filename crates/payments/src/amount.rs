//! Money amounts: finding two-decimal amounts in OCR text and formatting
//! cents as `58.00`.

/// Sign written in front of an amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sign {
    None,
    Minus,
    Plus,
}

/// One amount found in a line of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AmountHit {
    /// Absolute value in cents.
    pub cents: i64,
    pub sign: Sign,
    /// Written with `¥`, `RMB`, `CNY`, `人民币` or `元`.
    pub currency: bool,
    /// The currency before it is one glyph (`¥`, or how OCR reads one) or
    /// a code glued to the digits (`RMB43.06`): what a digits-only re-read
    /// of the number's crop may take for a digit in front. A word apart
    /// (`人民币 157.59`) is not.
    pub currency_glyph: bool,
    /// Nothing but the amount, its sign and currency (and spaces) on the
    /// line: how the big amount of a bill screen is written.
    pub alone: bool,
    /// Signed or with a currency, nothing but icon noise before it (at most
    /// two symbols or letters) and no other number after it: a headline
    /// amount with something beside it (a status pill, `交易成功`).
    pub leads: bool,
}

/// Largest amount accepted: a payment screen of more than ten million yuan is
/// far more likely an order number misread.
const MAX_CENTS: i64 = 1_000_000_000;

/// Formats cents as `58.00` (negative values get a leading `-`).
pub fn format_cents(cents: i64) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// Parses a value that is meant to be one amount (`-¥1,058.5`, `RMB 58.00`,
/// `58元`, `58`) into signed cents. Used for values already isolated by a
/// label or handed over by the LLM path; OCR lines go through
/// [`find_amounts`].
pub fn parse_plain(s: &str) -> Option<i64> {
    let mut t: String = s
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .collect();
    for word in ["人民币", "RMB", "CNY", "rmb", "¥", "￥", "元"] {
        t = t.replace(word, "");
    }
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(&t)),
    };
    let (int_part, frac_part) = match body.split_once('.') {
        Some((i, f)) => (i, f),
        None => (body, ""),
    };
    if int_part.is_empty()
        || int_part.len() > 9
        || frac_part.len() > 2
        || !int_part.chars().all(|c| c.is_ascii_digit())
        || !frac_part.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let int: i64 = int_part.parse().ok()?;
    let frac: i64 = match frac_part.len() {
        0 => 0,
        1 => frac_part.parse::<i64>().ok()? * 10,
        _ => frac_part.parse().ok()?,
    };
    let cents = int.checked_mul(100)?.checked_add(frac)?;
    if cents > MAX_CENTS {
        return None;
    }
    Some(if negative { -cents } else { cents })
}

/// Finds every amount written with exactly two decimals in a normalised
/// line (`-58.00`, `¥1,058.00`, `RMB 58.00`), tolerating what OCR does to
/// them: `。`, `°` or a lone `,` for the decimal point, spaces around the point,
/// `O` for `0`, `一` for a minus.
pub fn find_amounts(line: &str) -> Vec<AmountHit> {
    let chars = clean_numeric(line);
    let n = chars.len();
    let mut hits = Vec::new();
    let mut i = 0;
    while i < n {
        let starts_number = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_ascii_digit() || matches!(chars[i - 1], '.' | ',')));
        if !starts_number {
            i += 1;
            continue;
        }
        match scan_amount(&chars, i) {
            Some((cents, end)) => {
                let currency_after = chars.get(end) == Some(&'元');
                let (sign, currency_before, currency_glyph, from) = look_back(&chars, i);
                let to = if currency_after { end + 1 } else { end };
                let alone = is_alone(&chars[..from], &chars[to..]);
                let currency = currency_before || currency_after;
                let leads = (sign != Sign::None || currency)
                    && (is_alone(&chars[..from], &[])
                        || (sign != Sign::None && is_icon_digit(&chars[..from])))
                    && !chars[to..].iter().any(char::is_ascii_digit);
                hits.push(AmountHit {
                    cents,
                    sign,
                    currency,
                    currency_glyph,
                    alone,
                    leads,
                });
                i = end;
            }
            None => {
                while i < n && (chars[i].is_ascii_digit() || matches!(chars[i], '.' | ',')) {
                    i += 1;
                }
            }
        }
    }
    hits
}

/// Nothing else on the line but a currency sign OCR misread (`Y*`, `xl`):
/// at most two Latin letters or symbols, no digits, no ideographs.
fn is_alone(before: &[char], after: &[char]) -> bool {
    let rest: Vec<char> = before
        .iter()
        .chain(after)
        .copied()
        .filter(|c| !c.is_whitespace())
        .collect();
    rest.len() <= 2
        && rest.iter().all(|c| {
            !c.is_ascii_digit() && !crate::text::is_cjk(*c) && !c.is_alphanumeric()
                || c.is_ascii_alphabetic()
        })
}

/// An icon OCR read as one digit, standing apart before a signed amount
/// (`9 -155.00` under a payee's logo).
fn is_icon_digit(before: &[char]) -> bool {
    let rest: Vec<char> = before
        .iter()
        .copied()
        .filter(|c| !c.is_whitespace())
        .collect();
    matches!(rest.as_slice(), [d] if d.is_ascii_digit()) && before.last() == Some(&' ')
}

/// Whether exactly three digits follow the mark at `i`, then the point and
/// two decimals ending the number.
fn three_then_point(out: &[char], i: usize) -> bool {
    out.get(i + 1..i + 4)
        .is_some_and(|g| g.iter().all(char::is_ascii_digit))
        && out.get(i + 4) == Some(&'.')
        && out
            .get(i + 5..i + 7)
            .is_some_and(|g| g.iter().all(char::is_ascii_digit))
        && !out.get(i + 7).is_some_and(char::is_ascii_digit)
}

/// Removes the spaces inside a number starting at `start` when what runs
/// from there is digit groups, single spaces and one decimal point with
/// two decimals, and no digit follows on the line.
fn join_spaced_groups(out: &mut Vec<char>, start: usize) {
    let mut end = start;
    while end < out.len() {
        let c = out[end];
        let next_numeric = out
            .get(end + 1)
            .is_some_and(|n| n.is_ascii_digit() || matches!(n, '.' | ','));
        if c.is_ascii_digit() || matches!(c, ',' | '.') || (c == ' ' && next_numeric) {
            end += 1;
        } else {
            break;
        }
    }
    let segment = &out[start..end];
    if !segment.contains(&' ') || out[end..].iter().any(char::is_ascii_digit) {
        return;
    }
    let joined: Vec<char> = segment.iter().copied().filter(|c| *c != ' ').collect();
    let n = joined.len();
    let decimals = n >= 4
        && joined[n - 3] == '.'
        && joined[n - 2..].iter().all(char::is_ascii_digit)
        && !joined[..n - 3].contains(&'.');
    if decimals {
        out.splice(start..end, joined);
    }
}

/// Scans `ddd[,ddd]*.dd` starting at `start`; returns cents and the end.
fn scan_amount(chars: &[char], start: usize) -> Option<(i64, usize)> {
    let mut i = start;
    let mut int = String::new();
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            int.push(c);
            i += 1;
        } else if c == ','
            && !int.is_empty()
            && chars
                .get(i + 1..i + 4)
                .is_some_and(|g| g.iter().all(char::is_ascii_digit))
            && !chars.get(i + 4).is_some_and(char::is_ascii_digit)
        {
            i += 1;
        } else {
            break;
        }
    }
    if int.is_empty() || int.len() > 8 || chars.get(i) != Some(&'.') {
        return None;
    }
    // Nobody writes `07.44`: a leading zero before more digits is a digit
    // misread (OCR turning a `6` into `0`), so the number is not trusted.
    if int.len() > 1 && int.starts_with('0') {
        return None;
    }
    let d1 = chars.get(i + 1).filter(|c| c.is_ascii_digit())?;
    let d2 = chars.get(i + 2).filter(|c| c.is_ascii_digit())?;
    let end = i + 3;
    // A third decimal or another `.d` makes it a version, a date or an IP.
    if chars.get(end).is_some_and(char::is_ascii_digit)
        || (chars.get(end) == Some(&'.') && chars.get(end + 1).is_some_and(char::is_ascii_digit))
    {
        return None;
    }
    let int: i64 = int.parse().ok()?;
    let frac = i64::from(d1.to_digit(10)? * 10 + d2.to_digit(10)?);
    let cents = int.checked_mul(100)?.checked_add(frac)?;
    (cents <= MAX_CENTS).then_some((cents, end))
}

/// Sign and currency written before the number at `start`, whether that
/// currency is a glyph (see [`AmountHit::currency_glyph`]), and where they
/// begin.
fn look_back(chars: &[char], start: usize) -> (Sign, bool, bool, usize) {
    let mut j = start;
    let mut currency = false;
    let mut glyph = false;
    let skip_spaces = |j: &mut usize| {
        while *j > 0 && chars[*j - 1] == ' ' {
            *j -= 1;
        }
    };
    skip_spaces(&mut j);
    for word in ["人民币", "RMB", "CNY", "¥", "Y", "y", "x", "*", "羊", "半"] {
        let w: Vec<char> = word.chars().collect();
        // A letter or star counts only glued to the digits: it is how OCR
        // reads a `¥` (`Y55.10`, `x55.10`, `*507.00`).
        if matches!(word, "Y" | "y" | "x" | "*") && j != start {
            continue;
        }
        // The page's model reads a small `¥` before a headline as an
        // ideograph of its shape (`羊 1532.00`): only starting the line,
        // never the end of a name (`小肥羊 58.00`).
        if matches!(word, "羊" | "半") && j != w.len() {
            continue;
        }
        if j >= w.len() && chars[j - w.len()..j] == w[..] {
            glyph = w.len() == 1 || j == start;
            j -= w.len();
            currency = true;
            skip_spaces(&mut j);
            break;
        }
    }
    let sign = match j.checked_sub(1).map(|k| chars[k]) {
        Some('-' | '~') => Sign::Minus,
        Some('+') => Sign::Plus,
        // A big bold minus is often read as the ideograph one, and a plus
        // as the ideograph ten.
        Some('一') if j < 2 || !crate::text::is_cjk(chars[j - 2]) => Sign::Minus,
        Some('十') if j < 2 || !crate::text::is_cjk(chars[j - 2]) => Sign::Plus,
        _ => Sign::None,
    };
    let from = if sign == Sign::None { j } else { j - 1 };
    (sign, currency, glyph, from)
}

/// Repairs what OCR does inside numbers; hit positions refer to this
/// cleaned form.
fn clean_numeric(line: &str) -> Vec<char> {
    let src: Vec<char> = line.chars().collect();
    let mut out = src.clone();
    let digit_at = |k: Option<usize>| k.and_then(|k| src.get(k)).is_some_and(char::is_ascii_digit);
    for (i, c) in src.iter().enumerate() {
        let prev = i.checked_sub(1);
        let next = Some(i + 1);
        match c {
            'O' | 'o'
                if digit_at(prev)
                    || (digit_at(next) && !prev.is_some_and(|p| src[p].is_alphabetic())) =>
            {
                out[i] = '0';
            }
            // A photo reader's point may come back as a degree sign (`92°79`).
            '。' | '·' | '°' if digit_at(prev) && digit_at(next) => out[i] = '.',
            // Big headline digits are spaced out: `85 。14`, `16, 17`, with
            // exactly two digits after the mark ending the number.
            '。' | '·' | ',' | '.'
                if {
                    let before = if src.get(i.wrapping_sub(1)) == Some(&' ') {
                        i.checked_sub(2)
                    } else {
                        prev
                    };
                    let after = if src.get(i + 1) == Some(&' ') {
                        i + 2
                    } else {
                        i + 1
                    };
                    (before != prev || after != i + 1)
                        && digit_at(before)
                        && digit_at(Some(after))
                        && digit_at(Some(after + 1))
                        && !digit_at(Some(after + 2))
                        && !src[..i].contains(&'.')
                } =>
            {
                out[i] = '.';
            }
            // `58,00` at the end of a number is a decimal comma, not thousands.
            ',' if digit_at(prev)
                && digit_at(next)
                && digit_at(Some(i + 2))
                && !digit_at(Some(i + 3))
                && !src[..i].contains(&'.') =>
            {
                out[i] = '.';
            }
            _ => {}
        }
    }
    // A thousands separator read twice (`-4,.743.00`): the second mark goes.
    let mut i = 2;
    while i < out.len() {
        if matches!(out[i], '.' | ',' | ';' | ':')
            && out[i - 1] == ','
            && out[i - 2].is_ascii_digit()
            && three_then_point(&out, i)
        {
            out.remove(i);
        } else {
            i += 1;
        }
    }
    // A thousands separator misread (`4;674.00`, `4.674.00`): a mark between
    // a digit and exactly three digits that are followed by the decimals.
    for i in 1..out.len() {
        if matches!(out[i], ';' | ':' | '.' | '，' | '\'' | '`')
            && out[i - 1].is_ascii_digit()
            && three_then_point(&out, i)
        {
            out[i] = ',';
        }
    }
    // A bold `1` read as a bar (`-| 15.00` for `-115.00`) right after a sign,
    // a currency sign or the start: it becomes `1`, and a space after it goes.
    let mut i = 0;
    while i < out.len() {
        let bar = matches!(out[i], '|' | 'l' | 'I' | '!' | ']' | '[');
        let lead = i == 0 || matches!(out[i - 1], '-' | '+' | '¥' | ' ');
        let before_sign = i == 0
            || matches!(out[i - 1], '-' | '+' | '¥')
            || (i >= 2 && matches!(out[i - 2], '-' | '+' | '¥'));
        let next = if out.get(i + 1) == Some(&' ') {
            i + 2
        } else {
            i + 1
        };
        if bar && lead && before_sign && out.get(next).is_some_and(char::is_ascii_digit) {
            out[i] = '1';
            if next == i + 2 {
                out.remove(i + 1);
            }
        }
        // Big headline digits come apart at any gap (`-1 89.68`,
        // `-8 16.00`, `-3 177.05`, `-1 ,115.42`): after a sign, groups of digits split by
        // single spaces up to the decimals, with no other number on the
        // line, are one number.
        if i >= 1 && matches!(out[i - 1], '-' | '+' | '¥') && out[i].is_ascii_digit() {
            join_spaced_groups(&mut out, i);
        }
        i += 1;
    }
    // `58 .00` / `58. 00`: drop spaces next to a point between digits.
    let mut result: Vec<char> = Vec::with_capacity(out.len());
    for (i, c) in out.iter().enumerate() {
        let before_point = *c == ' '
            && out.get(i + 1) == Some(&'.')
            && result.last().is_some_and(char::is_ascii_digit);
        let after_point = *c == ' '
            && result.last() == Some(&'.')
            && out.get(i + 1).is_some_and(char::is_ascii_digit);
        if !(before_point || after_point) {
            result.push(*c);
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(line: &str) -> Option<(String, Sign, bool)> {
        find_amounts(line)
            .first()
            .map(|h| (format_cents(h.cents), h.sign, h.currency))
    }

    #[test]
    fn finds_signed_amounts() {
        assert_eq!(first("-58.00"), Some(("58.00".into(), Sign::Minus, false)));
        assert_eq!(
            first("+1,058.00"),
            Some(("1058.00".into(), Sign::Plus, false))
        );
        assert_eq!(first("¥58.00"), Some(("58.00".into(), Sign::None, true)));
        assert_eq!(
            first("金额:RMB 58.00"),
            Some(("58.00".into(), Sign::None, true))
        );
        assert_eq!(first("-¥ 12.50"), Some(("12.50".into(), Sign::Minus, true)));
        assert_eq!(first("一58.00"), Some(("58.00".into(), Sign::Minus, false)));
        assert_eq!(first("58.00元"), Some(("58.00".into(), Sign::None, true)));
    }

    #[test]
    fn a_currency_glyph_or_glued_code() {
        for line in ["¥811.86", "¥ 811.86", "Y811.86", "RMB43.06", "-¥58.00"] {
            assert!(find_amounts(line)[0].currency_glyph, "{line}");
        }
        for line in ["人民币 157.59", "RMB 43.06", "58.00元", "58.00"] {
            assert!(!find_amounts(line)[0].currency_glyph, "{line}");
        }
    }

    #[test]
    fn alone_with_misread_currency() {
        assert!(find_amounts("Y*824.00")[0].alone);
        assert!(find_amounts("xl117.00")[0].alone);
        assert!(find_amounts("-58.00")[0].alone);
        assert!(!find_amounts("余额 58.00")[0].alone);
        assert!(!find_amounts("x 12 58.00")[0].alone);
        assert!(find_amounts("9 -155.00 二")[0].leads);
        assert!(!find_amounts("9 155.00 二")[0].leads);
        assert!(!find_amounts("12 -155.00")[0].leads);
        // The yen sign read as a letter or a star glued to the digits; a
        // plus read as the ideograph ten.
        for line in ["yx55.10", "x55.10", "*507.00", "Y12.81"] {
            assert!(find_amounts(line)[0].currency, "{line}");
        }
        assert!(!find_amounts("x 55.10")[0].currency);
        // The yen sign read as an ideograph of its shape, starting the line.
        for line in ["羊 1532.00", "半 12.50"] {
            let hit = &find_amounts(line)[0];
            assert!(hit.currency && hit.alone, "{line}");
        }
        assert!(!find_amounts("小肥羊 58.00")[0].currency);
        assert!(!find_amounts("小肥羊 58.00")[0].alone);
        assert_eq!(first("十 41.28"), Some(("41.28".into(), Sign::Plus, false)));
    }

    #[test]
    fn repairs_ocr_damage() {
        assert_eq!(first("-58。00").map(|h| h.0), Some("58.00".into()));
        assert_eq!(first("92°79").map(|h| h.0), Some("92.79".into()));
        assert_eq!(first("-58,00").map(|h| h.0), Some("58.00".into()));
        assert_eq!(first("-58. 00").map(|h| h.0), Some("58.00".into()));
        assert_eq!(first("-5O.00").map(|h| h.0), Some("50.00".into()));
        assert_eq!(first("-| 15.00").map(|h| h.0), Some("115.00".into()));
        assert_eq!(first("-l5.00").map(|h| h.0), Some("15.00".into()));
        assert_eq!(first("-4;674.00").map(|h| h.0), Some("4674.00".into()));
        assert_eq!(
            first("交易金额 -4.674.00").map(|h| h.0),
            Some("4674.00".into())
        );
        assert_eq!(first("¥|28.00").map(|h| h.0), Some("128.00".into()));
        assert_eq!(first("-85 。14").map(|h| h.0), Some("85.14".into()));
        assert_eq!(first("-16, 17 -").map(|h| h.0), Some("16.17".into()));
        assert_eq!(first("-1 89.68").map(|h| h.0), Some("189.68".into()));
        assert_eq!(first("-1 15 .79 元").map(|h| h.0), Some("115.79".into()));
        assert_eq!(first("-1 15 ,79 上-").map(|h| h.0), Some("115.79".into()));
        assert!(find_amounts("-85 。14")[0].alone);
        assert_eq!(first("x 12 58.00").map(|h| h.0), Some("58.00".into()));
        assert_eq!(first("-3 177.05").map(|h| h.0), Some("3177.05".into()));
        assert_eq!(first("12 177.05").map(|h| h.0), Some("177.05".into()));
        assert_eq!(first("-8 16.00").map(|h| h.0), Some("816.00".into()));
        // A separator read twice.
        assert_eq!(first("-4,.743.00").map(|h| h.0), Some("4743.00".into()));
        // The gap before a group's comma (`-1 ,115.42`).
        assert_eq!(first("-1 ,115.42").map(|h| h.0), Some("1115.42".into()));
        assert_eq!(first("-2,3 12 .81 一").map(|h| h.0), Some("2312.81".into()));
        assert_eq!(first("-1 89.608=").map(|h| h.0), None);
        assert_eq!(first("-5 件 58.00").map(|h| h.0), Some("58.00".into()));
    }

    #[test]
    fn ignores_non_amounts() {
        assert!(find_amounts("2025.03.11").is_empty());
        assert!(find_amounts("12:03:45").is_empty());
        assert!(find_amounts("2025031122001412345678901234").is_empty());
        assert!(find_amounts("v1.2.3").is_empty());
        assert!(find_amounts("58.5").is_empty());
        assert!(find_amounts("-07.44").is_empty());
        assert_eq!(first("0.44").map(|h| h.0), Some("0.44".into()));
    }

    #[test]
    fn plain_values() {
        assert_eq!(parse_plain("-¥1,058.5"), Some(-105_850));
        assert_eq!(parse_plain("RMB 58.00"), Some(5800));
        assert_eq!(parse_plain("58元"), Some(5800));
        assert_eq!(parse_plain("58.123"), None);
        assert_eq!(parse_plain(""), None);
        assert_eq!(format_cents(5), "0.05");
        assert_eq!(format_cents(-105_850), "-1058.50");
    }
}
