//! The ledger as a spreadsheet: one line per invoice with its claim's columns, as CSV (UTF-8
//! with a BOM, for Excel) or as a workbook.

use crate::clock;
use crate::conn::{Conn, Record};
use crate::error::{LedgerError, database};
use crate::model::{ClaimFilter, ClaimStatus};
use crate::query::{NEWEST_FIRST, Selection};
use crate::read;
use sqlx::{Database, Pool};

/// One cell of the export.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Cell {
    Text(String),
    /// Cents, shown as yuan with two decimals.
    Money(i64),
}

/// The columns, in order: header and width (in characters) in the workbook.
const COLUMNS: [(&str, f64); 17] = [
    ("报销单号", 20.0),
    ("状态", 8.0),
    ("报销类型", 10.0),
    ("工号", 10.0),
    ("报销人", 10.0),
    ("报销系统", 14.0),
    ("提交日期", 12.0),
    ("报销单金额", 12.0),
    ("发票代码", 14.0),
    ("发票号码", 22.0),
    ("开票日期", 12.0),
    ("发票金额", 12.0),
    ("销售方", 36.0),
    ("作废原因", 20.0),
    ("作废人", 10.0),
    ("作废时间", 20.0),
    ("会话", 38.0),
];

/// The export's lines for `filter` (its limit and offset count claims, not lines).
pub(crate) async fn rows<DB>(
    pool: &Pool<DB>,
    filter: &ClaimFilter,
) -> Result<Vec<Vec<Cell>>, LedgerError>
where
    DB: Database,
    DB::Connection: Conn,
{
    let mut selection = Selection::new(filter)?;
    let page = selection.page();
    let sql = format!(
        "SELECT c.claim_no, c.status, c.kind, c.staff_no, c.claimant, c.portal, c.submitted_on, \
         c.total_cents, i.invoice_code, i.invoice_number, i.invoice_date, i.amount_cents, \
         i.seller, c.void_reason, c.voided_by, c.voided_at, c.session_id \
         FROM (SELECT c.* FROM claims c WHERE {} ORDER BY {NEWEST_FIRST} {page}) c \
         JOIN claim_invoices i ON i.claim_id = c.id \
         ORDER BY {NEWEST_FIRST}, i.seq",
        selection.condition
    );
    let mut conn = pool.acquire().await.map_err(database)?;
    let rows = conn.fetch(&sql, selection.args).await.map_err(database)?;
    rows.iter()
        .map(line)
        .collect::<Result<_, _>>()
        .map_err(database)
}

fn line<R: Record>(row: &R) -> Result<Vec<Cell>, sqlx::Error> {
    let text = |i: usize| row.text(i).map(Cell::Text);
    let kind = match row.text(2)?.as_str() {
        "travel" => "差旅报销".to_owned(),
        "general" => "日常报销".to_owned(),
        other => other.to_owned(),
    };
    let status: ClaimStatus = read::status(&row.text(1)?)?;
    let voided_at = row
        .opt_text(15)?
        .map(|at| clock::china_time(&at).unwrap_or(at))
        .unwrap_or_default();
    Ok(vec![
        text(0)?,
        Cell::Text(status.label().to_owned()),
        Cell::Text(kind),
        text(3)?,
        text(4)?,
        text(5)?,
        text(6)?,
        Cell::Money(row.int(7)?),
        text(8)?,
        text(9)?,
        text(10)?,
        Cell::Money(row.int(11)?),
        text(12)?,
        Cell::Text(row.opt_text(13)?.unwrap_or_default()),
        Cell::Text(row.opt_text(14)?.unwrap_or_default()),
        Cell::Text(voided_at),
        text(16)?,
    ])
}

pub(crate) fn csv(rows: &[Vec<Cell>]) -> Result<Vec<u8>, LedgerError> {
    let headers: Vec<&str> = COLUMNS.iter().map(|(header, _)| *header).collect();
    csv_table(&headers, rows)
}

/// `rows` under `headers` as CSV in UTF-8 with a BOM; a text cell that looks like a formula
/// is written so that it stays text.
pub(crate) fn csv_table(headers: &[&str], rows: &[Vec<Cell>]) -> Result<Vec<u8>, LedgerError> {
    let export = |e: csv::Error| LedgerError::Export(e.to_string());
    let mut writer = csv::Writer::from_writer(b"\xEF\xBB\xBF".to_vec());
    writer.write_record(headers).map_err(export)?;
    for row in rows {
        let cells = row.iter().map(|cell| match cell {
            // A value that looks like a formula stays text in Excel.
            Cell::Text(text) => domain::to_spreadsheet_cell(text).into_owned(),
            Cell::Money(cents) => domain::format_cents(*cents),
        });
        writer.write_record(cells).map_err(export)?;
    }
    writer
        .into_inner()
        .map_err(|e| LedgerError::Export(e.to_string()))
}

pub(crate) fn xlsx(rows: &[Vec<Cell>]) -> Result<Vec<u8>, LedgerError> {
    use rust_xlsxwriter::{Format, FormatAlign, Workbook};
    let export = |e: rust_xlsxwriter::XlsxError| LedgerError::Export(e.to_string());
    let mut workbook = Workbook::new();
    let sheet = workbook.add_worksheet();
    sheet.set_name("报销台账").map_err(export)?;
    let bold = Format::new().set_bold().set_align(FormatAlign::Center);
    let money = Format::new().set_num_format("0.00");
    for (col, (header, width)) in (0u16..).zip(COLUMNS) {
        sheet
            .write_string_with_format(0, col, header, &bold)
            .map_err(export)?;
        sheet.set_column_width(col, width).map_err(export)?;
    }
    sheet.set_freeze_panes(1, 0).map_err(export)?;
    for (r, row) in (1u32..).zip(rows) {
        for (col, cell) in (0u16..).zip(row) {
            match cell {
                Cell::Text(text) => sheet.write_string(r, col, text),
                #[allow(
                    clippy::cast_precision_loss,
                    reason = "cents below 2^53 are exact in an f64"
                )]
                Cell::Money(cents) => {
                    sheet.write_number_with_format(r, col, *cents as f64 / 100.0, &money)
                }
            }
            .map_err(export)?;
        }
    }
    workbook.save_to_buffer().map_err(export)
}
