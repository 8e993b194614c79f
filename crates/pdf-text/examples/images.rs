//! List the images each given PDF draws, optionally writing them out as
//! PGM files: `cargo run -p reimburse-pdf-text --example images -- [--out DIR] FILE.pdf...`.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut out_dir: Option<PathBuf> = None;
    let mut files = Vec::new();
    while let Some(arg) = args.next() {
        if arg == "--out" {
            out_dir = args.next().map(PathBuf::from);
        } else {
            files.push(arg);
        }
    }
    if files.is_empty() {
        eprintln!("usage: images [--out DIR] FILE.pdf...");
        return ExitCode::FAILURE;
    }
    for (n, path) in files.iter().enumerate() {
        let images = match std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| reimburse_pdf_text::page_images(&b).map_err(|e| e.to_string()))
        {
            Ok(images) => images,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        println!("{path}");
        for (i, img) in images.iter().enumerate() {
            println!(
                "  #{i} page {} at ({:.1}, {:.1}) {:.1}x{:.1} pt, {}x{} px",
                img.page,
                img.x,
                img.y,
                img.width_pt,
                img.height_pt,
                img.pixel_width,
                img.pixel_height
            );
            if let Some(dir) = &out_dir {
                let file = dir.join(format!("{n:03}-{i:02}.pgm"));
                if let Err(e) = write_pgm(&file, img) {
                    eprintln!("{}: {e}", file.display());
                }
            }
        }
    }
    ExitCode::SUCCESS
}

fn write_pgm(path: &Path, img: &reimburse_pdf_text::PageImage) -> std::io::Result<()> {
    let mut f = std::fs::File::create(path)?;
    write!(f, "P5\n{} {}\n255\n", img.pixel_width, img.pixel_height)?;
    f.write_all(&img.luma)
}
