//! OCR for invoice pages: the [`extraction::PageReader`] the service passes to extraction.
//!
//! A page is rendered by poppler's `pdftoppm` (a child process that reads the PDF on stdin and
//! writes a grey image on stdout, killed at a deadline), then read by tesseract in this
//! process. Runs whose glyphs have no mapping are cut out of the rendering and read several
//! ways (stacked with the page's other crops, alone, and as one character when one glyph);
//! extraction keeps the reading that fits a label and that most readings agree on.

mod error;
mod gray;
mod reader;
mod render;
mod tsv;

pub use error::PageOcrError;
pub use gray::Gray;
pub use reader::PageOcr;
pub use render::render;
