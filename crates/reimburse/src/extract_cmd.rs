//! `reimburse extract FILE...`: one JSON line per file, or the 13-column CSV, for scripts.

use crate::cli::ExtractArgs;
use domain::{COLUMNS, InvoiceRow};
use serde_json::{Map, Value, json};
use std::io::Write;

/// Prints one line per file: `{file, kind, rule, row, record, flags}` or `{file, error}`.
/// Exits non-zero when any file failed, after printing every line.
pub fn run(args: &ExtractArgs) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut failures = 0usize;
    let mut rows = Vec::new();
    // Pages whose text layer is missing or lies are read by OCR, as the service does.
    let ocr = page_ocr::PageOcr::new();
    for path in &args.files {
        let shown = path.display().to_string();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let outcome = std::fs::read(path)
            .map_err(|e| format!("无法读取文件：{e}"))
            .and_then(|bytes| {
                extraction::extract_with(&bytes, &name, Some(&ocr)).map_err(|e| e.to_string())
            });
        match outcome {
            Ok(record) => {
                let class = classify::classify(&record);
                let row = record.to_row(rows.len() + 1);
                if !args.csv {
                    let line = json!({
                        "file": shown,
                        "kind": class.kind,
                        "rule": class.rule,
                        "row": row_object(&row),
                        "record": record,
                        "flags": record.flags,
                    });
                    writeln!(out, "{line}")?;
                }
                rows.push(row);
            }
            Err(error) => {
                failures += 1;
                if args.csv {
                    eprintln!("{shown}: {error}");
                } else {
                    writeln!(out, "{}", json!({"file": shown, "error": error}))?;
                }
            }
        }
    }
    if args.csv {
        write_csv(&mut out, &rows)?;
    }
    out.flush()?;
    if failures > 0 {
        anyhow::bail!("{failures} of {} files failed", args.files.len());
    }
    Ok(())
}

fn row_object(row: &InvoiceRow) -> Value {
    let map: Map<String, Value> = COLUMNS
        .iter()
        .zip(row.cells())
        .map(|(column, cell)| ((*column).to_owned(), Value::String(cell.to_owned())))
        .collect();
    Value::Object(map)
}

/// Same bytes as invoice_summary.csv: BOM, header, rows.
fn write_csv(out: &mut impl Write, rows: &[InvoiceRow]) -> anyhow::Result<()> {
    out.write_all("\u{feff}".as_bytes())?;
    let mut writer = csv::Writer::from_writer(out);
    writer.write_record(COLUMNS)?;
    for row in rows {
        // As the service writes it: a formula-like cell is text in a spreadsheet.
        writer.write_record(
            row.cells()
                .map(|c| domain::to_spreadsheet_cell(c).into_owned()),
        )?;
    }
    writer.flush()?;
    Ok(())
}
