//! Writes every fixture and its golden JSON: `cargo run -p reimburse-invoice-fixtures --example
//! generate_fixtures -- fixtures/invoices` (what `cargo xtask fixtures` runs).

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let dir = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("fixtures/invoices"), PathBuf::from);
    match reimburse_invoice_fixtures::write_all(&dir) {
        Ok(paths) => {
            eprintln!("wrote {} files to {}", paths.len(), dir.display());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("cannot write fixtures to {}: {error}", dir.display());
            ExitCode::FAILURE
        }
    }
}
