//! OCR for invoice pages: the [`extraction::PageReader`] the service passes to extraction.
//!
//! A page is rendered by poppler's `pdftoppm` (a child process that reads the PDF on stdin and
//! writes a grey image on stdout, killed at a deadline), then read by PP-OCR (`pp-ocr`) in
//! this process. Runs whose glyphs have no mapping are cut out of the rendering and read with
//! only the labels' characters allowed; extraction keeps the reading that fits a label.

mod error;
mod gray;
mod reader;
mod render;

pub use error::PageOcrError;
pub use gray::Gray;
pub use reader::PageOcr;
pub use render::render_page;
