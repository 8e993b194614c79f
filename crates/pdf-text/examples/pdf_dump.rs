//! Print each page's lines with coordinates, for working out field positions:
//! `cargo run --release -p reimburse-pdf-text --example pdf_dump -- FILE.pdf [--runs] [--attachments]`.
//!
//! Columns: x, y (baseline, from the top), font size, text. With `--runs`
//! every run of the line is listed under it with its own x..end_x.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show_runs = args.iter().any(|a| a == "--runs");
    let show_attachments = args.iter().any(|a| a == "--attachments");
    let mut status = ExitCode::SUCCESS;
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                status = ExitCode::FAILURE;
                continue;
            }
        };
        let doc = match reimburse_pdf_text::parse(&bytes) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{path}: {e}");
                status = ExitCode::FAILURE;
                continue;
            }
        };
        println!("== {path}");
        for (i, page) in doc.pages.iter().enumerate() {
            println!(
                "-- page {} ({:.1} x {:.1} pt, {} runs)",
                i + 1,
                page.width,
                page.height,
                page.runs.len()
            );
            println!("{:>7} {:>7} {:>5}  text", "x", "y", "size");
            for line in page.lines() {
                println!(
                    "{:7.1} {:7.1} {:5.1}  {}",
                    line.x(),
                    line.y,
                    line.font_size(),
                    line.text()
                );
                if show_runs {
                    for r in &line.runs {
                        println!(
                            "        {:7.1}..{:<7.1} y={:<7.1} {:4.1}  {:?}",
                            r.x, r.end_x, r.y, r.font_size, r.text
                        );
                    }
                }
            }
        }
        for a in &doc.attachments {
            println!("-- attachment {:?} ({} bytes)", a.name, a.data.len());
            if show_attachments {
                println!("{}", String::from_utf8_lossy(&a.data));
            }
        }
    }
    status
}
