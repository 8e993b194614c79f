//! Prints what OCR reads on screenshots, line by line, in each page mode,
//! with the record parsed from it: `cargo run --release -p payments
//! --example dump -- FILE... [--mode block|sparse|column] [--width PX] [--save X.out.png]`
//! (`--save` writes the prepared image).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use payments::ocr::{Ocr, PageMode, Tesseract};
use payments::{Prep, preprocess, screens};

fn main() -> ExitCode {
    // `RUST_LOG=payments=debug` shows the recognizer's second looks.
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = match args
        .iter()
        .position(|a| a == "--mode")
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
    {
        Some("sparse") => PageMode::Sparse,
        Some("column") => PageMode::Column,
        _ => PageMode::Block,
    };
    // Written through a handle, not `println!`: a closed pipe (`| head`)
    // ends the listing quietly instead of panicking.
    let mut out = std::io::stdout().lock();
    let ocr = Tesseract::default();
    let mut prep = Prep::default();
    if let Some(w) = args
        .iter()
        .position(|a| a == "--width")
        .and_then(|i| args.get(i + 1))
        .and_then(|w| w.parse().ok())
    {
        prep.screen_width = w;
    }
    for file in args.iter().filter(|a| {
        !a.starts_with("--")
            && !["block", "sparse", "column"].contains(&a.as_str())
            && a.parse::<u32>().is_err()
            && !a.ends_with(".out.png")
    }) {
        let image = match preprocess::load(Path::new(file)).map(|i| {
            // `--simulate W`: as a chat app forwards it (shrunk, JPEG 75).
            match args
                .iter()
                .position(|a| a == "--simulate")
                .and_then(|i| args.get(i + 1))
                .and_then(|w| w.parse::<u32>().ok())
            {
                Some(w) => payments::fixtures::chat_forwarded(&i, w).unwrap_or(i),
                None => i,
            }
        }) {
            Ok(i) => i,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        };
        let preprocess::Prepared { gray, photo, .. } = preprocess::prepare_image(&image, &prep);
        let header = writeln!(
            out,
            "== {file} ({}x{} prepared{}, {mode:?})",
            gray.width(),
            gray.height(),
            if photo { " as a photo" } else { "" },
        );
        if header.is_err() {
            return ExitCode::SUCCESS;
        }
        if let Some(save) = args
            .iter()
            .position(|a| a == "--save")
            .and_then(|i| args.get(i + 1))
            && let Err(e) = gray.save(save)
        {
            eprintln!("{save}: {e}");
        }
        let page = if photo {
            ocr.recognize_photo(&gray, mode)
        } else {
            ocr.recognize(&gray, mode)
        };
        match page {
            Ok(page) => {
                let parsed = screens::parse(file, &page);
                let listed = page
                    .lines
                    .iter()
                    .try_for_each(|l| writeln!(out, "{:>5} {:>3.0} | {}", l.top, l.conf, l.text))
                    .and_then(|()| {
                        writeln!(
                            out,
                            "-> {} {} tentative {:?}",
                            parsed.screen.name(),
                            serde_json::to_string(&parsed.record).unwrap_or_default(),
                            parsed.tentative
                        )
                    });
                if listed.is_err() {
                    return ExitCode::SUCCESS;
                }
            }
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
