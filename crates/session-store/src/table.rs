//! The invoice table on disk: which CSV to read, reading it, and writing it back atomically.

use crate::{Session, StoreError, write_atomic};
use domain::{COLUMNS, from_spreadsheet_cell, to_spreadsheet_cell};
use std::collections::HashMap;
use std::fs;

/// The extraction output.
pub const SUMMARY_CSV: &str = "invoice_summary.csv";
/// The CSV files read first, in the interface's priority order.
pub const PREFERRED_CSV: [&str; 2] = ["payment_records.csv", SUMMARY_CSV];

/// Excel on Chinese Windows reads a CSV without a BOM as GBK and garbles it, so every CSV we
/// write starts with the UTF-8 BOM; readers strip it.
const BOM: &str = "\u{feff}";

/// A CSV table: the 13 columns first, then any further columns the file had, so nothing a
/// user added by hand is lost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CsvTable {
    /// The CSV's file name in the session.
    pub file_name: String,
    /// Column names: the 13 of the interface, then any others.
    pub fields: Vec<String>,
    /// Each row has exactly one cell per field.
    pub rows: Vec<Vec<String>>,
}

impl CsvTable {
    /// Builds a table from rows keyed by column name, keeping `extra_fields` after the 13.
    pub fn from_keyed_rows(
        file_name: &str,
        extra_fields: &[String],
        rows: &[HashMap<String, String>],
    ) -> Self {
        let fields: Vec<String> = COLUMNS
            .iter()
            .map(|c| (*c).to_owned())
            .chain(
                extra_fields
                    .iter()
                    .filter(|f| !COLUMNS.contains(&f.as_str()))
                    .cloned(),
            )
            .collect();
        let rows = rows
            .iter()
            .map(|row| {
                fields
                    .iter()
                    .map(|f| row.get(f).cloned().unwrap_or_default())
                    .collect()
            })
            .collect();
        Self {
            file_name: file_name.to_owned(),
            fields,
            rows,
        }
    }

    /// The columns beyond the 13.
    pub fn extra_fields(&self) -> &[String] {
        self.fields.get(COLUMNS.len()..).unwrap_or_default()
    }
}

impl Session {
    /// The CSV GET /api/data reads: payment_records.csv, then invoice_summary.csv, then any
    /// other .csv (by name, for a stable choice).
    pub fn table_file_name(&self) -> Result<Option<String>, StoreError> {
        for name in PREFERRED_CSV {
            if self.existing_file(name).is_ok() {
                return Ok(Some(name.to_owned()));
            }
        }
        let entries = fs::read_dir(self.path()).map_err(StoreError::io(self.path()))?;
        let mut others: Vec<String> = entries
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| !n.starts_with('.') && n.to_ascii_lowercase().ends_with(".csv"))
            .collect();
        others.sort();
        Ok(others.into_iter().next())
    }

    /// Reads a CSV of the session into the 13 columns plus any extra ones.
    pub fn read_table(&self, name: &str) -> Result<CsvTable, StoreError> {
        let path = self.existing_file(name)?;
        let bytes = fs::read(&path).map_err(StoreError::io(&path))?;
        let csv_error = |message: String| StoreError::Csv {
            file: name.to_owned(),
            message,
        };
        let text = std::str::from_utf8(&bytes).map_err(|_| csv_error("not UTF-8".into()))?;
        let text = text.strip_prefix(BOM).unwrap_or(text);
        let mut reader = csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(text.as_bytes());
        let headers: Vec<String> = reader
            .headers()
            .map_err(|e| csv_error(e.to_string()))?
            .iter()
            .map(|h| from_spreadsheet_cell(h.trim()).to_owned())
            .collect();
        let mut keyed = Vec::new();
        for record in reader.records() {
            let record = record.map_err(|e| csv_error(e.to_string()))?;
            let row: HashMap<String, String> = headers
                .iter()
                .cloned()
                .zip(
                    record
                        .iter()
                        .map(|cell| from_spreadsheet_cell(cell).to_owned()),
                )
                .collect();
            keyed.push(row);
        }
        Ok(CsvTable::from_keyed_rows(name, &headers, &keyed))
    }

    /// Writes a table atomically, with the BOM; a cell a spreadsheet would run as a formula is
    /// written as text (see `domain::to_spreadsheet_cell`) and read back unchanged.
    pub fn write_table(&self, table: &CsvTable) -> Result<(), StoreError> {
        let path = self.file_path(&table.file_name)?;
        let csv_error = |message: String| StoreError::Csv {
            file: table.file_name.clone(),
            message,
        };
        let mut writer = csv::Writer::from_writer(BOM.as_bytes().to_vec());
        writer
            .write_record(
                table
                    .fields
                    .iter()
                    .map(|f| to_spreadsheet_cell(f).into_owned()),
            )
            .map_err(|e| csv_error(e.to_string()))?;
        for row in &table.rows {
            writer
                .write_record(
                    row.iter()
                        .map(|cell| to_spreadsheet_cell(cell).into_owned()),
                )
                .map_err(|e| csv_error(e.to_string()))?;
        }
        let bytes = writer.into_inner().map_err(|e| csv_error(e.to_string()))?;
        write_atomic(&path, &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Store, StoreOptions};

    fn session() -> (tempfile::TempDir, Session) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let session = store.create_session().unwrap();
        (dir, session)
    }

    fn row(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn round_trips_with_bom_and_extra_columns() {
        let (_dir, session) = session();
        let table = CsvTable::from_keyed_rows(
            SUMMARY_CSV,
            &["自定义".to_owned()],
            &[row(&[
                ("序号", "1"),
                ("价税合计", "1,234.00"),
                ("备注", "a\"b\nc"),
                ("自定义", "x"),
            ])],
        );
        session.write_table(&table).unwrap();
        let bytes = fs::read(session.path().join(SUMMARY_CSV)).unwrap();
        assert!(bytes.starts_with(BOM.as_bytes()));
        let back = session.read_table(SUMMARY_CSV).unwrap();
        assert_eq!(back, table);
        assert_eq!(back.extra_fields(), ["自定义"]);
    }

    #[test]
    fn formula_cells_are_text_on_disk_and_unchanged_when_read() {
        let (_dir, session) = session();
        let formula = "=cmd|' /C calc'!A0";
        let table = CsvTable::from_keyed_rows(
            SUMMARY_CSV,
            &[],
            &[row(&[
                ("项目名称", formula),
                ("价税合计", "-12.50"),
                ("备注", "@x"),
            ])],
        );
        session.write_table(&table).unwrap();
        let text = fs::read_to_string(session.path().join(SUMMARY_CSV)).unwrap();
        assert!(text.contains(",'=cmd|' /C calc'!A0,"), "{text}");
        assert!(text.contains(",-12.50,"), "{text}");
        assert!(text.contains(",'@x,"), "{text}");
        assert_eq!(session.read_table(SUMMARY_CSV).unwrap(), table);
    }

    #[test]
    fn priority_follows_the_interface() {
        let (_dir, session) = session();
        assert_eq!(session.table_file_name().unwrap(), None);
        fs::write(session.path().join("z.csv"), "序号\n1\n").unwrap();
        fs::write(session.path().join("b.csv"), "序号\n1\n").unwrap();
        assert_eq!(session.table_file_name().unwrap().as_deref(), Some("b.csv"));
        fs::write(session.path().join(SUMMARY_CSV), "序号\n").unwrap();
        assert_eq!(
            session.table_file_name().unwrap().as_deref(),
            Some(SUMMARY_CSV)
        );
        fs::write(session.path().join("payment_records.csv"), "序号\n").unwrap();
        assert_eq!(
            session.table_file_name().unwrap().as_deref(),
            Some("payment_records.csv")
        );
    }

    #[test]
    fn short_rows_are_padded_and_bad_bytes_reported() {
        let (_dir, session) = session();
        fs::write(session.path().join("a.csv"), "序号,发票号码\n1\n").unwrap();
        let table = session.read_table("a.csv").unwrap();
        assert_eq!(table.rows[0].len(), COLUMNS.len());
        assert_eq!(table.rows[0][0], "1");
        fs::write(session.path().join("bad.csv"), b"\xff\xfe\x00").unwrap();
        assert!(matches!(
            session.read_table("bad.csv"),
            Err(StoreError::Csv { .. })
        ));
    }
}
