//! The readers: small units of one shape, each reading candidate values for one or more
//! fields from the laid-out page, named by the rule they apply. The decisions
//! (`decide.rs`) choose among them.

use crate::amount;
use crate::card;
use crate::date;
use crate::labels::{
    CARD_LABELS, ISSUER_LABELS, MERCHANT_LABELS, ORDER_LABELS, PAID_LABELS, PAID_TIME_LABELS,
    REFERENCE_LABELS, REFUND_TIME_LABELS, STATUS_LABELS,
};
use crate::layout::Layout;
use crate::screen::ScreenType;

/// The record's fields a reader can fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    /// [`PaymentRecord::amount`](crate::PaymentRecord::amount).
    Amount,
    /// [`PaymentRecord::date`](crate::PaymentRecord::date).
    Date,
    /// [`PaymentRecord::time`](crate::PaymentRecord::time).
    Time,
    /// [`PaymentRecord::card_last4`](crate::PaymentRecord::card_last4).
    CardLast4,
    /// [`PaymentRecord::card_number`](crate::PaymentRecord::card_number).
    CardNumber,
    /// [`PaymentRecord::card_bank`](crate::PaymentRecord::card_bank).
    CardBank,
    /// [`PaymentRecord::merchant`](crate::PaymentRecord::merchant).
    Merchant,
    /// [`PaymentRecord::order_no`](crate::PaymentRecord::order_no).
    OrderNo,
    /// [`PaymentRecord::status`](crate::PaymentRecord::status).
    Status,
}

impl Field {
    /// Every field, in the record's order.
    pub const ALL: [Field; 9] = [
        Field::Amount,
        Field::Date,
        Field::Time,
        Field::CardLast4,
        Field::CardNumber,
        Field::CardBank,
        Field::Merchant,
        Field::OrderNo,
        Field::Status,
    ];

    /// The record's field name (`card_last4`).
    pub fn name(self) -> &'static str {
        match self {
            Field::Amount => "amount",
            Field::Date => "date",
            Field::Time => "time",
            Field::CardLast4 => "card_last4",
            Field::CardNumber => "card_number",
            Field::CardBank => "card_bank",
            Field::Merchant => "merchant",
            Field::OrderNo => "order_no",
            Field::Status => "status",
        }
    }
}

/// One value a reader proposes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub field: Field,
    pub value: String,
    pub rule: &'static str,
}

/// A reader: its rule name and what it reads.
pub struct Reader {
    pub rule: &'static str,
    read: fn(&Layout, ScreenType, &mut Vec<(Field, String)>),
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.rule)
    }
}

impl Reader {
    /// The candidates this reader finds on the page.
    pub fn read(&self, layout: &Layout, screen: ScreenType) -> Vec<Candidate> {
        let mut found = Vec::new();
        (self.read)(layout, screen, &mut found);
        found
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(field, value)| Candidate {
                field,
                value,
                rule: self.rule,
            })
            .collect()
    }
}

/// Status words as shown, and the status they mean. A word is matched against a whole
/// line (or a status label's value), so 支付成功 in a sentence does not count.
const STATUS_WORDS: &[(&str, &str)] = &[
    ("交易成功", crate::record::STATUS_SUCCESS),
    ("支付成功", crate::record::STATUS_SUCCESS),
    ("付款成功", crate::record::STATUS_SUCCESS),
    ("已支付", crate::record::STATUS_SUCCESS),
    ("成功", crate::record::STATUS_SUCCESS),
    ("退款成功", crate::record::STATUS_REFUND),
    ("已全额退款", crate::record::STATUS_REFUND),
    ("已退款", crate::record::STATUS_REFUND),
    ("部分退款", crate::record::STATUS_REFUND),
    ("退款", crate::record::STATUS_REFUND),
    ("退货", crate::record::STATUS_REFUND),
    ("撤销", crate::record::STATUS_REFUND),
    ("交易失败", crate::record::STATUS_FAILED),
    ("支付失败", crate::record::STATUS_FAILED),
    ("失败", crate::record::STATUS_FAILED),
    ("处理中", crate::record::STATUS_PENDING),
    ("交易关闭", crate::record::STATUS_CLOSED),
    ("已关闭", crate::record::STATUS_CLOSED),
];

/// Every reader.
pub const READERS: &[Reader] = &[
    Reader {
        rule: "paid-amount label",
        read: paid_amount_label,
    },
    Reader {
        rule: "headline amount",
        read: headline_amount,
    },
    Reader {
        rule: "slip amount in RMB",
        read: slip_rmb_amount,
    },
    Reader {
        rule: "payment-time label",
        read: paid_time_label,
    },
    Reader {
        rule: "refund-time label",
        read: refund_time_label,
    },
    Reader {
        rule: "slip date or time line",
        read: slip_date_line,
    },
    Reader {
        rule: "card label",
        read: card_label,
    },
    Reader {
        rule: "card number line",
        read: card_number_line,
    },
    Reader {
        rule: "bank card tail number",
        read: card_tail,
    },
    Reader {
        rule: "issuer label",
        read: issuer_label,
    },
    Reader {
        rule: "bank named in the title",
        read: title_bank,
    },
    Reader {
        rule: "merchant label",
        read: merchant_label,
    },
    Reader {
        rule: "headline name",
        read: headline_name,
    },
    Reader {
        rule: "order-number label",
        read: order_label,
    },
    Reader {
        rule: "slip reference number",
        read: reference_label,
    },
    Reader {
        rule: "status label",
        read: status_label,
    },
    Reader {
        rule: "status line",
        read: status_line,
    },
    Reader {
        rule: "slip or bank record",
        read: record_status,
    },
];

fn paid_amount_label(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    for f in l.labelled(PAID_LABELS) {
        if let Some(a) = amount::parse_value(&f) {
            out.push((Field::Amount, domain::format_cents(a.cents)));
        }
    }
}

/// The amount written big: the tallest line that is nothing but an amount, alone in its
/// row, in the upper part of the page, clearly taller than any other amount line.
fn headline_amount(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    if let Some(i) = headline_index(l)
        && let Some(a) = amount::parse_value(&l.cells[i].compact)
    {
        out.push((Field::Amount, domain::format_cents(a.cents)));
    }
}

/// The line of the headline amount (see [`headline_amount`]).
pub fn headline_index(l: &Layout) -> Option<usize> {
    let mut amounts: Vec<(usize, u32)> = l
        .cells
        .iter()
        .enumerate()
        .filter(|(_, c)| amount::parse_value(&c.compact).is_some())
        .map(|(i, c)| (i, c.line.height()))
        .collect();
    amounts.sort_by_key(|&(_, h)| std::cmp::Reverse(h));
    let &(i, h) = amounts.first()?;
    let clear = amounts.get(1).is_none_or(|&(_, h2)| h * 4 >= h2 * 5);
    let upper = l.cells[i].line.y1 <= l.height * 3 / 5;
    let alone = l.row(i).len() == 1 || pill_beside(l, i);
    (clear && upper && alone).then_some(i)
}

/// What may sit on the amount's row without making the amount a row's value: a status
/// pill (`交易成功`), the currency (`元`), a logo's letter, or on its left the payee's name
/// beside its logo (a name holds no digit and is no label).
fn pill_beside(l: &Layout, i: usize) -> bool {
    let amount = &l.cells[i].line;
    l.row(i).into_iter().filter(|&j| j != i).all(|j| {
        let c = &l.cells[j].compact;
        let name = l.cells[j].line.x1 <= amount.x0
            && !c.chars().any(|ch| ch.is_ascii_digit())
            && !crate::layout::opens_with_label(c);
        status_of(c).is_some()
            || matches!(c.as_str(), "元" | "CNY" | "RMB" | "人民币")
            || c.chars().count() == 1
            || name
    })
}

fn push_date_time(value: &str, out: &mut Vec<(Field, String)>) {
    if let Some(dt) = date::find_date_time(value).or_else(|| date::parse_compact_date_time(value)) {
        out.push((Field::Date, dt.date.to_string()));
        out.push((Field::Time, dt.time));
    } else if let Some(t) = date::find_time(value) {
        out.push((Field::Time, t));
    }
}

/// A slip prints its amount after the currency code (`金额 AMOUNT: RMB 135.64`): the
/// amount is read from there even when the label was not.
fn slip_rmb_amount(l: &Layout, screen: ScreenType, out: &mut Vec<(Field, String)>) {
    if screen != ScreenType::PosSlip {
        return;
    }
    for c in &l.cells {
        if let Some((_, after)) = c.compact.rsplit_once("RMB")
            && let Some(a) = amount::parse_value(after)
        {
            out.push((Field::Amount, domain::format_cents(a.cents)));
        }
    }
}

/// A slip's line that is nothing but a date and time, a date, or a time (its label printed
/// apart and lost): a slip shows one transaction's moment, so such lines are its date and
/// time (several that differ leave the field empty).
fn slip_date_line(l: &Layout, screen: ScreenType, out: &mut Vec<(Field, String)>) {
    if screen != ScreenType::PosSlip {
        return;
    }
    for c in &l.cells {
        // With separators: eight bare digits are a terminal or batch number as often as a day.
        if c.compact
            .chars()
            .all(|ch| ch.is_ascii_digit() || "-/.:".contains(ch))
            && c.compact.contains(['-', '/', '.', ':'])
        {
            if let Some(dt) = date::find_date_time(&c.text) {
                out.push((Field::Date, dt.date.to_string()));
                out.push((Field::Time, dt.time));
            } else if let Some(t) = date::find_time(&c.text) {
                out.push((Field::Time, t));
            }
        }
    }
}

fn paid_time_label(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    for f in l.labelled(PAID_TIME_LABELS) {
        push_date_time(&f, out);
    }
}

fn refund_time_label(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    for f in l.labelled(REFUND_TIME_LABELS) {
        push_date_time(&f, out);
    }
}

fn push_card(info: card::CardInfo, out: &mut Vec<(Field, String)>) {
    out.push((Field::CardLast4, info.last4));
    out.push((Field::CardNumber, info.number));
    out.push((Field::CardBank, info.bank));
}

fn card_label(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    let cards: Vec<card::CardInfo> = l
        .labelled(CARD_LABELS)
        .iter()
        .map(|v| card::parse_card(v))
        .collect();
    let whole = cards.iter().any(|c| !c.last4.is_empty());
    for info in cards {
        push_card(info, out);
    }
    // A number cut after its first group, glued to the label (`卡号6200`), and the rest
    // beside it: read together when the label's own value gave no card.
    if !whole {
        for f in l.labelled_with_row(CARD_LABELS) {
            let info = card::parse_card(&f);
            if !info.last4.is_empty() {
                push_card(info, out);
            }
        }
    }
}

/// A line of nothing but a card number (a bank app prints it under its name, unlabelled):
/// a full number passing the check, or a masked one with a bank prefix and four digits.
/// The groups may be read as lines of their own on one row (`6200****` `****` `1028`).
fn card_number_line(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    let mut seen = Vec::new();
    for i in 0..l.cells.len() {
        let row = l.row(i);
        if seen.contains(&row) {
            continue;
        }
        let joined = l.joined_row(&row);
        seen.push(row);
        let only_card = joined
            .chars()
            .all(|ch| ch.is_ascii_digit() || matches!(ch, '*' | '•' | '●' | 'x' | 'X' | '·'));
        let starts = joined.chars().take(4).all(|ch| ch.is_ascii_digit())
            && joined.starts_with(['3', '4', '5', '6']);
        if only_card && starts && joined.len() >= 12 {
            push_card(card::parse_card(&joined), out);
        }
    }
}

fn issuer_label(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    for f in l.labelled(ISSUER_LABELS) {
        out.push((Field::CardBank, card::find_bank(&f).unwrap_or_default()));
    }
}

/// A bank's card named by its tail number anywhere on the page (`中国银行·尾号6742` under a
/// bank app's title): the line must name a bank, so a phone's tail number (`手机尾号`) is
/// not taken for a card's.
fn card_tail(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    for c in &l.cells {
        let marked = card::TAIL_MARKERS.iter().any(|m| c.compact.contains(m));
        if marked && card::find_bank(&c.compact).is_some() && !c.compact.contains("手机") {
            push_card(card::parse_card(&c.compact), out);
        }
    }
}

/// A bank app names its bank at the top: a line above the amount that is only a bank name.
fn title_bank(l: &Layout, screen: ScreenType, out: &mut Vec<(Field, String)>) {
    if screen != ScreenType::BankCard {
        return;
    }
    let top = l.height / 4;
    for c in l.cells.iter().filter(|c| c.line.y1 <= top) {
        if let Some(bank) = card::find_bank(&c.compact)
            && c.compact.starts_with(&bank)
            && c.compact.chars().count() <= bank.chars().count() + 4
        {
            out.push((Field::CardBank, bank));
        }
    }
}

fn merchant_label(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    for f in l.labelled(MERCHANT_LABELS) {
        let name = clean_name(&f);
        if !name.is_empty() && !name.chars().any(|c| c.is_ascii_digit()) {
            out.push((Field::Merchant, name));
        }
    }
}

/// The payee's short name printed right above the headline amount.
fn headline_name(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    let Some(i) = headline_index(l) else { return };
    let above = (0..i)
        .rev()
        .find(|&j| l.cells[j].line.y1 <= l.cells[i].line.y0 + 4);
    if let Some(j) = above {
        let c = &l.cells[j];
        let name = clean_name(&c.text);
        let plausible = name.chars().count() >= 2
            && !name.chars().any(|ch| ch.is_ascii_digit())
            && status_of(&c.compact).is_none()
            && !c.compact.ends_with(':')
            && !crate::layout::opens_with_label(&c.compact)
            && l.row(j).len() == 1;
        if plausible {
            out.push((Field::Merchant, name));
        }
    }
}

/// A name without the arrow or chevron that links it.
fn clean_name(s: &str) -> String {
    s.trim()
        .trim_end_matches(['>', '》', '〉', ' '])
        .trim()
        .to_owned()
}

fn order_label(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    for f in l.labelled(ORDER_LABELS) {
        let v: String = f.chars().filter(|c| !c.is_whitespace()).collect();
        if v.len() >= 6 && v.chars().all(|c| c.is_ascii_alphanumeric()) {
            out.push((Field::OrderNo, v));
        }
    }
}

fn reference_label(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    for f in l.labelled(REFERENCE_LABELS) {
        let v = crate::text::compact(&f);
        if v.len() == 12 && v.chars().all(|c| c.is_ascii_digit()) {
            out.push((Field::OrderNo, v));
        }
    }
}

/// The status a whole line says. A tick or a pill's edge before the word is read as a mark
/// (`√交易成功`, `）交易成功`): leading marks are not part of the line's words.
fn status_of(compact: &str) -> Option<&'static str> {
    let words =
        compact.trim_start_matches(|c: char| !(c.is_alphanumeric() || crate::text::is_cjk(c)));
    STATUS_WORDS
        .iter()
        .find(|(w, _)| words == *w)
        .map(|(_, s)| *s)
}

fn status_label(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    for f in l.labelled(STATUS_LABELS) {
        // A label's value may go on after a comma: 支付成功，对方已收款.
        let first = f.split(['，', ',']).next().unwrap_or_default();
        if let Some(s) = status_of(&crate::text::compact(first)) {
            out.push((Field::Status, s.to_owned()));
        }
    }
}

fn status_line(l: &Layout, _: ScreenType, out: &mut Vec<(Field, String)>) {
    for c in &l.cells {
        if let Some(s) = status_of(&c.compact) {
            out.push((Field::Status, s.to_owned()));
        }
    }
}

/// A slip or a bank's record is of a transaction made: 成功, unless it says 退货 or 撤销.
fn record_status(l: &Layout, screen: ScreenType, out: &mut Vec<(Field, String)>) {
    if !matches!(screen, ScreenType::PosSlip | ScreenType::BankCard) {
        return;
    }
    let refund = ["退货", "撤销", "退款", "REFUND", "VOID"]
        .iter()
        .any(|w| l.has(w));
    let status = if refund {
        crate::record::STATUS_REFUND
    } else {
        crate::record::STATUS_SUCCESS
    };
    out.push((Field::Status, status.to_owned()));
}
