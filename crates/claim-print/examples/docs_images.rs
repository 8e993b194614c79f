//! `cargo xtask print-images`: the fixture package's page 1 (报销单) and its first 粘贴单 as
//! PNGs in docs/images/, for the docs. Needs poppler's `pdftoppm`.

#![allow(
    clippy::print_stdout,
    reason = "a command-line tool says what it wrote"
)]

#[path = "../benches/sample.rs"]
mod sample;

use reimburse_claim_print::{Template, render};
use std::path::Path;
use std::process::Command;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/images");
    std::fs::create_dir_all(&dir)?;
    let rendered = render(&sample::claim(6, 3), &Template::Default)?;
    let scratch = std::env::temp_dir().join(format!("claim-print-{}.pdf", std::process::id()));
    std::fs::write(&scratch, &rendered.pdf)?;
    for (page, name) in [(1, "print-claim-page1"), (2, "print-claim-sheet")] {
        let status = Command::new("pdftoppm")
            .args([
                "-png",
                "-singlefile",
                "-r",
                "70",
                "-f",
                &page.to_string(),
                "-l",
                &page.to_string(),
            ])
            .arg(&scratch)
            .arg(dir.join(name))
            .status()?;
        if !status.success() {
            return Err(format!("pdftoppm failed on page {page}").into());
        }
        println!("wrote docs/images/{name}.png");
    }
    std::fs::remove_file(&scratch)?;
    Ok(())
}
