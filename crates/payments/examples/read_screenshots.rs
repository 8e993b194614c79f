//! Reads every image in a folder with the offline OCR and prints what each payment screenshot
//! says: amount, date and time, card tail, channel and payee, then each field's value with
//! the rule that decided it (or why it stayed empty). Screens that show no payment (a chat, a
//! payment code, a confirm-to-pay page) say so, with the rule that decided that.
//!
//! ```sh
//! cargo run --release -p reimburse-payments --example read_screenshots -- FOLDER [MODELS]
//! ```
//!
//! The PP-OCR models (`det.onnx`, `rec.onnx` and `libonnxruntime.so` in one folder) are read
//! from MODELS when it is given; else from the folder in the environment variable
//! `REIMBURSE_MODELS`; else from `models/pp-ocr` in the working directory or one of its
//! ancestors, where `cargo xtask install` puts them in this workspace. Try it on the
//! project's synthetic screenshots: `... -- fixtures/screenshots`.
//!
//! Outside this workspace, depend on `reimburse-payments` alone; this file is written as such
//! a program would be.

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a command-line program"
)]

use reimburse_payments::{Recognition, Recognizer};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> Result<ExitCode, Box<dyn Error>> {
    let mut args = std::env::args_os().skip(1).map(PathBuf::from);
    let folder = args
        .next()
        .ok_or("usage: read_screenshots FOLDER [MODELS]")?;
    // One recognizer for the whole run: loading the models takes a moment, and it reads any
    // number of images (clones share the models, for other threads).
    let recognizer = match args.next() {
        Some(models) => Recognizer::load(&models)?,
        None => Recognizer::find()?,
    };

    let mut images: Vec<PathBuf> = std::fs::read_dir(&folder)?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| is_image(path))
        .collect();
    images.sort();

    let mut failed = false;
    for path in &images {
        match recognizer.recognize_file(path) {
            Ok(got) => print(&got),
            Err(error) => {
                // An image that cannot be read at all; the others go on.
                eprintln!("{error}");
                failed = true;
            }
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn is_image(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        ["png", "jpg", "jpeg", "webp"]
            .iter()
            .any(|known| e.eq_ignore_ascii_case(known))
    })
}

fn print(got: &Recognition) {
    let record = &got.record;
    if record.no_payment {
        println!("{}: no payment ({})\n", record.file, got.screen_rule);
        return;
    }
    println!(
        "{}: {} ({})",
        record.file,
        got.screen.name(),
        got.screen_rule
    );
    let or_dash = |value: &str| {
        if value.is_empty() {
            "-".to_owned()
        } else {
            value.to_owned()
        }
    };
    println!(
        "  ¥{} on {} {}, card {}, {}, to {}{}",
        or_dash(&record.amount),
        or_dash(&record.date),
        record.time,
        or_dash(&record.card_last4),
        or_dash(&record.channel),
        or_dash(&record.merchant),
        if record.status.is_empty() {
            String::new()
        } else {
            format!(" ({})", record.status)
        },
    );
    // Every field with the rule that decided it; a field left empty says why, and the key ones
    // are listed in `unreadable` for a person to supply: a value is never guessed.
    for decided in &got.decided {
        if decided.value.is_empty() && decided.rule.is_empty() {
            continue;
        }
        println!(
            "  {:<11} {} [{}]",
            decided.field.name(),
            or_dash(&decided.value),
            or_dash(&decided.rule)
        );
    }
    if !record.unreadable.is_empty() {
        println!("  not read: {}", record.unreadable.join(", "));
    }
    println!();
}
