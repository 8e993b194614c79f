//! Prints the record extracted from each given file as JSON:
//! `cargo run -p reimburse-extraction --example extract -- FILE...`.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut status = ExitCode::SUCCESS;
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                status = ExitCode::FAILURE;
                continue;
            }
        };
        let name = std::path::Path::new(&path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match reimburse_extraction::extract(&bytes, &name) {
            Ok(r) => match serde_json::to_string_pretty(&r) {
                Ok(json) => println!("== {path}\n{json}"),
                Err(e) => eprintln!("{path}: {e}"),
            },
            Err(e) => {
                println!("== {path}\nerror: {e}");
                status = ExitCode::FAILURE;
            }
        }
    }
    status
}
