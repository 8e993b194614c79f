//! The top-level entry point: bytes in, [`Document`] out, never panicking.

use std::panic::{AssertUnwindSafe, catch_unwind};

use lopdf::LoadOptions;

use crate::annotations;
use crate::attachments;
use crate::error::Error;
use crate::interpreter::{CONTENT_LIMIT, Context};
use crate::model::{Document, Page, TextRun};
use crate::pages;

/// Where the `%PDF-` header may start; readers accept junk before it.
const HEADER_WINDOW: usize = 1024;
/// Bound on any one stream lopdf inflates while loading (object streams).
const LOAD_LIMIT: usize = 64 << 20;

/// Parse a PDF held in memory into pages of positioned text runs plus its
/// embedded files.
///
/// Encrypted files are opened with the empty user password when that works
/// (the usual case for "protected" invoices); otherwise the result is
/// [`Error::Encrypted`]. Input without a `%PDF-` header in its first 1024
/// bytes is rejected at once with [`Error::NotPdf`]. This function does not
/// panic: a panic inside the underlying parser is caught and reported as
/// [`Error::Malformed`] (the default panic hook still prints it to stderr).
pub fn parse(bytes: &[u8]) -> Result<Document, Error> {
    guarded(bytes, parse_unguarded)
}

/// Run `f` on the input after the header check, turning a panic into
/// [`Error::Malformed`]: the shared front door of the public entry points.
pub(crate) fn guarded<T>(
    bytes: &[u8],
    f: impl FnOnce(&[u8]) -> Result<T, Error>,
) -> Result<T, Error> {
    let window = bytes.get(..HEADER_WINDOW).unwrap_or(bytes);
    if !window.windows(5).any(|w| w == b"%PDF-") {
        return Err(Error::NotPdf);
    }
    match catch_unwind(AssertUnwindSafe(|| f(bytes))) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_owned());
            Err(Error::Malformed(format!("parser panicked: {message}")))
        }
    }
}

/// Whether any of the run's glyphs can show on the page: text placed
/// outside the visible area is hidden, not printed.
fn on_page(run: &TextRun, width: f32, height: f32) -> bool {
    let (left, right) = (run.x.min(run.end_x), run.x.max(run.end_x));
    let top = run.y - 0.8 * run.font_size;
    let bottom = run.y + 0.2 * run.font_size;
    right >= 0.0 && left <= width && bottom >= 0.0 && top <= height
}

fn map_load_error(err: lopdf::Error) -> Error {
    match err {
        lopdf::Error::InvalidPassword
        | lopdf::Error::Decryption(_)
        | lopdf::Error::UnsupportedSecurityHandler(_) => Error::Encrypted,
        other => Error::Malformed(other.to_string()),
    }
}

/// Load the document, opening it with the empty password if encrypted.
pub(crate) fn load(bytes: &[u8]) -> Result<lopdf::Document, Error> {
    let options = LoadOptions {
        max_decompressed_size: Some(LOAD_LIMIT),
        ..LoadOptions::default()
    };
    let doc = lopdf::Document::load_mem_with_options(bytes, options).map_err(map_load_error)?;
    // lopdf drops /Encrypt once the empty password has decrypted the file.
    if doc.is_encrypted() {
        return Err(Error::Encrypted);
    }
    Ok(doc)
}

fn parse_unguarded(bytes: &[u8]) -> Result<Document, Error> {
    let doc = load(bytes)?;
    let page_refs = pages::collect(&doc);
    let mut ctx = Context::new(&doc);
    let pages = page_refs
        .iter()
        .map(|page| {
            let content = page.content(&doc, CONTENT_LIMIT);
            let appearances = annotations::appearances(&doc, page.dict);
            let mut runs = ctx.run_page(&content, page.resources, page.matrix(), &appearances);
            let (width, height) = page.size();
            runs.retain(|r| on_page(r, width, height));
            Page {
                width,
                height,
                runs,
            }
        })
        .collect();
    let attachments = attachments::collect(&doc, &page_refs);
    Ok(Document { pages, attachments })
}
