//! PDF bytes to positioned text runs and embedded files.
//!
//! Built for machine-generated documents such as Chinese e-invoices: it reads
//! every page's content stream (and the form XObjects it calls), decodes the
//! text through ToUnicode CMaps, predefined CJK CMaps (Identity, `Uni*-UCS2`,
//! `Uni*-UTF16`, GBK/GB-EUC and kin) or simple-font encodings, and reports
//! where each piece of text sits on the page. Embedded files (such as the XML
//! inside railway e-tickets) come out too. Images drawn on the pages (such
//! as an invoice's QR code) are decoded to grey levels only on request, by
//! [`page_images`] / [`page_images_with`], so [`parse`] stays text-only.
//!
//! ```no_run
//! let bytes = std::fs::read("invoice.pdf")?;
//! let doc = reimburse_pdf_text::parse(&bytes)?;
//! for line in doc.pages[0].lines() {
//!     println!("{:7.1} {}", line.y, line.text());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Coordinates are PDF points with the origin at the top-left of the page
//! as displayed and `y` growing downwards; see [`Page`] and [`TextRun`].
//! Hostile input never panics: see [`parse`].

mod annotations;
mod attachments;
mod cmap;
mod color;
mod encoding;
mod error;
mod font;
mod glyphs;
mod image_decode;
mod image_filters;
mod images;
mod interpreter;
mod layout;
mod lexer;
mod matrix;
mod metrics;
mod model;
mod objects;
mod pages;
mod parse;
mod predictor;
mod rows;
mod tables;
mod text_string;

pub use error::Error;
pub use images::{ImageQuery, page_images, page_images_where, page_images_with};
pub use layout::Line;
pub use model::{Attachment, Document, ImagePlacement, Page, PageImage, TextRun};
pub use parse::parse;
