//! The invoice rows of a claim: the repeated `inv_no[]`, `inv_date[]`, `item[]` (or
//! `category[]`), `amount[]` and `seller[]` fields read as rows, each checked in column order.

use std::collections::HashMap;

use crate::claims::{ClaimKind, ClaimRow};
use crate::clock::Date;
use crate::form::PostedForm;
use crate::money;

/// The 费用类型 choices of the travel form's rows.
pub(crate) const TRAVEL_CATEGORIES: [&str; 5] =
    ["城市间交通费", "住宿费", "市内交通费", "会议注册费", "其他"];

/// More rows than this is not a claim a person types.
const MAX_ROWS: usize = 50;

/// The posted fields of one row, before checks.
struct RawRow<'a> {
    number: &'a str,
    date: &'a str,
    item: &'a str,
    amount: &'a str,
    seller: &'a str,
}

/// The checked rows and their total in fen. `latest` is the date no invoice may be after (the
/// daily form's 报销日期).
pub(crate) fn read(
    form: &PostedForm,
    kind: ClaimKind,
    latest: Option<Date>,
) -> Result<(Vec<ClaimRow>, u64), String> {
    let item_field = match kind {
        ClaimKind::Daily => "item[]",
        ClaimKind::Travel => "category[]",
    };
    let columns = [
        form.values("inv_no[]"),
        form.values("inv_date[]"),
        form.values(item_field),
        form.values("amount[]"),
        form.values("seller[]"),
    ];
    let count = columns.iter().map(Vec::len).max().unwrap_or(0);
    if count == 0 {
        return Err("请至少添加一行发票明细".to_owned());
    }
    if count > MAX_ROWS {
        return Err(format!("发票明细不能超过{MAX_ROWS}行"));
    }
    let cell = |column: usize, row: usize| -> &str {
        columns
            .get(column)
            .and_then(|c| c.get(row))
            .copied()
            .unwrap_or("")
    };
    let mut rows = Vec::with_capacity(count);
    let mut total = 0_u64;
    let mut seen: HashMap<String, usize> = HashMap::new();
    for index in 0..count {
        let raw = RawRow {
            number: cell(0, index),
            date: cell(1, index),
            item: cell(2, index),
            amount: cell(3, index),
            seller: cell(4, index),
        };
        let line = index + 1;
        let (row, fen) = check(&raw, kind, latest).map_err(|e| format!("第{line}行：{e}"))?;
        if let Some(first) = seen.insert(row.invoice_no.clone(), line) {
            return Err(format!(
                "第{line}行：发票号码 {} 与第{first}行重复",
                row.invoice_no
            ));
        }
        total = total.saturating_add(fen);
        rows.push(row);
    }
    Ok((rows, total))
}

/// One row's checks, in column order; the message lacks the `第N行：` its caller adds.
fn check(
    raw: &RawRow<'_>,
    kind: ClaimKind,
    latest: Option<Date>,
) -> Result<(ClaimRow, u64), String> {
    if raw.number.is_empty() {
        return Err("发票号码不能为空".to_owned());
    }
    let digits = raw.number.bytes().all(|b| b.is_ascii_digit());
    if !digits || !matches!(raw.number.len(), 8 | 20) {
        return Err("发票号码应为8位或20位数字".to_owned());
    }
    if raw.date.is_empty() {
        return Err("开票日期不能为空".to_owned());
    }
    let date = Date::parse(raw.date).ok_or_else(|| "开票日期格式不正确".to_owned())?;
    if latest.is_some_and(|latest| date > latest) {
        return Err("开票日期不能晚于报销日期".to_owned());
    }
    check_item(raw.item, kind)?;
    if raw.amount.is_empty() {
        return Err("金额不能为空".to_owned());
    }
    let fen = money::parse_fen(raw.amount).ok_or_else(|| "金额格式不正确".to_owned())?;
    if fen == 0 {
        return Err("金额必须大于0".to_owned());
    }
    if raw.seller.is_empty() {
        return Err("销售方名称不能为空".to_owned());
    }
    let row = ClaimRow {
        invoice_no: raw.number.to_owned(),
        invoice_date: date.to_string(),
        item: raw.item.to_owned(),
        amount: money::format_fen(fen),
        seller: raw.seller.to_owned(),
    };
    Ok((row, fen))
}

fn check_item(item: &str, kind: ClaimKind) -> Result<(), String> {
    match kind {
        ClaimKind::Daily if item.is_empty() => Err("费用项目不能为空".to_owned()),
        ClaimKind::Travel if item.is_empty() => Err("费用类型不能为空".to_owned()),
        ClaimKind::Travel if !TRAVEL_CATEGORIES.contains(&item) => Err("费用类型不正确".to_owned()),
        _ => Ok(()),
    }
}
