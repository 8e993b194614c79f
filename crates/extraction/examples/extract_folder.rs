//! Extracts every invoice file (PDF, OFD, 数电 XML) in a folder into the 13-column invoice
//! table, written as CSV to stdout the way the service writes `invoice_summary.csv`:
//!
//! ```sh
//! cargo run -p reimburse-extraction --example extract_folder -- FOLDER > invoice_summary.csv
//! ```
//!
//! A file that cannot be read or is not an invoice prints its error on stderr and the others go
//! on; the exit status says whether any failed. Pages without a text layer (scans) need an OCR
//! engine, which this example does not pass (see `PageReader`).
//!
//! Outside this workspace, depend on `reimburse-extraction`, `reimburse-domain` and `csv`, and
//! write `reimburse_domain::` where this file writes `domain::` (the workspace's short name for
//! the same crate).

use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> Result<ExitCode, Box<dyn Error>> {
    let folder = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .ok_or("usage: extract_folder FOLDER")?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| is_invoice_file(path))
        .collect();
    files.sort();

    let mut out = std::io::stdout().lock();
    // A byte-order mark, so that spreadsheet programs read the Chinese as UTF-8.
    std::io::Write::write_all(&mut out, "\u{feff}".as_bytes())?;
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(domain::COLUMNS)?;
    let (mut rows, mut failed) = (0, 0);
    for path in &files {
        match extract_file(path) {
            Ok(record) => {
                rows += 1;
                // 序号 counts the invoices; the person and payment columns stay empty.
                let row = record.to_row(rows);
                // A cell starting like a formula (`=`, `+`, …) is kept as text.
                let cells = row
                    .cells()
                    .map(|c| domain::to_spreadsheet_cell(c).into_owned());
                csv.write_record(cells)?;
            }
            Err(error) => {
                failed += 1;
                eprintln!("{}: {error}", path.display());
            }
        }
    }
    csv.flush()?;
    eprintln!("{rows} invoices, {failed} files failed");
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Whether the file's extension is one the extractor reads.
fn is_invoice_file(path: &Path) -> bool {
    let extension = path.extension().and_then(|e| e.to_str());
    extension.is_some_and(|e| ["pdf", "ofd", "xml"].contains(&e.to_ascii_lowercase().as_str()))
}

/// The record of one file; the name lets the extractor tell formats apart when the content
/// does not.
fn extract_file(path: &Path) -> Result<domain::InvoiceRecord, Box<dyn Error>> {
    let bytes = std::fs::read(path)?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    Ok(reimburse_extraction::extract(&bytes, &name)?)
}
