//! PDF bytes to positioned text runs, embedded files and (on request) page images.
//!
//! Built for machine-generated documents such as Chinese e-invoices, where *where* a piece of
//! text sits says what it is: the crate reads every page's content stream (and the form
//! XObjects and annotation appearances it draws), decodes the text through ToUnicode CMaps,
//! predefined CJK CMaps (Identity, `Uni*-UCS2`, `Uni*-UTF16`, GBK/GB-EUC and kin) or
//! simple-font encodings, and reports each run of text with its position and font size.
//! Embedded files (such as the XML inside railway e-tickets) come out too.
//!
//! Start from [`parse`], which gives a [`Document`]: its [`Page`]s hold [`TextRun`]s, which
//! [`Page::lines`] groups into visual [`Line`]s, and its [`Attachment`]s hold the embedded
//! files. Images drawn on the pages are decoded only on request (see Features below), so
//! [`parse`] stays text-only.
//!
//! ```
//! // A one-page PDF written by hand (no xref table: the parser rebuilds it).
//! let pdf = b"%PDF-1.4
//! 1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
//! 2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
//! 3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100]
//!   /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >> endobj
//! 4 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj
//! 5 0 obj << /Length 72 >> stream
//! BT /F1 12 Tf 72 60 Td (Invoice No 12345) Tj 0 -20 Td (Total 88.80) Tj ET
//! endstream endobj
//! trailer << /Root 1 0 R >>
//! %%EOF";
//! let doc = reimburse_pdf_text::parse(pdf)?;
//! let page = &doc.pages[0];
//! let lines: Vec<String> = page.lines().iter().map(|line| line.text()).collect();
//! assert_eq!(lines, ["Invoice No 12345", "Total 88.80"]);
//!
//! // Every run knows where it is: points from the page's top-left corner.
//! let number = page.runs.iter().find(|run| run.text == "12345").ok_or("no number")?;
//! assert_eq!((number.y, number.font_size), (40.0, 12.0));
//! assert!(number.x > 72.0 && number.end_x > number.x);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Coordinates are PDF points with the origin at the top-left of the page as displayed and `y`
//! growing downwards; see [`Page`] and [`TextRun`]. Hostile input never panics: a damaged
//! file is an [`Error`], see [`parse`].
//!
//! # Features
//!
//! `images` (on by default) decodes the images drawn on the pages (such as an invoice's QR
//! code) to 8-bit grey levels, on request. It brings the image decoders (JPEG, CCITT fax,
//! Flate image data): a program that needs only the text leaves it out with
//! `default-features = false`.
#![cfg_attr(feature = "images", doc = "")]
#![cfg_attr(
    feature = "images",
    doc = "Start from [`page_images`], [`page_images_with`] (an [`ImageQuery`]) or \
           [`page_images_where`], which give [`PageImage`]s."
)]
#![warn(missing_docs)]

mod annotations;
mod attachments;
mod cmap;
#[cfg(feature = "images")]
mod color;
mod encoding;
mod error;
mod font;
mod glyphs;
#[cfg(feature = "images")]
mod image_decode;
#[cfg(feature = "images")]
mod image_filters;
#[cfg(feature = "images")]
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
#[cfg(feature = "images")]
mod predictor;
#[cfg(feature = "images")]
mod rows;
mod tables;
mod text_string;

pub use error::Error;
#[cfg(feature = "images")]
pub use images::{ImageQuery, page_images, page_images_where, page_images_with};
pub use layout::Line;
pub use model::{Attachment, Document, Page, TextRun};
#[cfg(feature = "images")]
pub use model::{ImagePlacement, PageImage};
pub use parse::parse;
