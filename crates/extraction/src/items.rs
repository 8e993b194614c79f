//! The item table: columns located from the header labels, rows split into cells by position
//! (left-aligned names by gap, right-aligned numbers by their right edge), wrapped names
//! joined, discount lines kept, rows gathered across pages.

use crate::amount;
use crate::geometry::Sheet;
use crate::text;
use domain::LineItem;

/// Item table columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Col {
    Name,
    Spec,
    Unit,
    Qty,
    Price,
    Amount,
    Rate,
    Tax,
    Plate,
    VehicleType,
    DateFrom,
    DateTo,
    /// 项目编码 of fiscal receipts: read so that the code is not taken for the name.
    Code,
    /// 标准 (the rate per unit) of fiscal receipts, kept apart from 数量.
    Standard,
}

const COLS: usize = 14;

impl Col {
    fn index(self) -> usize {
        self as usize
    }
}

/// Header labels per column, most specific first.
const HEADERS: &[(Col, &[&str])] = &[
    (Col::Name, &["项目名称", "服务名称", "货物名称", "名称"]),
    (Col::Spec, &["规格型号", "规格"]),
    (Col::Unit, &["单位"]),
    (Col::Qty, &["数量"]),
    (Col::Price, &["单价"]),
    (Col::Amount, &["金额"]),
    (Col::Rate, &["税率", "征收率"]),
    (Col::Tax, &["税额"]),
    (Col::Plate, &["车牌号"]),
    (Col::VehicleType, &["类型"]),
    (Col::DateFrom, &["通行日期起"]),
    (Col::DateTo, &["通行日期止"]),
    (Col::Code, &["项目编码"]),
    (Col::Standard, &["标准"]),
];

/// A column's header extent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Column {
    pub col: Col,
    pub x0: f32,
    pub x1: f32,
}

/// An item table on one sheet: header line, columns left to right, and the line that ends
/// it (合计 / 小计 / 价税合计), if any.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Table {
    pub header_line: usize,
    pub columns: Vec<Column>,
    pub end_line: Option<usize>,
}

impl Table {
    pub(crate) fn column(&self, col: Col) -> Option<&Column> {
        self.columns.iter().find(|c| c.col == col)
    }

    /// Whether the table has the toll columns.
    pub(crate) fn is_toll(&self) -> bool {
        self.column(Col::Plate).is_some() || self.column(Col::DateFrom).is_some()
    }

    /// The column of a token (`x..end_x`) right of the names: the first whose next column
    /// starts after the token's right edge. Numbers are right-aligned and text left-aligned
    /// or centred, so a cell never reaches past the start of the next column's header, and
    /// one that starts inside the next header's span is not this column's.
    pub(crate) fn column_of(&self, x: f32, end_x: f32, size: f32) -> Option<Col> {
        let others: Vec<&Column> = self.columns_after_name().collect();
        for (k, c) in others.iter().enumerate() {
            match others.get(k + 1) {
                Some(next) if end_x > next.x0 + 0.5 * size || x >= next.x0 - 0.1 * size => {
                    continue;
                }
                _ => return Some(c.col),
            }
        }
        None
    }

    /// Left edge of the first column after the names.
    fn name_limit(&self) -> f32 {
        self.columns_after_name()
            .map(|c| c.x0)
            .fold(f32::INFINITY, f32::min)
    }

    /// The columns right of the name column (all but the name when it has none).
    fn columns_after_name(&self) -> impl Iterator<Item = &Column> {
        let name_x = self.column(Col::Name).map_or(f32::NEG_INFINITY, |c| c.x0);
        self.columns
            .iter()
            .filter(move |c| c.col != Col::Name && c.x0 > name_x)
    }

    /// The column left of the names (a receipt's 项目编码) whose header a token's centre
    /// falls under, within one em.
    fn column_before_name(&self, t: &Token) -> Option<Col> {
        let name_x = self.column(Col::Name)?.x0;
        let centre = (t.x + t.end_x) / 2.0;
        self.columns
            .iter()
            .filter(|c| c.col != Col::Name && c.x1 < name_x)
            .find(|c| centre >= c.x0 - t.size && centre <= c.x1 + t.size)
            .map(|c| c.col)
    }
}

/// Runs of a line merged where they touch, so a number drawn glyph by glyph is one token.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub text: String,
    pub x: f32,
    pub end_x: f32,
    pub size: f32,
}

pub(crate) fn tokens(sheet: &Sheet, line: usize) -> Vec<Token> {
    let mut out: Vec<Token> = Vec::new();
    let Some(l) = sheet.lines.get(line) else {
        return out;
    };
    for run in l.runs.iter().filter_map(|&i| sheet.run(i)) {
        match out.last_mut() {
            Some(t) if run.x - t.end_x <= 0.15 * run.size.min(t.size) => {
                t.text.push_str(&run.text);
                t.end_x = t.end_x.max(run.end_x);
            }
            _ => out.push(Token {
                text: run.text.clone(),
                x: run.x,
                end_x: run.end_x,
                size: run.size,
            }),
        }
    }
    out
}

/// Finds the item table's header and end on a sheet.
pub(crate) fn find_table(sheet: &Sheet) -> Option<Table> {
    let (header_line, columns) = sheet.lines.iter().enumerate().find_map(|(li, line)| {
        let t = line.text();
        let looks = t.contains("金额") && (t.contains("名称") || t.contains("项目"));
        if !looks {
            return None;
        }
        let mut columns: Vec<Column> = HEADERS
            .iter()
            .filter_map(|(col, labels)| {
                labels.iter().find_map(|l| {
                    sheet.find_in_line(li, l).map(|h| Column {
                        col: *col,
                        x0: h.x0,
                        x1: h.x1,
                    })
                })
            })
            .collect();
        // `类型` also ends other headers; only a toll table has it as a column of its own.
        if !columns.iter().any(|c| c.col == Col::Plate) {
            columns.retain(|c| c.col != Col::VehicleType);
        }
        columns.sort_by(|a, b| a.x0.total_cmp(&b.x0));
        (columns.len() >= 3).then_some((li, columns))
    })?;
    let end_line = sheet
        .lines
        .iter()
        .enumerate()
        .skip(header_line + 1)
        .find(|(_, l)| is_table_end(&l.text()))
        .map(|(i, _)| i);
    Some(Table {
        header_line,
        columns,
        end_line,
    })
}

/// 合计 / 小计 / 价税合计 lines close the item rows.
pub(crate) fn is_table_end(line_text: &str) -> bool {
    line_text.starts_with("合计")
        || line_text.starts_with("金额合计")
        || line_text.starts_with("小计")
        || line_text.contains("价税合计")
        || line_text.starts_with("总计")
}

/// One row split into cells.
#[derive(Debug, Clone, Default, PartialEq)]
struct Row {
    cells: [String; COLS],
    /// Left edge of the row's name text, if any.
    name_x: Option<f32>,
}

impl Row {
    fn cell(&self, col: Col) -> &str {
        self.cells.get(col.index()).map_or("", String::as_str)
    }

    fn amount(&self) -> Option<i64> {
        amount::parse_cents(self.cell(Col::Amount))
    }
}

fn split_row(table: &Table, tokens: &[Token]) -> Row {
    let mut row = Row::default();
    let limit = table.name_limit();
    let mut name: Vec<&str> = Vec::new();
    let mut prev_end: Option<f32> = None;
    let mut rest = tokens;
    let mut before: Vec<(Col, &str)> = Vec::new();
    while let Some((t, tail)) = rest.split_first() {
        let Some(col) = table.column_before_name(t) else {
            break;
        };
        before.push((col, &t.text));
        rest = tail;
    }
    while let Some((t, tail)) = rest.split_first() {
        let in_column = t.x < limit - 0.3 * t.size;
        let adjacent = prev_end.is_none_or(|e| t.x - e <= 1.2 * t.size);
        if !(in_column && adjacent) {
            break;
        }
        if row.name_x.is_none() {
            row.name_x = Some(t.x);
        }
        name.push(&t.text);
        prev_end = Some(t.end_x);
        rest = tail;
    }
    if let Some(c) = row.cells.get_mut(Col::Name.index()) {
        *c = name.concat();
    }
    let mut parts: Vec<Vec<&str>> = vec![Vec::new(); COLS];
    for (col, text) in before {
        if let Some(p) = parts.get_mut(col.index()) {
            p.push(text);
        }
    }
    for t in rest {
        if let Some(col) = cell_of(table, t)
            && let Some(p) = parts.get_mut(col.index())
        {
            p.push(&t.text);
        }
    }
    for (k, p) in parts.into_iter().enumerate() {
        if k == Col::Name.index() || p.is_empty() {
            continue;
        }
        if let Some(c) = row.cells.get_mut(k) {
            *c = text::join_tokens(p);
        }
    }
    if row.amount().is_none() {
        semantic_tail(&mut row, rest);
    }
    row
}

/// Text columns (left-aligned or centred); the others hold right-aligned numbers.
fn is_text_column(col: Col) -> bool {
    matches!(col, Col::Spec | Col::Unit | Col::Plate | Col::VehicleType)
}

/// The column of a token: by its right edge (see [`Table::column_of`]), except that text
/// starting in a text column but too long for it (a long 规格型号) stays where it starts.
fn cell_of(table: &Table, t: &Token) -> Option<Col> {
    let by_end = table.column_of(t.x, t.end_x, t.size)?;
    let numeric = amount::is_number(&t.text) || amount::is_rate(&t.text) || t.text.starts_with('*');
    if numeric {
        return Some(by_end);
    }
    let by_start = table
        .columns
        .iter()
        .rfind(|c| c.col != Col::Name && c.x0 - 1.0 * t.size <= t.x)
        .map(|c| c.col);
    match by_start {
        Some(c) if is_text_column(c) => Some(c),
        _ => Some(by_end),
    }
}

/// When positions did not yield an amount, reads `amount rate tax` from the rate token.
fn semantic_tail(row: &mut Row, rest: &[Token]) {
    let Some(ri) = rest.iter().rposition(|t| amount::is_rate(&t.text)) else {
        return;
    };
    let Some(before) = ri.checked_sub(1).and_then(|i| rest.get(i)) else {
        return;
    };
    if amount::parse_cents(&before.text).is_none() {
        return;
    }
    let tax: Vec<&str> = rest.iter().skip(ri + 1).map(|t| t.text.as_str()).collect();
    let set = |row: &mut Row, col: Col, v: String| {
        if let Some(c) = row.cells.get_mut(col.index()) {
            *c = v;
        }
    };
    set(row, Col::Amount, before.text.clone());
    set(
        row,
        Col::Rate,
        rest.get(ri).map(|t| t.text.clone()).unwrap_or_default(),
    );
    set(row, Col::Tax, tax.concat());
}

/// Gathers items from every sheet's table, in order. Names wrapped over several lines are
/// joined; a name drawn above its numbers (vertically centred cells) is carried down.
pub(crate) fn items(sheets: &[Sheet]) -> Vec<LineItem> {
    let mut items: Vec<LineItem> = Vec::new();
    let mut name_left: Option<f32> = None;
    let mut pending: Option<Row> = None;
    for sheet in sheets {
        let Some(table) = find_table(sheet) else {
            continue;
        };
        let end = table.end_line.unwrap_or(sheet.lines.len());
        let limit = table.name_limit();
        for li in table.header_line + 1..end {
            let toks = tokens(sheet, li);
            if toks.is_empty() {
                continue;
            }
            let row = split_row(&table, &toks);
            if row.amount().is_some() {
                let mut row = row;
                // A name printed above its numbers belongs to this row unless the row
                // starts a name of its own (and the one above is not still open).
                if let Some(p) = pending.take()
                    && (!row.cell(Col::Name).starts_with('*') || open_category(p.cell(Col::Name)))
                {
                    merge_into(&mut row, &p, true);
                }
                if name_left.is_none() {
                    name_left = row.name_x;
                }
                items.push(to_item(&row));
                continue;
            }
            // A line without an amount continues a name (or spec) cell.
            let Some(x) = row.name_x.or_else(|| first_x(&toks)) else {
                continue;
            };
            if x >= limit {
                // Only spec-like cells: they wrap like names do.
                if let Some(last) = items.last_mut() {
                    append(&mut last.spec, row.cell(Col::Spec));
                    append(&mut last.unit, row.cell(Col::Unit));
                }
                continue;
            }
            // Stamps and stray text inside the table do not start where names start.
            let near_names =
                name_left.is_none_or(|left| (x - left).abs() <= 3.0 * first_size(&toks));
            if !near_names {
                continue;
            }
            // A line starting with `*` starts a new name, unless the name before it has not
            // closed its `*category*` yet (wrapped right after the category's first word).
            let continues = pending
                .as_ref()
                .map(|p| open_category(p.cell(Col::Name)))
                .or_else(|| items.last().map(|i| open_category(&i.name)))
                .unwrap_or(false);
            if row.cell(Col::Name).starts_with('*') && !continues {
                pending = Some(row);
            } else if let Some(p) = pending.as_mut() {
                merge_into(p, &row, false);
            } else if let Some(last) = items.last_mut() {
                last.name.push_str(&text::compact(row.cell(Col::Name)));
                append(&mut last.spec, row.cell(Col::Spec));
            } else {
                pending = Some(row);
            }
        }
    }
    // A table whose amounts could not be read still names its first item.
    if items.is_empty()
        && let Some(p) = pending
    {
        items.push(to_item(&p));
    }
    items
}

/// A name that opened its `*category*` but has not closed it.
fn open_category(name: &str) -> bool {
    name.starts_with('*') && name.matches('*').count() == 1
}

fn first_x(toks: &[Token]) -> Option<f32> {
    toks.first().map(|t| t.x)
}

fn first_size(toks: &[Token]) -> f32 {
    toks.first().map_or(9.0, |t| t.size)
}

fn append(cell: &mut String, more: &str) {
    if !more.is_empty() {
        *cell = text::join_tokens([cell.as_str(), more]);
    }
}

/// Joins `other`'s text cells to `row`'s: before them when `other` was printed above.
fn merge_into(row: &mut Row, other: &Row, other_above: bool) {
    for col in [Col::Name, Col::Spec, Col::Unit] {
        let i = col.index();
        let (Some(mine), Some(theirs)) = (row.cells.get(i).cloned(), other.cells.get(i)) else {
            continue;
        };
        let joined = if other_above {
            format!("{theirs}{mine}")
        } else {
            format!("{mine}{theirs}")
        };
        if let Some(c) = row.cells.get_mut(i) {
            *c = joined;
        }
    }
    if row.name_x.is_none() {
        row.name_x = other.name_x;
    }
}

fn to_item(row: &Row) -> LineItem {
    let money = |col: Col| {
        let raw = row.cell(col);
        amount::normalize(raw).unwrap_or_else(|| raw.to_owned())
    };
    LineItem {
        name: text::compact(row.cell(Col::Name)),
        spec: row.cell(Col::Spec).to_owned(),
        unit: row.cell(Col::Unit).to_owned(),
        quantity: row.cell(Col::Qty).to_owned(),
        unit_price: row.cell(Col::Price).to_owned(),
        amount: money(Col::Amount),
        tax_rate: row.cell(Col::Rate).to_owned(),
        tax: money(Col::Tax),
        plate: row.cell(Col::Plate).to_owned(),
        vehicle_type: row.cell(Col::VehicleType).to_owned(),
        date_from: row.cell(Col::DateFrom).to_owned(),
        date_to: row.cell(Col::DateTo).to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Run;
    use crate::geometry::tests::{run, sheet};

    /// A right-aligned number ending at `end`.
    fn num(text: &str, end: f32, y: f32) -> Run {
        Run::new(text, end - 4.5 * text.len() as f32, y, end, 9.0)
    }

    fn old_header(y: f32) -> Vec<Run> {
        vec![
            run("货物或应税劳务、服务名称", 44.0, y),
            run("规格型号", 180.0, y),
            run("单位", 227.0, y),
            run("数", 275.0, y),
            run("量", 289.0, y),
            run("单", 344.0, y),
            run("价", 357.0, y),
            run("金", 423.0, y),
            run("额", 441.0, y),
            run("税率", 484.0, y),
            run("税", 537.0, y),
            run("额", 555.0, y),
        ]
    }

    #[test]
    fn wrapped_names_and_negative_discount_lines() {
        let mut runs = old_header(155.0);
        // Item 1, name wrapped over three lines; the spec sits right of a wide gap.
        runs.push(run("*其他食品*零食", 27.0, 169.0));
        runs.push(run("豆腐", 98.0, 169.0));
        runs.push(run("臭豆腐", 178.0, 169.0));
        runs.push(num("3", 319.0, 169.0));
        runs.push(num("16.72566372", 390.0, 169.0));
        runs.push(num("50.18", 478.0, 169.0));
        runs.push(num("13%", 502.0, 169.0));
        runs.push(num("6.52", 590.0, 169.0));
        runs.push(run("香辣味零食小吃1", 27.0, 181.0));
        runs.push(run("20g", 27.0, 193.0));
        // Discount line with the same name, negative amounts.
        runs.push(run("*其他食品*零食豆腐", 27.0, 205.0));
        runs.push(num("-2.92", 478.0, 205.0));
        runs.push(num("13%", 502.0, 205.0));
        runs.push(num("-0.38", 590.0, 205.0));
        runs.push(run("合", 61.0, 265.0));
        runs.push(run("计", 101.0, 265.0));
        let items = items(&[sheet(runs)]);
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].name, "*其他食品*零食豆腐香辣味零食小吃120g");
        assert_eq!(items[0].spec, "臭豆腐");
        assert_eq!(items[0].quantity, "3");
        assert_eq!(items[0].unit_price, "16.72566372");
        assert_eq!(items[0].amount, "50.18");
        assert_eq!(items[0].tax_rate, "13%");
        assert_eq!(items[0].tax, "6.52");
        assert_eq!(items[1].name, "*其他食品*零食豆腐");
        assert_eq!(items[1].amount, "-2.92");
        assert_eq!(items[1].tax, "-0.38");
        assert_eq!(items[1].quantity, "");
    }

    #[test]
    fn label_first_drawing_order_and_exempt_lines() {
        // Values drawn first, header last: order in the stream must not matter.
        let mut runs = vec![
            run("*印刷品*月刊B", 27.0, 171.5),
            run("202112", 177.0, 171.5),
            num("1.00", 318.0, 171.5),
            num("105.00", 390.0, 171.5),
            num("105.00", 478.5, 171.5),
            run("免税", 483.0, 171.5),
            run("***", 541.0, 171.5),
        ];
        runs.extend(old_header(157.5));
        let items = items(&[sheet(runs)]);
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].name, "*印刷品*月刊B");
        assert_eq!(items[0].spec, "202112");
        assert_eq!(items[0].tax_rate, "免税");
        assert_eq!(items[0].tax, "***");
        assert_eq!(items[0].amount, "105.00");
    }

    #[test]
    fn a_spec_too_long_for_its_column_stays_a_spec() {
        let mut runs = old_header(155.0);
        runs.push(run("*日用品*水杯", 27.0, 169.0));
        runs.push(run("XL-500ml/不锈钢保温型号", 178.0, 169.0));
        runs.push(run("*日用品*水壶", 27.0, 181.0));
        runs.push(run("XL-500ml/保温", 178.0, 181.0));
        runs.push(num("10.00", 478.0, 181.0));
        runs.push(num("13%", 502.0, 181.0));
        runs.push(num("1.30", 590.0, 181.0));
        runs.push(num("1", 319.0, 169.0));
        runs.push(num("10.00", 478.0, 169.0));
        runs.push(num("13%", 502.0, 169.0));
        runs.push(num("1.30", 590.0, 169.0));
        let items = items(&[sheet(runs)]);
        assert_eq!(items[0].spec, "XL-500ml/不锈钢保温型号");
        assert_eq!(items[0].quantity, "1");
        assert_eq!(items[0].unit, "");
        // Ending under 单位: still the spec it starts in.
        assert_eq!(items[1].spec, "XL-500ml/保温");
        assert_eq!(items[1].unit, "");
    }

    #[test]
    fn toll_columns_are_read_by_position() {
        let runs = vec![
            run("项目名称", 68.0, 156.0),
            run("车牌号", 181.0, 156.0),
            run("类型", 250.0, 156.0),
            run("通行日期起", 282.0, 156.0),
            run("通行日期止", 338.0, 156.0),
            run("金", 417.0, 156.0),
            run("额", 435.0, 156.0),
            run("税率", 480.0, 156.0),
            run("税", 531.0, 156.0),
            run("额", 549.0, 156.0),
            run("*经营租赁*通行费", 24.8, 168.7),
            run("鄂", 149.8, 168.7),
            run("AHG248", 158.8, 168.7),
            run("货车", 249.3, 168.7),
            num("20180212", 324.3, 168.7),
            num("20180213", 381.3, 168.7),
            num("184.65", 469.8, 168.7),
            num("3%", 502.8, 168.7),
            num("5.54", 588.9, 168.7),
        ];
        let items = items(&[sheet(runs)]);
        assert_eq!(items.len(), 1);
        let i = &items[0];
        assert_eq!(i.name, "*经营租赁*通行费");
        assert_eq!(i.plate, "鄂AHG248");
        assert_eq!(i.vehicle_type, "货车");
        assert_eq!(i.date_from, "20180212");
        assert_eq!(i.date_to, "20180213");
        assert_eq!(i.amount, "184.65");
        assert_eq!(i.tax_rate, "3%");
        assert_eq!(i.tax, "5.54");
    }

    #[test]
    fn items_continue_across_pages() {
        let header = |y| {
            vec![
                run("项目名称", 45.0, y),
                run("规格型号", 119.0, y),
                run("单位", 190.0, y),
                run("数量", 264.0, y),
                run("单价", 335.0, y),
                run("金额", 407.0, y),
                run("税率/征收率", 446.0, y),
                run("税额", 551.0, y),
            ]
        };
        let mut p1 = header(158.0);
        p1.push(run("*文具*印章", 12.8, 168.0));
        p1.push(num("549.50", 433.7, 168.0));
        p1.push(num("1%", 476.5, 168.0));
        p1.push(num("5.50", 582.5, 168.0));
        p1.push(run("*文具*很长的名字第一", 12.8, 181.0));
        p1.push(num("99.01", 433.7, 181.0));
        p1.push(num("1%", 476.5, 181.0));
        p1.push(num("0.99", 582.5, 181.0));
        let mut p2 = header(158.0);
        p2.push(run("*餐饮服务*餐饮费", 12.8, 168.0));
        p2.push(num("1,000.00", 433.7, 168.0));
        p2.push(num("1%", 476.5, 168.0));
        p2.push(num("10.00", 582.5, 168.0));
        p2.push(run("合计", 58.0, 268.0));
        let items = items(&[sheet(p1), sheet(p2)]);
        assert_eq!(items.len(), 3);
        assert_eq!(items[2].name, "*餐饮服务*餐饮费");
        assert_eq!(items[2].amount, "1000.00");
    }

    #[test]
    fn a_name_wrapped_inside_its_category_continues() {
        let mut runs = old_header(155.0);
        runs.push(run("*餐饮服务", 27.0, 169.0));
        runs.push(num("10.00", 478.0, 169.0));
        runs.push(num("6%", 502.0, 169.0));
        runs.push(num("0.60", 590.0, 169.0));
        runs.push(run("*餐饮费", 27.0, 181.0));
        let items = items(&[sheet(runs)]);
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].name, "*餐饮服务*餐饮费");
    }

    #[test]
    fn a_category_wrapped_above_its_numbers_is_carried_down() {
        let mut runs = old_header(155.0);
        runs.push(run("*餐饮服务", 27.0, 169.0));
        runs.push(run("*餐饮费", 27.0, 181.0));
        runs.push(num("10.00", 478.0, 181.0));
        runs.push(num("6%", 502.0, 181.0));
        runs.push(num("0.60", 590.0, 181.0));
        let items = items(&[sheet(runs)]);
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].name, "*餐饮服务*餐饮费");
    }

    #[test]
    fn name_printed_above_its_numbers_is_carried_down() {
        let mut runs = old_header(155.0);
        runs.push(run("*服务*很长的名字", 27.0, 169.0));
        runs.push(run("第二行", 27.0, 181.0));
        runs.push(num("10.00", 478.0, 181.0));
        runs.push(num("6%", 502.0, 181.0));
        runs.push(num("0.60", 590.0, 181.0));
        runs.push(run("第三行", 27.0, 193.0));
        let items = items(&[sheet(runs)]);
        assert_eq!(items.len(), 1);
        assert_eq!(items[0].name, "*服务*很长的名字第二行第三行");
    }
}
