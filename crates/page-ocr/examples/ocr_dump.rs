//! Shows what the page OCR reads:
//! `cargo run --release -p reimburse-page-ocr --example ocr_dump -- FILE.pdf [--page]`.
//! Without `--page`, every text-layer run that is mostly U+FFFD is read again and printed
//! beside its position; with it, the whole first page is read.

#![allow(clippy::print_stdout, reason = "a command-line tool reports on stdout")]
#![allow(clippy::unwrap_used, reason = "a developer tool")]

use extraction::{PageReader, PageRef, Region};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let whole = args.iter().any(|a| a == "--page");
    let ocr = reimburse_page_ocr::PageOcr::new();
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let bytes = std::fs::read(path).unwrap();
        let doc = pdf_text::parse(&bytes).unwrap();
        for (index, page) in doc.pages.iter().enumerate() {
            let at = PageRef {
                index,
                width: page.width,
                height: page.height,
            };
            let started = std::time::Instant::now();
            if whole {
                for line in ocr.read_page(&bytes, at).unwrap() {
                    let r = line.region;
                    println!(
                        "{:7.1} {:7.1} {:5.1}  {}",
                        r.x0,
                        r.bottom,
                        r.bottom - r.top,
                        line.text
                    );
                }
            } else {
                let junk: Vec<&pdf_text::TextRun> = page
                    .runs
                    .iter()
                    .filter(|r| {
                        2 * r.text.chars().filter(|c| *c == '\u{FFFD}').count()
                            > r.text.chars().count()
                    })
                    .collect();
                let regions: Vec<Region> = junk
                    .iter()
                    .map(|r| Region {
                        x0: r.x,
                        top: r.y - 0.8 * r.font_size,
                        x1: r.end_x,
                        bottom: r.y + 0.2 * r.font_size,
                    })
                    .collect();
                let texts = ocr.read_regions(&bytes, at, &regions, "").unwrap();
                for (r, t) in junk.iter().zip(texts) {
                    println!(
                        "{:7.1} {:7.1} {:2}  {t:?}",
                        r.x,
                        r.y,
                        r.text.chars().count()
                    );
                }
            }
            println!(
                "-- page {} in {} ms",
                index + 1,
                started.elapsed().as_millis()
            );
        }
    }
}
