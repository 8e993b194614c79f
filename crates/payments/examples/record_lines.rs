//! Runs the OCR engine over every image of a directory and writes each image's lines as
//! `<stem>.lines.json` into OUT:
//! `cargo run --release -p reimburse-payments --example record_lines -- DIR OUT`. The recorded
//! lines let the rules be tried without the engine.

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line tool"
)]

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let (Some(dir), Some(out)) = (args.first(), args.get(1)) else {
        eprintln!("usage: record_lines DIR OUT");
        return ExitCode::FAILURE;
    };
    let engine = match pp_ocr::Engine::find() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = std::fs::create_dir_all(out) {
        eprintln!("{}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        eprintln!("cannot read {}", dir.display());
        return ExitCode::FAILURE;
    };
    let mut paths: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "png" || e == "jpg"))
        .collect();
    paths.sort();
    for path in paths {
        match reimburse_payments::read_page(&engine, &path) {
            Ok(page) => {
                let stem = path.file_stem().unwrap_or_default().to_string_lossy();
                let target = out.join(format!("{stem}.lines.json"));
                let json = serde_json::to_string_pretty(&page).unwrap_or_default();
                if let Err(e) = std::fs::write(&target, json) {
                    eprintln!("{}: {e}", target.display());
                }
                println!("{}", path.display());
            }
            Err(e) => eprintln!("{}: {e}", path.display()),
        }
    }
    ExitCode::SUCCESS
}
