//! OCR for invoice pages: [`PageOcr`], the
//! [`reimburse_extraction::PageReader`](extraction::PageReader) that extraction asks when
//! a PDF page has no text layer (a scan) or one that lies (glyphs without a Unicode mapping).
//!
//! A page is rendered by poppler's `pdftoppm` (a child process that reads the PDF on stdin and
//! writes a grey image on stdout, killed at a deadline), then read by PP-OCR
//! (`reimburse-pp-ocr`) in this process. Runs whose glyphs have no mapping are cut out of the
//! rendering and read with only the labels' characters allowed; extraction keeps the reading
//! that fits a label.
//!
//! ```no_run
//! // Needs pdftoppm (Debian's poppler-utils) and the PP-OCR models (`cargo xtask install`).
//! # use extraction as reimburse_extraction; // the workspace's short name for the same crate
//! use reimburse_page_ocr::PageOcr;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! PageOcr::check()?; // says what to install when something is missing
//! let ocr = PageOcr::new(); // loads the models on first use; keep one for the process
//! let bytes = std::fs::read("扫描发票.pdf")?;
//! let record = reimburse_extraction::extract_with(&bytes, "扫描发票.pdf", Some(&ocr))?;
//! println!("{} {} {}", record.invoice_number, record.seller.name, record.total_with_tax);
//! # Ok(())
//! # }
//! ```
//!
//! Start from [`PageOcr`]; [`PageOcr::check`] tells whether the renderer and the models are
//! there, and failures are [`PageOcrError`]s. [`render_page`] renders one page alone, as a
//! [`Gray`] image. The grey images pdftoppm writes are binary PGM, parsed without any tool:
//!
//! ```
//! use reimburse_page_ocr::Gray;
//!
//! let mut pgm = b"P5\n3 2\n255\n".to_vec();
//! pgm.extend([0, 128, 255, 255, 128, 0]);
//! let page = Gray::from_pgm(&pgm).ok_or("not a PGM")?;
//! assert_eq!((page.width, page.height), (3, 2));
//! assert_eq!(page.pixels[1], 128);
//! # Ok::<(), &str>(())
//! ```

#![warn(missing_docs)]

mod error;
mod gray;
mod reader;
mod render;

pub use error::PageOcrError;
pub use gray::Gray;
pub use reader::PageOcr;
pub use render::render_page;
