//! A photo of a POS slip (签购单). Terminals of every acquirer (中国银联,
//! 银联商务, 拉卡拉, 通联, …) print the same fields in their own order and
//! wording: Chinese labels, English ones, or both on one line in either
//! order (`商户名称(MERCHANT NAME):`, `DATE/TIME(日期时间):`, `金额 AMOUNT`),
//! with the value after the label on the same line or on the next.
//!
//! Each line is split into label segments (known labels of a field, their
//! twins in the other language, brackets and colons) and the values
//! between them. A field's value is looked for right after its label, then
//! on the next line when that is no label's line, and must read as what
//! the field holds (an amount, a date, a card number): a label whose value
//! does not is skipped. Fields read under their labels in different ways
//! are in doubt and stay empty; only where no label was read at all is a
//! value taken from a line that could be nothing else (a masked card
//! number, the one date and time on the slip).

use super::clean_merchant;
use super::fields::{self, Fields};
use crate::amount::{self, AmountHit};
use crate::card;
use crate::date::{self, Date, DateTime};
use crate::record::{CHANNEL_POS, PaymentRecord};
use crate::text;

/// What a label names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Key {
    /// The sum charged (`总计`, `TOTAL`): wins over `金额` when both show.
    Total,
    Amount,
    Date,
    Time,
    /// `年份 YEAR` on slips that print the date as `05/18`.
    Year,
    Card,
    Bank,
    Merchant,
    Order,
    Status,
    /// Every other field of a slip: labels that end a value.
    Other,
}

/// Labels as slips print them, per field; compared without spaces and
/// case. Where one contains another the longer wins (`MERCHANT NO` over
/// `MERCHANT`, `EXP DATE` over `DATE`, `CARDHOLDER` over `CARD`).
const LABELS: &[(Key, &[&str])] = &[
    (
        Key::Total,
        &["总计", "合计", "实付金额", "实收金额", "应付金额", "TOTAL"],
    ),
    (
        Key::Amount,
        &["交易金额", "消费金额", "支付金额", "金额", "AMOUNT", "AMT"],
    ),
    (
        Key::Date,
        &[
            "交易日期",
            "日期时间",
            "日期/时间",
            "日期",
            "DATE/TIME",
            "DATETIME",
            "DATE",
        ],
    ),
    (Key::Time, &["交易时间", "时间", "TIME"]),
    (Key::Year, &["年份", "YEAR"]),
    (
        Key::Card,
        &[
            "卡号",
            "交易卡号",
            "银行卡号",
            "CARDNO",
            "CARDNUMBER",
            "CARD",
        ],
    ),
    (
        Key::Bank,
        &["发卡行", "发卡机构", "发卡银行", "ISSUER", "ISSUERBANK"],
    ),
    (
        Key::Merchant,
        &[
            "商户名称",
            "商户全称",
            "商户名",
            "商家名称",
            "MERCHANTNAME",
            "MERCHANT",
        ],
    ),
    (
        Key::Order,
        &[
            "检索参考号",
            "参考号",
            "REFERNO",
            "REFNO",
            "REF.NO",
            "REFERENCENO",
            "REF",
        ],
    ),
    (
        Key::Status,
        &[
            "交易类型",
            "交易类别",
            "TRANSTYPE",
            "TXNTYPE",
            "TRANSACTIONTYPE",
        ],
    ),
    (
        Key::Other,
        &[
            "商户编号",
            "商户号",
            "商户代码",
            "MERCHANTNO",
            "MERCHANTID",
            "MERID",
            "MID",
            "终端编号",
            "终端号",
            "TERMINALNO",
            "TERMINALID",
            "TERMINAL",
            "TERID",
            "TID",
            "操作员号",
            "操作员",
            "OPERATORNO",
            "OPERATOR",
            "OPER",
            "批次号",
            "BATCHNO",
            "BATCH",
            "凭证号",
            "流水号",
            "VOUCHERNO",
            "VOUCHER",
            "TRACENO",
            "TRACE",
            "授权码",
            "授权号",
            "AUTHNO",
            "AUTHCODE",
            "AUTH",
            "有效期",
            "EXPDATE",
            "EXP",
            "收单机构",
            "收单行",
            "ACQUIRER",
            "ACQ",
            "持卡人签名",
            "CARDHOLDERSIGNATURE",
            "CARDHOLDER",
            "SIGNATURE",
            "MERCHANTCOPY",
            "备注",
            "REFERENCE",
            "小费",
            "TIPS",
            "TIP",
            "优惠金额",
            "折扣",
            "DISCOUNT",
            "结算日期",
            "清算日期",
            "打印日期",
            "打印时间",
            "有效日期",
            "卡类型",
            "卡类别",
            "CARDTYPE",
        ],
    ),
];

/// Characters that join the parts of one label segment (`DATE/TIME`,
/// `金额(AMOUNT):`).
fn joins_labels(c: char) -> bool {
    matches!(c, '(' | ')' | '[' | ']' | ':' | '/' | '.' | '-' | '|' | '_')
}

/// A run of labels on a line and the field it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Segment {
    /// The first label's field; a date's where a time label and a date
    /// label are joined (`时间/日期`).
    key: Key,
    /// Byte range in the line's text.
    start: usize,
    end: usize,
}

/// A line split into label segments; values are the text between them.
#[derive(Debug)]
struct SlipLine {
    text: String,
    segments: Vec<Segment>,
}

impl SlipLine {
    fn new(text: &str) -> Self {
        Self {
            text: text.to_owned(),
            segments: segments(text),
        }
    }

    /// Whether the line starts with a label (then it holds no value of the
    /// line above).
    fn starts_with_label(&self) -> bool {
        self.segments.first().is_some_and(|s| {
            self.text[..s.start]
                .chars()
                .all(|c| c.is_whitespace() || !c.is_alphanumeric())
        })
    }

    /// The value after segment `i`, up to the next segment.
    fn value_after(&self, i: usize) -> &str {
        let start = self.segments[i].end;
        let end = self
            .segments
            .get(i + 1)
            .map_or(self.text.len(), |s| s.start);
        trim(&self.text[start..end])
    }

    /// The whole line when it holds no label: a value standing alone.
    fn bare_value(&self) -> Option<&str> {
        self.segments.is_empty().then(|| trim(&self.text))
    }
}

fn trim(s: &str) -> &str {
    let t = text::trim_value(s);
    t.trim_matches(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | ':'))
}

/// Labels flattened, as upper-case characters, longest first.
fn label_table() -> &'static [(Key, Vec<char>)] {
    static TABLE: std::sync::OnceLock<Vec<(Key, Vec<char>)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut all: Vec<(Key, Vec<char>)> = LABELS
            .iter()
            .flat_map(|(key, labels)| {
                labels
                    .iter()
                    .map(move |l| (*key, l.chars().map(|c| c.to_ascii_uppercase()).collect()))
            })
            .collect();
        all.sort_by_key(|(_, l)| std::cmp::Reverse(l.len()));
        all
    })
}

/// The line without spaces, upper case: each char with its byte offset
/// and whether a space stood before it.
struct Compact {
    chars: Vec<char>,
    offsets: Vec<usize>,
    spaced: Vec<bool>,
}

impl Compact {
    fn new(text: &str) -> Self {
        let mut c = Self {
            chars: Vec::new(),
            offsets: Vec::new(),
            spaced: Vec::new(),
        };
        let mut space = true;
        for (i, ch) in text.char_indices() {
            if ch.is_whitespace() {
                space = true;
                continue;
            }
            c.chars.push(ch.to_ascii_uppercase());
            c.offsets.push(i);
            c.spaced.push(space);
            space = false;
        }
        c
    }

    /// Whether a label may stand at `start..end`: a Latin label is a whole
    /// word (`REF` is not the start of `REFUND`, `AMOUNT RMB` still has
    /// `AMOUNT`).
    fn bounded(&self, start: usize, end: usize) -> bool {
        let latin = |k: usize| self.chars.get(k).is_some_and(char::is_ascii_alphabetic);
        let open_start = start == 0 || self.spaced[start] || !(latin(start) && latin(start - 1));
        let open_end = end == 0
            || end >= self.chars.len()
            || self.spaced[end]
            || !(latin(end - 1) && latin(end));
        open_start && open_end
    }
}

/// Finds the label segments of a line.
fn segments(text: &str) -> Vec<Segment> {
    let line = Compact::new(text);
    let chars = &line.chars;
    let table = label_table();
    let mut found: Vec<(usize, usize, Key)> = Vec::new();
    // Exact labels first, left to right, the longest at each place.
    let mut i = 0;
    while i < chars.len() {
        let hit = table
            .iter()
            .find(|(_, l)| chars[i..].starts_with(l) && line.bounded(i, i + l.len()));
        match hit {
            Some((key, l)) => {
                found.push((i, i + l.len(), *key));
                i += l.len();
            }
            None => i += 1,
        }
    }
    // Then misread ones in the gaps: one character wrong, missing or extra
    // in a label of five or more (`ANMOUNT`, `DATE/TINE`, `CARD MO`), the
    // first character right.
    let mut fuzzy = Vec::new();
    let mut gap_start = 0;
    for k in 0..=found.len() {
        let gap_end = found.get(k).map_or(chars.len(), |f| f.0);
        let mut i = gap_start;
        while i < gap_end {
            let hit = table
                .iter()
                .filter(|(_, l)| l.len() >= 5)
                .find_map(|(key, l)| {
                    [l.len(), l.len() + 1, l.len() - 1]
                        .into_iter()
                        .find_map(|n| {
                            let window = chars.get(i..i + n).filter(|_| i + n <= gap_end)?;
                            (window[0] == l[0]
                                && text::edit_distance(window, l) <= 1
                                && line.bounded(i, i + n))
                            .then_some((i, i + n, *key))
                        })
                });
            match hit {
                Some(h) => {
                    fuzzy.push(h);
                    i = h.1;
                }
                None => i += 1,
            }
        }
        gap_start = found.get(k).map_or(chars.len(), |f| f.1);
    }
    found.extend(fuzzy);
    found.sort_unstable_by_key(|f| (f.0, f.1));
    // Each label takes in the colon after it and a bracketed twin that was
    // not read as a label (`(卡 各)`); labels then joined by nothing but
    // brackets, colons and slashes are one segment.
    let skip_closers = |mut j: usize| {
        while chars
            .get(j)
            .is_some_and(|c| matches!(c, ':' | ')' | ']' | ';'))
        {
            j += 1;
        }
        j
    };
    let mut merged: Vec<(usize, usize, Key)> = Vec::new();
    for (start, end, key) in found {
        let mut end = skip_closers(end);
        if chars.get(end) == Some(&'(')
            && let Some(close) = chars[end..].iter().take(12).position(|c| *c == ')')
            && !chars[end..end + close].iter().any(char::is_ascii_digit)
        {
            end = skip_closers(end + close + 1);
        }
        if let Some(last) = merged.last_mut()
            && (start <= last.1 || chars[last.1..start].iter().all(|c| joins_labels(*c)))
        {
            last.1 = last.1.max(end);
            if last.2 == Key::Time && key == Key::Date {
                last.2 = Key::Date;
            }
            continue;
        }
        merged.push((start, end, key));
    }
    let byte = |k: usize| line.offsets.get(k).copied().unwrap_or(text.len());
    merged
        .into_iter()
        .map(|(start, end, key)| Segment {
            key,
            start: byte(start),
            end: byte(end),
        })
        .collect()
}

/// The slip's lines, split into labels and values.
struct Slip {
    lines: Vec<SlipLine>,
}

impl Slip {
    fn new(f: &Fields) -> Self {
        Self {
            lines: f.lines.iter().map(|l| SlipLine::new(l)).collect(),
        }
    }

    /// Values read under labels of `keys`, in line order: for each label
    /// the first of its same-line value and the next line's that `read`
    /// accepts.
    fn labelled<T>(&self, keys: &[Key], read: impl Fn(&str) -> Option<T>) -> Vec<T> {
        let mut out = Vec::new();
        for (n, line) in self.lines.iter().enumerate() {
            for (i, seg) in line.segments.iter().enumerate() {
                if !keys.contains(&seg.key) {
                    continue;
                }
                let same = line.value_after(i);
                let next = || {
                    // The next line is a value only when it holds no label
                    // at its start, and this label ends its line.
                    let below = self.lines.get(n + 1)?;
                    if i + 1 < line.segments.len() || below.starts_with_label() {
                        return None;
                    }
                    let end = below.segments.first().map_or(below.text.len(), |s| s.start);
                    read(trim(&below.text[..end]))
                };
                if let Some(v) = read(same).or_else(next) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// The one value `read` finds on lines without labels, if all such
    /// values agree.
    fn unlabelled<T: PartialEq>(&self, read: impl Fn(&str) -> Option<T>) -> Option<T> {
        let mut found: Option<T> = None;
        for v in self.lines.iter().filter_map(SlipLine::bare_value) {
            if let Some(v) = read(v) {
                match &found {
                    Some(f) if *f != v => return None,
                    Some(_) => {}
                    None => found = Some(v),
                }
            }
        }
        found
    }
}

/// The one value of a list, if all agree; a field read in different ways
/// is in doubt.
fn agreed<T: PartialEq>(mut values: Vec<T>) -> Option<T> {
    let first = values.pop()?;
    values.iter().all(|v| *v == first).then_some(first)
}

/// What follows a label that faded into a few Latin letters (`金额:` read
/// as `mm:`), or the whole value.
fn after_garbled_label(value: &str) -> &str {
    match value.split_once([':', '：']) {
        Some((head, tail))
            if (1..=3).contains(&head.trim().chars().count())
                && head.trim().chars().all(|c| c.is_ascii_alphabetic()) =>
        {
            tail
        }
        _ => value,
    }
}

/// What follows the last `RMB` or `CNY` of a value: the amount of a line
/// whose label faded into a few marks or characters (`hess RMB 4126.00`,
/// `多 RMB 188.00`).
fn after_currency_code(value: &str) -> Option<&str> {
    let at = value.rfind("RMB").or_else(|| value.rfind("CNY"))?;
    Some(&value[at + 3..])
}

/// The amount a value shows (`RMB 42.45`, `42.45元`, `¥42.45`).
fn amount_of(value: &str) -> Option<AmountHit> {
    match amount::find_amounts(value).as_slice() {
        [hit] => Some(*hit),
        _ => None,
    }
}

/// Date (and time) a value shows: `2024/05/18 12:30:01`, `2024-05-18`,
/// `2024年05月18日`, `20240518 123001`, `20240518123001`.
fn date_of(value: &str) -> Option<DateTime> {
    if let Some(dt) = date::find_date_time(value) {
        return Some(dt);
    }
    let digits: String = text::compact(value);
    let (day, rest) = match digits.char_indices().nth(8) {
        Some((k, _)) => digits.split_at(k),
        None => (digits.as_str(), ""),
    };
    let date = date::parse_compact_date(day)?;
    let time = compact_time(rest).or_else(|| date::find_time(rest));
    if !rest.is_empty() && time.is_none() {
        return None;
    }
    Some(DateTime {
        date,
        time: time.unwrap_or_default(),
    })
}

/// `123001` as a time `12:30:01`.
fn compact_time(s: &str) -> Option<String> {
    let t = s.trim();
    if t.len() != 6 || !t.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n = |r: std::ops::Range<usize>| t.get(r).and_then(|x| x.parse::<u32>().ok());
    let (h, m, s) = (n(0..2)?, n(2..4)?, n(4..6)?);
    (h <= 23 && m <= 59 && s <= 59).then(|| format!("{h:02}:{m:02}:{s:02}"))
}

/// A month and day without the year (`05/18`, `05-18`, `0518`, `5月18日`),
/// with the time after it if any.
fn month_day_of(value: &str) -> Option<(u32, u32, String)> {
    let compact = text::compact(value);
    let chars: Vec<char> = compact.chars().collect();
    let num = |from: usize| -> (u32, usize) {
        let mut v = 0;
        let mut j = from;
        while j < chars.len() && j - from < 2 && chars[j].is_ascii_digit() {
            v = v * 10 + chars[j].to_digit(10).unwrap_or(0);
            j += 1;
        }
        (v, j)
    };
    let (month, j) = num(0);
    if j == 0 {
        return None;
    }
    let (day, k) = match chars.get(j) {
        Some('/' | '-' | '.' | '月') => num(j + 1),
        Some(c) if c.is_ascii_digit() => (0, j),
        _ if j == 2 => (0, j),
        _ => return None,
    };
    let (day, k) = if k == j {
        // `0518`: exactly four digits.
        if j != 2
            || !chars
                .get(2..4)
                .is_some_and(|d| d.iter().all(char::is_ascii_digit))
        {
            return None;
        }
        let d: String = chars[2..4].iter().collect();
        (d.parse().ok()?, 4)
    } else {
        (day, k)
    };
    let k = if chars.get(k) == Some(&'日') {
        k + 1
    } else {
        k
    };
    if chars.get(k).is_some_and(char::is_ascii_digit) && chars.get(k + 2) != Some(&':') {
        // More digits: not a month and day (`051812` without a colon).
        let rest: String = chars[k..].iter().collect();
        let time = compact_time(&rest)?;
        return valid_month_day(month, day).then_some((month, day, time));
    }
    let rest: String = chars[k..].iter().collect();
    let time = date::find_time(&rest).unwrap_or_default();
    valid_month_day(month, day).then_some((month, day, time))
}

fn valid_month_day(month: u32, day: u32) -> bool {
    // 2024 is a leap year: any month and day some year has.
    Date::new(2024, month, day).is_some()
}

/// A year standing alone (`2024`, `2024年`).
fn year_of(value: &str) -> Option<i32> {
    let t = text::compact(value);
    let t = t.strip_suffix('年').unwrap_or(&t);
    (t.len() == 4 && t.chars().all(|c| c.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
        .filter(|y| (2000..=2099).contains(y))
}

fn time_of(value: &str) -> Option<String> {
    if date::find_date(value).is_some() {
        return None;
    }
    date::find_time(value).or_else(|| compact_time(&text::compact(value)))
}

/// The card a value shows (`621700******1234`, `6217 **** **** 1234`),
/// also with the entry mode a terminal prints after it (`/C`, `(I)`, `S`).
fn card_of(value: &str) -> Option<card::CardInfo> {
    let found = |v: &str| Some(card::parse_card_field(v)).filter(|c| !c.last4.is_empty());
    // From the number on: a slip's edge read as `(|` before it.
    let start = value.find(|c: char| c.is_ascii_digit() || c == '*')?;
    let value = &value[start..];
    found(value).or_else(|| {
        let t = value.trim_end();
        let cut = t.trim_end_matches(|c: char| {
            c.is_ascii_alphabetic() || matches!(c, '(' | ')' | '/' | '|' | ' ')
        });
        let suffix = &t[cut.len()..];
        let letters = suffix.chars().filter(char::is_ascii_alphabetic).count();
        (cut.len() < t.len() && letters <= 2)
            .then(|| found(cut))
            .flatten()
            .or_else(|| {
                after_mask_run(value).map(|last4| card::CardInfo {
                    last4,
                    ..card::CardInfo::default()
                })
            })
    })
}

/// The four digits after a run of at least three mask stars, standing
/// alone (`g2aT00*****4248 5`: the bank prefix misread, the entry mode
/// read as a digit after a space).
fn after_mask_run(value: &str) -> Option<String> {
    let chars: Vec<char> = value.chars().collect();
    let is_mask = |c: char| matches!(c, '*' | '×' | '•' | '●');
    (0..chars.len()).find_map(|i| {
        let run = chars[i..].iter().take_while(|c| is_mask(**c)).count();
        if run < 3 || (i > 0 && is_mask(chars[i - 1])) {
            return None;
        }
        let start = i + run;
        let four: String = chars.get(start..start + 4)?.iter().collect();
        let bounded = !chars.get(start + 4).is_some_and(char::is_ascii_digit);
        (bounded && four.chars().all(|c| c.is_ascii_digit())).then_some(four)
    })
}

/// The last four of a masked card number a line shows (`621700******1234
/// (I)`), for the recognizer to find the card's row.
pub fn card_in_line(line: &str) -> Option<String> {
    let (_, value) = line.split_at(line.find(|c: char| c.is_ascii_digit())?);
    masked_card_of(value)
}

/// The four digits right after the last mask star of a re-read card row.
pub fn digits_after_mask(text: &str) -> Option<String> {
    let compact = text::compact(text);
    let (_, after) = compact.rsplit_once('*')?;
    let four: String = after.chars().take(4).collect();
    (four.len() == 4 && four.chars().all(|c| c.is_ascii_digit())).then_some(four)
}

/// Whether a line looks like a masked card number whose last four were
/// misread (`621700******g049`): a bank prefix, four mask characters or
/// more, then four characters. The line to re-read for them.
pub fn masked_card_row(line: &str) -> bool {
    let Some(at) = line.find(|c: char| c.is_ascii_digit()) else {
        return false;
    };
    let compact = text::compact(&line[at..]);
    let tail = compact
        .rsplit(card::is_mask)
        .next()
        .unwrap_or_default()
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .count();
    prefix_and_mask(&compact) && tail >= 4
}

/// Whether a line holds a number (a label row with its value beside it).
pub fn has_number(line: &str) -> bool {
    line.chars().filter(char::is_ascii_digit).count() >= 4
}

/// A masked card number standing alone (`621700******1234`): a bank
/// prefix, at least four mask characters, the last four.
fn masked_card_of(value: &str) -> Option<String> {
    if !prefix_and_mask(&text::compact(value)) {
        return None;
    }
    card_of(value).map(|c| c.last4)
}

/// Whether a compact value opens like a masked card number: a bank prefix
/// (`3`–`6`) and four mask characters or more.
fn prefix_and_mask(compact: &str) -> bool {
    let stars = compact.chars().filter(|c| card::is_mask(*c)).count();
    stars >= 4 && compact.starts_with(|c: char| ('3'..='6').contains(&c))
}

fn merchant_of(value: &str) -> Option<String> {
    let name = clean_merchant(value);
    let letters = name
        .chars()
        .filter(|c| text::is_cjk(*c) || c.is_ascii_alphabetic())
        .count();
    let digits = name.chars().filter(char::is_ascii_digit).count();
    (letters >= 2 && digits * 2 < letters && letters >= 4.min(name.chars().count())).then_some(name)
}

fn order_of(value: &str) -> Option<String> {
    let code: String = text::compact(value)
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    (code.len() >= 6 && code.chars().any(|c| c.is_ascii_digit())).then_some(code)
}

pub fn parse(f: &Fields) -> PaymentRecord {
    let slip = Slip::new(f);
    let mut r = PaymentRecord {
        channel: CHANNEL_POS.to_owned(),
        ..PaymentRecord::default()
    };
    // Amount: the total where one is printed, else the amount; a currency
    // amount standing alone where no label was read.
    let cents_of = |v: &str| amount_of(v).map(|h| h.cents);
    let totals = slip.labelled(&[Key::Total], cents_of);
    let amounts = slip.labelled(&[Key::Amount], cents_of);
    let cents = if !totals.is_empty() {
        agreed(totals)
    } else if !amounts.is_empty() {
        agreed(amounts)
    } else {
        slip.unlabelled(|v| {
            amount_of(after_garbled_label(v))
                .filter(|h| h.currency && h.alone)
                .or_else(|| amount_of(after_currency_code(v)?).filter(|h| h.alone))
                .map(|h| h.cents)
        })
    };
    if let Some(c) = cents {
        r.amount = amount::format_cents(c);
    }

    // Date and time.
    let dates = slip.labelled(&[Key::Date, Key::Time], date_of);
    let dt = if dates.is_empty() {
        month_day_with_year(&slip).or_else(|| slip.unlabelled(date::find_date_time))
    } else {
        // Labels that agree on the day; the time from one that shows it.
        agreed(dates.iter().map(|d| d.date).collect()).map(|date| DateTime {
            date,
            time: dates
                .iter()
                .map(|d| d.time.clone())
                .find(|t| !t.is_empty())
                .unwrap_or_default(),
        })
    };
    if let Some(dt) = dt {
        r.date = dt.date.to_string();
        r.time = dt.time;
        if r.time.is_empty()
            && let Some(t) = agreed(slip.labelled(&[Key::Time], time_of))
        {
            r.time = t;
        }
    }

    // Card: under its label, else a masked number standing alone.
    let cards = slip.labelled(&[Key::Card], card_of);
    let card = if cards.is_empty() {
        slip.unlabelled(card_in_line).map(|last4| card::CardInfo {
            last4,
            ..card::CardInfo::default()
        })
    } else {
        agreed(cards)
    };
    if let Some(c) = card {
        r.card_last4 = c.last4;
        r.card_number = c.number;
        r.card_bank = c.bank;
    }
    if r.card_bank.is_empty()
        && let Some(bank) = slip
            .labelled(&[Key::Bank], card::find_bank)
            .into_iter()
            .next()
    {
        r.card_bank = bank;
    }
    if let Some(m) = slip
        .labelled(&[Key::Merchant], merchant_of)
        .into_iter()
        .next()
    {
        r.merchant = m;
    }
    if let Some(o) = slip.labelled(&[Key::Order], order_of).into_iter().next() {
        r.order_no = o;
    }
    if let Some(s) = slip
        .labelled(&[Key::Status], fields::status_of)
        .into_iter()
        .next()
    {
        r.status = s.to_owned();
    }
    r
}

/// `05/18` under a date label with the year under its own label.
fn month_day_with_year(slip: &Slip) -> Option<DateTime> {
    let year = agreed(slip.labelled(&[Key::Year], year_of))?;
    let (month, day, time) = agreed(slip.labelled(&[Key::Date, Key::Time], month_day_of))?;
    let date = Date::new(year, month, day)?;
    let time = if time.is_empty() {
        agreed(slip.labelled(&[Key::Time], time_of)).unwrap_or_default()
    } else {
        time
    };
    Some(DateTime { date, time })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ocr::OcrPage;
    use crate::record::{STATUS_REFUND, STATUS_SUCCESS};

    fn slip(s: &str) -> PaymentRecord {
        parse(&Fields::new(&OcrPage::from_text(s)))
    }

    #[test]
    fn reads_a_slip() {
        let r = slip(
            "银联POS签购单\n持卡人存根 CARDHOLDER COPY\n商户名称(MERCHANT NAME):\n示例餐饮有限公司\n商户编号(MERCHANT NO.): 898110158120001\n发卡行(ISSUER): 招商银行\n卡号(CARD NO.):\n621700******1234 /C\n有效期(EXP DATE): 2028/12\n交易类型(TRANS TYPE):\n消费/SALE\n参考号(REFER NO.): 250311120345\n日期/时间(DATE/TIME):\n2025/03/11 12:03:45\n金额(AMOUNT): RMB 58.00",
        );
        assert_eq!(r.amount, "58.00");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2025/03/11", "12:03:45")
        );
        assert_eq!(r.card_last4, "1234");
        assert_eq!(r.card_bank, "招商银行");
        assert_eq!(r.merchant, "示例餐饮有限公司");
        assert_eq!(r.status, STATUS_SUCCESS);
        assert_eq!(r.order_no, "250311120345");
        assert_eq!(r.channel, CHANNEL_POS);
    }

    #[test]
    fn bilingual_labels_with_values_beside_or_below() {
        // Chinese first, English twin without brackets, values on the
        // same line (right-aligned) or below; card first, amount before date.
        let r = slip(
            "中国银联\nPOS签购单\n商户名称 MERCHANT NAME\n样例实验耗材有限公司\n商户号 MER ID 898191679338171\n卡号 CARD NO\n621700******4549 (I)\n发卡机构 ISSUER 中国建设银行\n收单机构 ACQ 银联商务\n交易类型 TXN TYPE 消费/SALE\n有效期 EXP 2031/10\n金额 AMOUNT\nRMB 42.45\n批次号 BATCH 361411\n参考号 REF 539143599774\n日期时间 DATE/TIME\n2025/12/15 20:39:32",
        );
        assert_eq!(r.amount, "42.45");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2025/12/15", "20:39:32")
        );
        assert_eq!(r.card_last4, "4549");
        assert_eq!(r.card_bank, "中国建设银行");
        assert_eq!(r.merchant, "样例实验耗材有限公司");
        assert_eq!(r.order_no, "539143599774");
        // English first, Chinese in brackets, two fields on one line.
        let r = slip(
            "银联商务 UMS\nMERCHANT(商户名称):\n示例数码快印有限公司\nMERCHANT NO(商户号):898129550184197\nCARD NO(卡号):\n621700******0335 S\nISSUER(发卡行):中国农业银行\nDATE/TIME(日期时间):\n2025/09/24 13:36:17\nTXN TYPE(交易类型):退货/REFUND\nBATCH(批次号):879388 TRACE(凭证号):689672\nREF(参考号):149183195960\nAMOUNT(金额):\nRMB 74.09\nCARDHOLDER SIGNATURE(持卡人签名):",
        );
        assert_eq!(r.amount, "74.09");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2025/09/24", "13:36:17")
        );
        assert_eq!(r.card_last4, "0335");
        assert_eq!(r.card_bank, "中国农业银行");
        assert_eq!(r.merchant, "示例数码快印有限公司");
        assert_eq!(r.status, STATUS_REFUND);
        assert_eq!(r.order_no, "149183195960");
    }

    #[test]
    fn other_acquirers_and_wordings() {
        let r = slip(
            "拉卡拉 LAKALA\n签购单\n商户名称:示例便利店\n卡号(CARD NO):6217 **** **** 8821\n交易日期:2024/05/18\n交易时间:12:30:01\n消费金额:42.45元",
        );
        assert_eq!(r.amount, "42.45");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2024/05/18", "12:30:01")
        );
        assert_eq!(r.card_last4, "8821");
        let r = slip(
            "通联支付 ALLINPAY\n卡号(CARD NO) 622848******7765\nDATE 20240518 TIME 123001\nAMOUNT RMB 1,042.45",
        );
        assert_eq!(r.amount, "1042.45");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2024/05/18", "12:30:01")
        );
        assert_eq!(r.card_last4, "7765");
        let r = slip("交易金额：42.45元\n日期时间 2024-05-18 12:30:01");
        assert_eq!(r.amount, "42.45");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2024/05/18", "12:30:01")
        );
        let r = slip("DATE/TIME: 20240518123001\nRMB 42.45");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2024/05/18", "12:30:01")
        );
        // No amount label read: a currency amount standing alone.
        assert_eq!(r.amount, "42.45");
        // Or after a label faded into Latin letters.
        let r = slip("DATE/TIME: 20240518123001\nmm: RMB 26.00 |");
        assert_eq!(r.amount, "26.00");
    }

    #[test]
    fn month_and_day_with_the_year_elsewhere() {
        let r = slip("年份(YEAR): 2024\n日期(DATE): 05/18\n时间(TIME): 12:30:01\n金额: RMB 8.00");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2024/05/18", "12:30:01")
        );
        let r = slip("YEAR 2024 DATE 0518 TIME 123001");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2024/05/18", "12:30:01")
        );
        // Without a year the date is not guessed.
        let r = slip("日期(DATE): 05/18\n时间(TIME): 12:30:01");
        assert_eq!(r.date, "");
    }

    #[test]
    fn misread_labels_and_doubt() {
        // `ANMOUNT`, `DATE/TINE`, `CARD MO`: one character off.
        let r = slip(
            "CARD MO\n621700****w*0335 S\nDATE/TINE( 日期时 间 ):\n2025/09/24 13:36:17\nANMOUNT( 人金额 ) :\nRNB 74.09",
        );
        assert_eq!(r.amount, "74.09");
        assert_eq!(r.date, "2025/09/24");
        assert_eq!(r.card_last4, "0335");
        // Two amounts under amount labels that disagree: in doubt.
        let r = slip("金额(AMOUNT): RMB 58.00\n交易金额: 68.00");
        assert_eq!(r.amount, "");
        // A total wins over the amount before tips.
        let r = slip("金额(AMOUNT): RMB 58.00\n小费(TIPS): RMB 2.00\n总计(TOTAL): RMB 60.00");
        assert_eq!(r.amount, "60.00");
        // An amount after a label faded into marks or characters.
        assert_eq!(slip("hess RMB 4126.00").amount, "4126.00");
        assert_eq!(slip("'7 RMB 911.60 a").amount, "911.60");
        assert_eq!(slip("多 RMB 188.00").amount, "188.00");
        // Two of them that disagree, or other figures after it: none.
        assert_eq!(slip("hess RMB 4126.00\nxx RMB 26.00").amount, "");
        assert_eq!(slip("hess RMB 4126.00 12").amount, "");
        // A masked number after a label read as nothing known.
        let r = slip("+S: 621700******8165 芯片\naa: 621700****2440 插卡");
        assert_eq!(r.card_last4, "");
        let r = slip("+S: 621700******8165 芯片");
        assert_eq!(r.card_last4, "8165");
        // The expiry is no transaction date; an order number no card.
        let r = slip("有效期(EXP DATE): 2028/12\n参考号(REF NO): 621700123456");
        assert_eq!((r.date.as_str(), r.card_last4.as_str()), ("", ""));
    }

    #[test]
    fn neighbouring_fields_are_not_taken() {
        // A discount and the sum paid after it; a settlement date beside
        // the transaction's; the card type beside the number.
        let r = slip(
            "订单金额: RMB 100.00\n优惠金额: RMB 10.00\n实付金额: RMB 90.00\n交易日期: 2024/05/18 12:30:01\n结算日期: 2024/05/19\n卡类型 CARD TYPE: 借记卡\n卡号 CARD NO: 6217 **** **** 8821",
        );
        assert_eq!(r.amount, "90.00");
        assert_eq!(
            (r.date.as_str(), r.time.as_str()),
            ("2024/05/18", "12:30:01")
        );
        assert_eq!(r.card_last4, "8821");
        // The entry mode after the number read as a digit, the prefix
        // misread: the four after the stars still count.
        assert_eq!(
            card_of("g2aT00*****4248 5").map(|c| c.last4).as_deref(),
            Some("4248")
        );
        assert_eq!(
            card_of("(| 621700******4248 S").map(|c| c.last4).as_deref(),
            Some("4248")
        );
        assert_eq!(
            card_in_line("621700******1234 (I)").as_deref(),
            Some("1234")
        );
        assert_eq!(
            digits_after_mask("621700******12341").as_deref(),
            Some("1234")
        );
        assert_eq!(card_in_line("参考号 REF 539143599774"), None);
        // Stars read as `#` and `+`, the entry mode after the number.
        assert_eq!(
            card_in_line("621700*###+#3995 插卡").as_deref(),
            Some("3995")
        );
    }

    #[test]
    fn label_segments() {
        let s = segments("BATCH(批次号):700553 TRACE(凭证号):378344");
        assert_eq!(s.len(), 2);
        let line = SlipLine::new("BATCH(批次号):700553 TRACE(凭证号):378344");
        assert_eq!(line.value_after(0), "700553");
        assert_eq!(line.value_after(1), "378344");
        let line = SlipLine::new("日期/时间(DATE/TIME):2025/03/11 12:03:45");
        assert_eq!(line.segments.len(), 1);
        assert_eq!(line.segments[0].key, Key::Date);
        assert_eq!(line.value_after(0), "2025/03/11 12:03:45");
        // `REF` is no label inside `REFUND`, `DATE` none inside `EXP DATE`.
        let line = SlipLine::new("交易类型 TXN TYPE 退货/REFUND");
        assert_eq!(line.segments.len(), 1);
        assert_eq!(line.value_after(0), "退货/REFUND");
        let line = SlipLine::new("EXP DATE 2028/12");
        assert_eq!(line.segments[0].key, Key::Other);
    }

    #[test]
    fn a_masked_card_with_its_last_four_misread() {
        assert!(masked_card_row("i 621700******g049 Cee 有 in"));
        assert!(masked_card_row("621700******gq49"));
        assert!(!masked_card_row("批次号 :510505"));
        assert!(!masked_card_row("621700****"));
    }
}
