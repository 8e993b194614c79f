//! Label lookup shared by the screen parsers: find a line that starts with a
//! label (tolerating OCR's spaces and a misread character) and take the
//! value after it, or on the next line when the label stands alone.

use crate::amount::{self, AmountHit, Sign};
use crate::card::{self, CardInfo};
use crate::date::{self, Date, DateTime};
use crate::ocr::{MIN_DIGIT_CONF, OcrPage};
use crate::record::{STATUS_CLOSED, STATUS_FAILED, STATUS_PENDING, STATUS_REFUND, STATUS_SUCCESS};
use crate::text;

/// Labels that start a row on some payment screen: a value line must not be
/// one of these (then the label before it had no value).
const KNOWN_LABELS: &[&str] = &[
    "支付时间",
    "创建时间",
    "付款时间",
    "交易时间",
    "交易日期",
    "记账日期",
    "入账日期",
    "退款时间",
    "转账时间",
    "付款方式",
    "支付方式",
    "退款方式",
    "商品说明",
    "商品",
    "收款方全称",
    "收款方",
    "商户全称",
    "商户名称",
    "订单号",
    "商家订单号",
    "商户单号",
    "交易单号",
    "订单编号",
    "当前状态",
    "交易状态",
    "交易类型",
    "收单机构",
    "付款卡",
    "卡号",
    "交易卡号",
    "银行卡号",
    "交易金额",
    "金额",
    "订单金额",
    // Known so that a fuzzy `订单金额` never claims it: an order total
    // before discounts, not what was paid.
    "订单总额",
    "支付金额",
    "账单分类",
    "标签和备注",
    "计入收支",
    "对方户名",
    "交易对手",
    "交易地点",
    "余额",
    "可用余额",
    "摘要",
    "交易摘要",
    "发卡行",
    "收单行",
    "终端编号",
    "商户编号",
    "操作员号",
    "有效期",
    "批次号",
    "凭证号",
    "授权码",
    "参考号",
    "日期/时间",
    "备注",
    "交易渠道",
    "支付奖励",
    "交易流水号",
    "流水号",
    "交易编号",
    "币种",
    "优惠",
    "交易凭证",
];

/// Labels of the payment method row, which names the card (`招商银行信用卡
/// (1234)`) or a wallet; a refund's says where the money went back.
pub const PAYMENT_METHOD_LABELS: &[&str] = &[
    "付款方式",
    "支付方式",
    "退款方式",
    "退款路径",
    "退回至",
    "退回账户",
    "退款账户",
];

/// Labels of an order's total before discounts.
pub const ORDER_TOTAL_LABELS: &[&str] = &["订单金额", "订单总额", "商品金额", "原价", "总金额"];

/// Labels of the time a payment was made.
const PAYMENT_TIME_LABELS: &[&str] = &["支付时间", "付款时间", "交易时间", "创建时间"];

/// Labels of the time money came back.
const REFUND_TIME_LABELS: &[&str] = &["退款时间"];

/// Labels of a discount row (UnionPay names its own: `银联立减`).
const DISCOUNT_LABELS: &[&str] = &[
    "优惠金额",
    "优惠",
    "立减",
    "银联立减",
    "随机立减",
    "红包抵扣",
    "券抵扣",
    "折扣",
];

/// Words that name a discount anywhere in a line: every discount label
/// holds one, and so do a red packet's or a voucher's wording.
const DISCOUNT_WORDS: &[&str] = &["优惠", "立减", "折扣", "红包", "抵扣", "满减", "券"];

/// Whether a line names a discount (see [`DISCOUNT_WORDS`]).
pub fn mentions_discount(line: &str) -> bool {
    DISCOUNT_WORDS.iter().any(|w| line.contains(w))
}

/// Words of an account balance line (`账户余额`, `可用余额`, `余额`).
const BALANCE_WORDS: &[&str] = &["余额"];

/// The lines of a page, with their compact (space-free) forms.
#[derive(Debug)]
pub struct Fields {
    pub lines: Vec<String>,
    compact: Vec<Vec<char>>,
    /// Whether each line's numbers can be trusted (see `MIN_DIGIT_CONF`).
    digits_ok: Vec<bool>,
}

/// A label found on a line, and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labeled {
    pub line: usize,
    pub value: String,
}

impl Fields {
    pub fn new(page: &OcrPage) -> Self {
        let lines: Vec<String> = page.lines.iter().map(|l| l.text.clone()).collect();
        let compact = lines
            .iter()
            .map(|l| text::compact(l).chars().collect())
            .collect();
        let digits_ok = page
            .lines
            .iter()
            .map(|l| l.digit_conf >= MIN_DIGIT_CONF)
            .collect();
        Self {
            lines,
            compact,
            digits_ok,
        }
    }

    /// All text, compacted, for keyword tests.
    pub fn joined(&self) -> String {
        self.compact
            .iter()
            .map(|l| l.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Whether some line contains `word` (spaces ignored).
    pub fn contains(&self, word: &str) -> bool {
        self.find_line(word).is_some()
    }

    /// The first line containing `word` (spaces ignored).
    pub fn find_line(&self, word: &str) -> Option<usize> {
        let w: Vec<char> = text::compact(word).chars().collect();
        (0..self.compact.len()).find(|&k| self.line_has(k, &w))
    }

    /// Whether compact line `k` contains `word` (compact).
    fn line_has(&self, k: usize, word: &[char]) -> bool {
        self.compact
            .get(k)
            .is_some_and(|l| l.windows(word.len()).any(|win| win == word))
    }

    /// The value of the first label of `labels` found (in the order given:
    /// callers list the preferred label first).
    pub fn value(&self, labels: &[&str]) -> Option<Labeled> {
        labels.iter().find_map(|label| self.value_of(label))
    }

    /// The value of one label: an exact label on any line first, then one
    /// with a misread character.
    fn value_of(&self, label: &str) -> Option<Labeled> {
        let label: Vec<char> = text::compact(label).chars().collect();
        [false, true].into_iter().find_map(|fuzzy| {
            (0..self.lines.len()).find_map(|i| {
                // A line that starts with another label exactly is that
                // label's (`交易卡号` is not a misread `交易编号`).
                if fuzzy && self.starts_with_known_label(i) {
                    return None;
                }
                let end = label_end(&self.compact[i], &label, fuzzy)
                    .or_else(|| (!fuzzy).then(|| self.after_icon_word(i, &label)).flatten())?;
                self.value_at(i, end)
            })
        })
    }

    /// Where `label` ends on line `i` after an icon read as a lone
    /// ideograph word (`三 付款卡 中国农业银行信用卡 (8031)`), for labels of
    /// three glyphs or more.
    fn after_icon_word(&self, i: usize, label: &[char]) -> Option<usize> {
        let first = self.lines[i].split_whitespace().next()?;
        let lone_ideograph = first.chars().count() == 1 && !first.is_ascii();
        let rest = self.compact[i].get(1..)?;
        (label.len() >= 3 && lone_ideograph && rest.starts_with(label)).then(|| 1 + label.len())
    }

    fn starts_with_known_label(&self, i: usize) -> bool {
        KNOWN_LABELS.iter().any(|l| {
            let l: Vec<char> = l.chars().collect();
            label_end(&self.compact[i], &l, false).is_some()
        })
    }

    /// The value after a label ending at compact index `end` of line `i`.
    fn value_at(&self, i: usize, end: usize) -> Option<Labeled> {
        let rest =
            text::trim_value(&skip_english_label(&rest_after(&self.lines[i], end))).to_owned();
        // A unit after the label (`收入金额(元)`) is part of the label.
        let unit_only = matches!(
            text::compact(&rest).as_str(),
            "(元)" | "（元）" | "(元" | "(人民币)" | "(RMB)" | "(CNY)"
        );
        // Labels side by side over their values (`交易日期 交易时间` over
        // `2024 年 7 月 26 日 13:05:03`): another label is no value.
        let beside_label = KNOWN_LABELS.contains(&text::compact(&rest).as_str());
        if !rest.is_empty() && !unit_only && !beside_label {
            return Some(Labeled {
                line: i,
                value: rest,
            });
        }
        // The value sits on the next line (narrow screens, POS slips).
        let next = self.lines.get(i + 1)?;
        let next_compact = self.compact.get(i + 1)?;
        let next_is_label = KNOWN_LABELS.iter().any(|l| {
            let l: Vec<char> = l.chars().collect();
            // Two-char labels (`商品`, `卡号`) also begin ordinary words.
            next_compact.starts_with(&l)
                && (l.len() >= 3 || matches!(next_compact.get(l.len()), None | Some(':' | '(')))
        });
        (!next_is_label).then(|| Labeled {
            line: i + 1,
            value: text::trim_value(next).to_owned(),
        })
    }

    /// Date and time from the first of `labels` that has a date. A label
    /// with only a time (`交易时间 12:03:45` beside `交易日期 2025-03-11`) is
    /// completed by `time_labels`.
    pub fn date_time(&self, labels: &[&str], time_labels: &[&str]) -> Option<DateTime> {
        // A refund's time is the date only on a screen that shows no time
        // of the payment: where that row was there but unreadable, the
        // refund's date would be a wrong one.
        let paid_row = PAYMENT_TIME_LABELS
            .iter()
            .any(|l| self.value_of(l).is_some());
        let mut found = labels.iter().find_map(|label| {
            if paid_row && REFUND_TIME_LABELS.contains(label) {
                return None;
            }
            let v = self.value_of(label)?;
            let mut found = date::find_date_time(&v.value)
                .or_else(|| date::parse_compact_date_time(&v.value))?;
            // The time printed under the date, on a line of its own.
            if found.time.is_empty()
                && let Some(next) = self.lines.get(v.line + 1)
                && date::find_date(next).is_none()
                && text::compact(next).chars().count() <= 8
            {
                found.time = date::find_time(next).unwrap_or_default();
            }
            Some(found)
        })?;
        if found.time.is_empty() {
            found.time = labels
                .iter()
                .chain(time_labels)
                .find_map(|l| {
                    let v = self.value_of(l)?.value;
                    // Only a value without a date: a time inside a date
                    // value was already taken with it.
                    date::find_date(&v)
                        .is_none()
                        .then(|| date::find_time(&v))
                        .flatten()
                })
                .unwrap_or_default();
        }
        Some(found)
    }

    /// The date of the one line on the page that holds a date, if only one
    /// does: a bill whose date label a user's highlighter stroke garbled
    /// (`医生晤一 2025 年 2 月 7 日 18:18:02`).
    pub fn only_date_time(&self) -> Option<DateTime> {
        let mut dated = self.lines.iter().filter_map(|l| date::find_date_time(l));
        let first = dated.next()?;
        dated.next().is_none().then_some(first)
    }

    /// First date anywhere on the page (screens whose date has no label).
    pub fn any_date_time(&self) -> Option<DateTime> {
        self.lines.iter().find_map(|l| date::find_date_time(l))
    }

    /// Amount from the first label with one; a label's value is trusted
    /// only when it is an amount (`交易金额 -58.00`, `金额 RMB 58.00`).
    pub fn labeled_amount(&self, labels: &[&str]) -> Option<AmountHit> {
        labels.iter().find_map(|label| {
            let v = self.value_of(label)?;
            amount::find_amounts(&v.value).into_iter().next()
        })
    }

    /// An amount under a label that ends a line after other text: two
    /// columns read as one line (`样例文具用品有限公司 收入金额 (元)` over
    /// `兴业银行 · 退货 +64.93`). The signed or currency amount ending the
    /// next line, for amount labels (`…金额`) only; unsigned where the
    /// label names the unit (`支出金额(元)` over `消费 · 银联在线 142.00`).
    pub fn amount_under_column_label(&self, labels: &[&str]) -> Option<AmountHit> {
        labels
            .iter()
            .filter(|label| label.ends_with("金额"))
            .find_map(|label| {
                (0..self.lines.len().saturating_sub(1)).find_map(|i| {
                    let whole: String = self.compact[i].iter().collect();
                    let line = whole.trim_end_matches(['(', ')', '（', '）', '元']);
                    let beside_text = line.ends_with(label) && line.len() > label.len();
                    // `支出金额(元)` names the unit itself: its figure needs
                    // no sign or currency to be the amount.
                    let unit_in_label = whole[line.len()..].contains('元');
                    let next = self.lines[i + 1].trim_end();
                    if !beside_text
                        || self.is_balance(i + 1)
                        || !next.ends_with(|c: char| c.is_ascii_digit() || c == '元')
                    {
                        return None;
                    }
                    amount::find_amounts(next)
                        .last()
                        .copied()
                        .filter(|h| h.sign != amount::Sign::None || h.currency || unit_in_label)
                })
            })
    }

    /// The big amount of a bill screen: the first line that is nothing but
    /// an amount (with sign or currency), before line `before`; failing
    /// that, the first signed amount leading its line (a status pill or
    /// icon beside it).
    pub fn headline_amount(&self, before: usize) -> Option<(usize, AmountHit)> {
        self.lines
            .iter()
            .take(before)
            .enumerate()
            .filter(|(i, _)| !self.is_balance(*i))
            .find_map(|(i, l)| {
                let hits = amount::find_amounts(l);
                match hits.as_slice() {
                    [hit] if hit.alone && !icons_after_bare_number(l, hit) => Some((i, *hit)),
                    _ => None,
                }
            })
            .or_else(|| {
                self.lines
                    .iter()
                    .take(before)
                    .enumerate()
                    .filter(|(i, _)| !self.is_balance(*i))
                    .find_map(|(i, l)| match amount::find_amounts(l).as_slice() {
                        [hit] if hit.leads => Some((i, *hit)),
                        _ => None,
                    })
            })
            .or_else(|| {
                // Beside the payee's name (`@ 样例文具 -2744.09`, 云闪付's
                // 收支详情): a signed amount ending its line, the only
                // number on it; or beside the status (`@ 交易成功 1361.00`,
                // the minus lost). Not a labelled row (`订单金额 -32.21`)
                // nor a discount (`立减 -1.17`).
                self.lines
                    .iter()
                    .take(before)
                    .enumerate()
                    .filter(|(i, _)| {
                        !self.is_balance(*i)
                            && !self.starts_with_known_label(*i)
                            && !DISCOUNT_LABELS.iter().any(|w| {
                                let w: Vec<char> = w.chars().collect();
                                self.line_has(*i, &w)
                            })
                    })
                    .find_map(|(i, l)| match amount::find_amounts(l).as_slice() {
                        [hit]
                            if (hit.sign != amount::Sign::None || l.contains("成功"))
                                && ends_with_amount(l, hit.cents) =>
                        {
                            Some((i, *hit))
                        }
                        _ => None,
                    })
            })
    }

    /// Whether the screen lists a discount with an amount (`优惠金额
    /// -4.60`, `立减 ¥5.00`).
    pub fn has_discount(&self) -> bool {
        let labelled = DISCOUNT_LABELS.iter().any(|label| {
            self.value_of(label).is_some_and(|v| {
                let amounts = amount::find_amounts(&v.value);
                amounts.iter().any(|h| h.cents > 0)
                    // A figure too garbled to read (`优惠金额 光 .49`, the
                    // red `-¥2.49`) still says there is a discount; only
                    // one read as zero says there is none.
                    || (amounts.is_empty() && v.value.chars().any(|c| c.is_ascii_digit()))
            })
        });
        // Or beside the order total on its line (`订单金额 ¥64.72 已优惠
        // ¥1.74`): a discount word with an amount after it. After an
        // order total the word alone says it: its small figure is often
        // unreadable (`随机立减 兰 .93`).
        let inline = self.lines.iter().any(|line| {
            let line = text::compact(line);
            let after_total = ORDER_TOTAL_LABELS
                .iter()
                .filter_map(|total| line.find(total).map(|at| at + total.len()))
                .min();
            DISCOUNT_LABELS.iter().any(|label| {
                line.find(label).is_some_and(|at| {
                    after_total.is_some_and(|end| at >= end)
                        || amount::find_amounts(&line[at + label.len()..])
                            .iter()
                            .any(|h| h.cents > 0)
                })
            })
        });
        labelled || inline
    }

    /// Amounts the page names as something other than the payment: a
    /// balance, and the order total when a discount is listed. Another
    /// pass that lost those labels must not take them for the amount.
    pub fn not_paid_amounts(&self) -> Vec<i64> {
        let discounted = self.has_discount();
        let mut out = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            let total = discounted
                && ORDER_TOTAL_LABELS.iter().any(|label| {
                    let label: Vec<char> = label.chars().collect();
                    label_end(&self.compact[i], &label, true).is_some()
                });
            if total || self.is_balance(i) {
                out.extend(amount::find_amounts(line).iter().map(|h| h.cents));
            }
        }
        out
    }

    /// Whether line `i` shows an account balance, or is the value under a
    /// balance label standing alone: never the payment's amount.
    fn is_balance(&self, i: usize) -> bool {
        let has_balance_word = |k: usize| {
            BALANCE_WORDS.iter().any(|w| {
                let w: Vec<char> = w.chars().collect();
                self.line_has(k, &w)
            })
        };
        has_balance_word(i)
            || (i > 0
                && has_balance_word(i - 1)
                && amount::find_amounts(&self.lines[i - 1]).is_empty())
    }

    /// Card from the first of `labels` whose value names a card.
    pub fn card(&self, labels: &[&str]) -> Option<CardInfo> {
        labels.iter().find_map(|label| {
            let v = self.value_of(label)?;
            let mut info = card::parse_card_field(&v.value);
            // Four digits alone after a card label are its last four: the
            // mask before them was trimmed off as punctuation (`卡号
            // 。。。。7027`, dots read as `。`) or dropped by OCR.
            let bare = v.value.trim();
            if info.last4.is_empty() && bare.len() == 4 && bare.chars().all(|c| c.is_ascii_digit())
            {
                info.last4 = bare.to_owned();
            }
            // A number may wrap onto the next line (`/C` suffixes, narrow
            // slips, large-text modes): a masked one, or a full one that
            // passes the check digit.
            if info.last4.is_empty()
                && let Some(next) = self.lines.get(v.line + 1)
            {
                let more = card::parse_card_field(&format!("{} {}", v.value, next));
                info.last4 = more.last4;
                info.number = more.number;
            }
            (!info.last4.is_empty() || !info.bank.is_empty()).then_some(info)
        })
    }

    /// Text value of the first label with a non-empty value.
    pub fn text(&self, labels: &[&str]) -> Option<String> {
        self.value(labels)
            .map(|v| v.value)
            .filter(|v| !v.is_empty())
    }

    /// Digits-and-letters value (order numbers): OCR spaces removed.
    pub fn code(&self, labels: &[&str]) -> Option<String> {
        labels.iter().find_map(|label| {
            let v = self.value_of(label)?;
            let code: String = text::compact(&v.value)
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            (code.len() >= 6).then_some(code)
        })
    }

    /// Whether some line that shows `value` (an amount's cents, or four
    /// digits) has numbers tesseract was sure enough of. A value seen only
    /// in doubtful lines is tentative: another pass must confirm it.
    pub fn shown_confidently(&self, matches: impl Fn(&str) -> bool) -> bool {
        let mut seen = false;
        for (i, line) in self.lines.iter().enumerate() {
            if matches(line) {
                if self.digits_ok.get(i).copied().unwrap_or(true) {
                    return true;
                }
                seen = true;
            }
        }
        !seen
    }

    /// Index of the first line starting with one of the labels.
    pub fn first_label_line(&self, labels: &[&str]) -> Option<usize> {
        labels
            .iter()
            .filter_map(|l| {
                let label: Vec<char> = l.chars().collect();
                self.compact
                    .iter()
                    .position(|c| label_end(c, &label, false).is_some())
            })
            .min()
    }
}

/// Where `label` ends in the compact line when the line starts with it,
/// after up to two leading symbols (icons read as `@`, `|`). `fuzzy` allows
/// one misread character in labels of four or more (not the last one, which
/// tells `付款时间` from `付款方式`).
/// A bare number (no sign, no currency) with letters after it: a phone's
/// status bar, its clock read with a point and the signal icons as text
/// (`10.33 ea`). A misread currency sign stands before a headline, never
/// after it.
fn icons_after_bare_number(line: &str, hit: &AmountHit) -> bool {
    hit.sign == amount::Sign::None
        && !hit.currency
        && line.trim_end().ends_with(|c: char| c.is_ascii_alphabetic())
}

/// Whether the last word of `line` is the amount of `cents`, and no
/// other word holds a digit (but a lone first character: an icon read as
/// `4`).
fn ends_with_amount(line: &str, cents: i64) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((last, others)) = words.split_last() else {
        return false;
    };
    let icon = |k: usize, w: &str| k == 0 && w.chars().count() == 1;
    amount::find_amounts(last).iter().any(|h| h.cents == cents)
        && others
            .iter()
            .enumerate()
            .all(|(k, w)| icon(k, w) || !w.chars().any(|c| c.is_ascii_digit()))
}

fn label_end(line: &[char], label: &[char], fuzzy: bool) -> Option<usize> {
    let lead = line
        .iter()
        .take(2)
        .take_while(|c| !c.is_alphanumeric())
        .count();
    let line = &line[lead..];
    if line.starts_with(label) {
        return Some(lead + label.len());
    }
    // An icon read as one Latin letter or digit (`4 支出金额 (元)`), before
    // a label long enough not to be part of a word; a card's icon may read
    // as a digit and a stray ideograph before a three-glyph label
    // (`6 畏付款卡 中国银行信用卡 (6766)`).
    if !fuzzy && label.len() >= 3 && line.first().is_some_and(char::is_ascii_alphanumeric) {
        if line[1..].starts_with(label) {
            return Some(lead + 1 + label.len());
        }
        if line.get(1).is_some_and(|c| !c.is_ascii()) && line[2..].starts_with(label) {
            return Some(lead + 2 + label.len());
        }
    }
    if fuzzy && label.len() >= 4 && line.len() >= label.len() {
        let window = &line[..label.len()];
        if text::edit_distance(window, label) <= 1
            && window[label.len() - 1] == label[label.len() - 1]
        {
            return Some(lead + label.len());
        }
    }
    None
}

/// The original line from the point where `compact_end` non-space chars
/// have passed.
fn rest_after(line: &str, compact_end: usize) -> String {
    let mut seen = 0;
    for (i, c) in line.char_indices() {
        if seen == compact_end {
            return line[i..].to_owned();
        }
        if !c.is_whitespace() {
            seen += 1;
        }
    }
    String::new()
}

/// Drops the English twin of a POS label (`(MERCHANT NAME):`, `CARD NO.`).
fn skip_english_label(rest: &str) -> String {
    let t = rest.trim_start();
    let t = t.strip_prefix(':').unwrap_or(t).trim_start();
    if let Some(inner) = t.strip_prefix('(')
        && let Some(close) = inner.find(')')
    {
        let english = &inner[..close];
        if english
            .chars()
            .all(|c| c.is_ascii_alphabetic() || " ./".contains(c))
        {
            return inner[close + 1..].to_owned();
        }
    }
    t.to_owned()
}

/// Maps a status phrase to a record status. Refund words win over success
/// words (`退款成功`).
pub fn status_of(phrase: &str) -> Option<&'static str> {
    let p = text::compact(phrase);
    let has = |words: &[&str]| words.iter().any(|w| p.contains(w));
    if has(&[
        "退款", "已退", "退货", "撤销", "冲正", "REFUND", "VOID", "Refund",
    ]) {
        Some(STATUS_REFUND)
    } else if has(&["关闭", "已取消"]) {
        Some(STATUS_CLOSED)
    } else if has(&["失败"]) {
        Some(STATUS_FAILED)
    } else if has(&["处理中", "等待", "待支付", "待付款"]) {
        Some(STATUS_PENDING)
    } else if has(&[
        "成功",
        "已支付",
        "已付款",
        "消费",
        "SALE",
        "Sale",
        "支出",
        "完成",
    ]) {
        Some(STATUS_SUCCESS)
    } else {
        None
    }
}

/// Status from a short line standing alone (`交易成功` under the amount),
/// or from what follows the amount on its own line (a status pill beside
/// the headline amount).
pub fn status_line(fields: &Fields, from: usize, to: usize) -> Option<&'static str> {
    fields
        .lines
        .iter()
        .take(to)
        .skip(from)
        .map(|l| text::compact(after_amount(l)))
        .filter(|l| l.chars().count() <= 8)
        .find_map(|l| status_of(&l))
}

/// The part of a line after its last digit when it holds an amount (so an
/// amount line offers only its trailing words); the whole line otherwise.
fn after_amount(line: &str) -> &str {
    if amount::find_amounts(line).is_empty() {
        return line;
    }
    line.rfind(|c: char| c.is_ascii_digit())
        .map_or(line, |i| &line[i + 1..])
}

/// Date as a string, empty when absent.
pub fn date_string(d: Option<Date>) -> String {
    d.map(|d| d.to_string()).unwrap_or_default()
}

/// Whether the amount was written as money flowing in (a refund).
pub fn is_incoming(hit: &AmountHit) -> bool {
    hit.sign == Sign::Plus
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(s: &str) -> Fields {
        Fields::new(&OcrPage::from_text(s))
    }

    #[test]
    fn values_on_same_and_next_line() {
        let f = fields(
            "支付时间 2025-03-11 12:03:45\n商户名称(MERCHANT NAME):\n示例餐饮有限公司\n卡号:\n交易类型:消费",
        );
        assert_eq!(
            f.text(&["支付时间"]).as_deref(),
            Some("2025-03-11 12:03:45")
        );
        assert_eq!(f.text(&["商户名称"]).as_deref(), Some("示例餐饮有限公司"));
        assert_eq!(f.text(&["卡号"]), None);
    }

    #[test]
    fn a_unit_after_the_label_and_a_time_under_the_date() {
        let f = fields("收入金额 (元 )\n+886.59\n交易时间 2025-03-18\n22:53:01");
        assert_eq!(
            f.labeled_amount(&["收入金额"]).map(|h| h.cents),
            Some(88659)
        );
        let dt = f.date_time(&["交易时间"], &[]).unwrap();
        assert_eq!(
            (dt.date.to_string(), dt.time.as_str()),
            ("2025/03/18".into(), "22:53:01")
        );
    }

    #[test]
    fn a_refund_time_is_no_stand_in_for_an_unreadable_payment_time() {
        let labels = ["支付时间", "退款时间"];
        let f = fields("退款时间 2024 年 2 月 22 日 22:32:14\n支付时间 2024 年 ?月 20 日 17:25:43");
        assert!(f.date_time(&labels, &[]).is_none());
        let f = fields("退款时间 2024 年 2 月 22 日 22:32:14");
        assert!(f.date_time(&labels, &[]).is_some());
    }

    #[test]
    fn labels_survive_ocr_noise() {
        let f = fields("必款方全称。 示例科技有限公司\n支 付 方 式 招商银行信用卡(1234)");
        assert_eq!(f.text(&["收款方全称"]).as_deref(), Some("示例科技有限公司"));
        assert_eq!(
            f.card(&["支付方式"]).map(|c| c.last4).as_deref(),
            Some("1234")
        );
    }

    #[test]
    fn an_icon_read_as_a_letter_before_a_label() {
        let f = fields("收支明细\n4 支出金额 (元 )\n四 366.00 人 EF\n交易时间 2025-08-16");
        assert_eq!(
            f.labeled_amount(&["支出金额"]).map(|h| h.cents),
            Some(36600)
        );
        // Not before a short label, which may end a word (`4金额`).
        assert!(fields("4 金额 ¥5.00").labeled_amount(&["金额"]).is_none());
    }

    #[test]
    fn a_status_bar_clock_is_no_headline() {
        let f = fields(
            "10.33 ea\n《 账单详情 客服\n演示出行 @@ 交易 成功\n-2483.00\n付款卡 浦发银行 借记卡尾号 7634",
        );
        assert_eq!(f.headline_amount(4).map(|(_, h)| h.cents), Some(248_300));
    }

    #[test]
    fn headline_amount_is_alone() {
        let f = fields("账单详情\n示例店\n-58.00\n交易成功\n余额 1,000.00");
        let (line, hit) = f.headline_amount(5).unwrap();
        assert_eq!((line, hit.cents), (2, 5800));
        assert_eq!(status_line(&f, 3, 4), Some(STATUS_SUCCESS));
    }

    #[test]
    fn headline_amount_beside_the_payee_s_name() {
        let f = fields(
            "收支详情 客服\n@ 祥例文具 -2744.09\n介交易成功\n商户名称 样例文具用品有限公司\n订单金额 Y2745.26",
        );
        let (line, hit) = f.headline_amount(3).unwrap();
        assert_eq!((line, hit.cents), (1, 274_409));
        // Unsigned, or another number on the line: no headline.
        assert!(
            fields("样例文具 2744.09\n商户名称 x")
                .headline_amount(1)
                .is_none()
        );
        assert!(
            fields("样例 3 件 -2744.09\n商户名称 x")
                .headline_amount(1)
                .is_none()
        );
        assert!(
            fields("样例文具 立减 -1.17\n商户名称 x")
                .headline_amount(1)
                .is_none()
        );
        // An icon read as `4` before the name; the status beside an amount
        // whose minus was lost.
        let f = fields("4 示例快印 -23.14\n商户名称 x");
        assert_eq!(f.headline_amount(1).map(|(_, h)| h.cents), Some(2314));
        let f = fields("人示例黎厅\n及\" @ 交易成功 1361.00\n商户名称 x");
        assert_eq!(f.headline_amount(2).map(|(_, h)| h.cents), Some(136_100));
    }

    #[test]
    fn headline_amount_beside_a_pill_or_icon() {
        let f = fields("账单详情\n样例超市\n@ -32.21 :ai\n付款方式 中国银行信用卡(1459)");
        let (line, hit) = f.headline_amount(3).unwrap();
        assert_eq!((line, hit.cents), (2, 3221));
        let f = fields("账单详情\n-32.21 交易成功\n余额 1,000.00");
        assert_eq!(f.headline_amount(3).unwrap().0, 1);
        // Unsigned, or a label before it: a row, not a headline.
        assert!(
            fields("账单详情\n32.21 交易成功")
                .headline_amount(2)
                .is_none()
        );
        assert!(
            fields("账单详情\n订单金额 -32.21")
                .headline_amount(2)
                .is_none()
        );
    }

    #[test]
    fn a_balance_is_never_the_headline() {
        let f = fields("交易详情\n可用余额\n¥28,543.31\n-58.00\n交易时间 2025-01-02");
        assert_eq!(f.headline_amount(4).map(|(_, h)| h.cents), Some(5800));
        let f = fields("交易详情\n账户余额 ¥28,543.31\n交易时间 2025-01-02");
        assert!(f.headline_amount(2).is_none());
    }

    #[test]
    fn an_amount_under_a_label_beside_other_text() {
        let f = fields(
            "交易详情\n样例文具用品有限公司 收入金额 (元 )\n兴业银行 退货 +64.93\n记账日期 20250622",
        );
        let hit = f.amount_under_column_label(&["交易金额", "收入金额", "人民币"]);
        assert_eq!(hit.map(|h| h.cents), Some(6493));
        // Unsigned, it is the amount only where the label names the unit.
        let f = fields("样例 收入金额 (元)\n兴业银行 64.93");
        let hit = f.amount_under_column_label(&["收入金额"]);
        assert_eq!(hit.map(|h| h.cents), Some(6493));
        let f = fields("样例 收入金额\n兴业银行 64.93");
        assert!(f.amount_under_column_label(&["收入金额"]).is_none());
        // A balance is never the amount.
        let f = fields("样例 收入金额\n账户余额 ¥66,759.35");
        assert!(f.amount_under_column_label(&["收入金额"]).is_none());
    }

    #[test]
    fn labels_side_by_side_take_the_values_under_them() {
        let f =
            fields("交易日期 交易时间\n2024 年 7 月 26 日 13:05:03\n交易卡号\n6200 0000 0000 2878");
        let dt = f.date_time(&["交易日期"], &["交易时间"]).unwrap();
        assert_eq!(dt.date.to_string(), "2024/07/26");
        assert_eq!(dt.time, "13:05:03");
    }

    #[test]
    fn a_discount_row_is_seen() {
        let f = fields("-75.69\n订单金额 80.29\n优惠金额 -4.60\n可用余额 1,000.00");
        assert!(f.has_discount());
        assert_eq!(f.not_paid_amounts(), vec![8029, 100_000]);
        assert!(fields("订单金额 80.29").not_paid_amounts().is_empty());
        assert!(!fields("订单金额 80.29\n银联卡支付 天天有优惠").has_discount());
        // The discount's figure unreadable: the word after the total says it.
        let f =
            fields("玫工 5 2 .00\n订单金额 156.93 \"随机立减 兰 .93\n交易时间 2025-09-08 08:33:15");
        assert!(f.has_discount());
        assert_eq!(f.not_paid_amounts(), vec![15693]);
        let f = fields("-02.98\n订单金额 Y64.72 已优惠 Y1.74\n交易时间 2025-03-16 11:28:51");
        assert!(f.has_discount());
        assert_eq!(f.not_paid_amounts(), vec![6472, 174]);
        let f = fields("优惠信息\n订单 金额 196.15 元\n银联立减 -2.15 元");
        assert!(f.has_discount());
        assert_eq!(f.not_paid_amounts(), vec![19615]);
        // A discount row whose figure is garbled still names a discount;
        // one that reads zero, or holds no figure at all, does not.
        let f = fields("订单金额 半 127.40\n优惠金额 光 .49\n交易类型 消费");
        assert!(f.has_discount());
        assert_eq!(f.not_paid_amounts(), vec![12740]);
        assert!(!fields("订单金额 ¥127.40\n优惠金额 ¥0.00").has_discount());
        assert!(!fields("订单金额 ¥127.40\n优惠金额 无").has_discount());
    }

    #[test]
    fn four_digits_alone_after_a_card_label_are_the_last_four() {
        let f = fields("交易详情\n卡号 。。。。7027\n交易时间 2024-10-14 13:33:49");
        assert_eq!(f.card(&["卡号"]).map(|c| c.last4).as_deref(), Some("7027"));
        let f = fields("交易详情\n卡号 6200 0000\n交易时间 2024-10-14 13:33:49");
        assert!(f.card(&["卡号"]).is_none_or(|c| c.last4.is_empty()));
    }

    #[test]
    fn statuses() {
        assert_eq!(status_of("退款成功"), Some(STATUS_REFUND));
        assert_eq!(status_of("支付成功"), Some(STATUS_SUCCESS));
        assert_eq!(status_of("交易关闭"), Some(STATUS_CLOSED));
        assert_eq!(status_of("消费/SALE"), Some(STATUS_SUCCESS));
        assert_eq!(status_of("示例"), None);
    }
}
