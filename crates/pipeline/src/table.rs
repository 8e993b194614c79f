//! The invoice table of a process run: rows in upload order, session defaults filled in.

use domain::{InvoiceRecord, InvoiceRow, SessionConfig};
use session_store::{CsvTable, SUMMARY_CSV};
use std::collections::HashMap;

/// A record's row with the person columns taken from the session configuration: 人员姓名 is
/// `default_name`; 工号 is `default_person_id`, else the finance-system `username` (which is
/// the employee number).
pub fn summary_row(record: &InvoiceRecord, seq: usize, config: &SessionConfig) -> InvoiceRow {
    record.to_row(seq).with_claimant(config)
}

/// invoice_summary.csv for the given rows.
pub fn invoice_table(rows: &[InvoiceRow]) -> CsvTable {
    let keyed: Vec<HashMap<String, String>> = rows
        .iter()
        .map(|row| {
            domain::COLUMNS
                .iter()
                .zip(row.cells())
                .map(|(column, cell)| ((*column).to_owned(), cell.to_owned()))
                .collect()
        })
        .collect();
    CsvTable::from_keyed_rows(SUMMARY_CSV, &[], &keyed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn person_columns_come_from_the_configuration() {
        let record = InvoiceRecord {
            invoice_number: "1".into(),
            ..InvoiceRecord::default()
        };
        let config = SessionConfig {
            username: "100234".into(),
            default_name: "张三".into(),
            ..SessionConfig::default()
        };
        let row = summary_row(&record, 1, &config);
        assert_eq!(row.person_name, "张三");
        assert_eq!(row.employee_id, "100234");
        let config = SessionConfig {
            default_person_id: "P9".into(),
            ..config
        };
        assert_eq!(summary_row(&record, 1, &config).employee_id, "P9");
        let table = invoice_table(&[row]);
        assert_eq!(table.rows[0][1], "1");
        assert_eq!(table.fields.len(), 13);
    }
}
