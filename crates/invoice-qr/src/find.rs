//! Finding an invoice's QR code in a PDF: which page images to try, in
//! what order, and with which reader.

use std::panic::{AssertUnwindSafe, catch_unwind};

use pdf_text::{ImageQuery, PageImage};

use crate::detect;
use crate::grid;
use crate::luma::Luma;
use crate::payload::{InvoiceQr, parse_invoice_qr};

/// QR codes are square; allow for rounding and slightly stretched scans.
const MAX_ASPECT: f32 = 1.3;
/// Drawn sizes worth trying first: a quarter inch to three inches.
const MIN_SIDE_PT: f32 = 18.0;
const MAX_SIDE_PT: f32 = 216.0;
/// Invoices print the code between half an inch and an inch and a half.
const PREFERRED_SIDE_PT: std::ops::RangeInclusive<f32> = 36.0..=108.0;
/// "Top-left area": the image's centre within this many points of the
/// page's top-left corner.
const TOP_LEFT_PT: f32 = 250.0;
/// Square images are decoded at most this many pixels a side (point
/// sampled): still 8 pixels per module for a 57-module code, and far cheaper
/// than a 1666-pixel original.
const MAX_SYMBOL_PX: usize = 480;
/// Other images (perhaps a scanned invoice) are decoded at most this many
/// pixels a side: an A4 page at 300 dpi.
const MAX_PICTURE_PX: usize = 3600;
/// Scans are searched up to an A4 page at 600 dpi (decoded reduced to
/// [`MAX_PICTURE_PX`]).
const MAX_SCAN_PIXELS: usize = 40_000_000;
/// Non-square pictures are searched only when drawn at least this large
/// (two inches a side): a scanned invoice, not a seal or a logo.
const MIN_SCAN_PT: f32 = 144.0;
/// Find and parse the invoice QR code of a PDF.
///
/// Tries, in order: square images of QR size on the first page (those
/// printed in the top-left area at 0.5–1.5 inch first), then every other
/// square image on any page, then pictures drawn at least two inches a side
/// (scans). Seals, logos and other small pictures are not searched. A QR code
/// whose text is not an invoice payload is passed over. `None` when the
/// input is not a readable PDF or no invoice QR code decodes. Never panics.
pub fn find_invoice_qr(pdf_bytes: &[u8]) -> Option<InvoiceQr> {
    catch_unwind(AssertUnwindSafe(|| find(pdf_bytes)))
        .ok()
        .flatten()
}

/// The text of a QR code in a grey image (`width * height` levels,
/// row-major, 0 black), whatever it encodes. Never panics.
pub fn read_qr_text(width: usize, height: usize, luma: &[u8]) -> Option<String> {
    catch_unwind(AssertUnwindSafe(|| {
        let luma = Luma::new(width, height, luma)?;
        grid::read(&luma).or_else(|| detect::detect(&luma).into_iter().next())
    }))
    .ok()
    .flatten()
}

fn find(pdf: &[u8]) -> Option<InvoiceQr> {
    let likely = ImageQuery {
        max_pages: 1,
        max_aspect: MAX_ASPECT,
        min_side_pt: MIN_SIDE_PT,
        max_side_pt: MAX_SIDE_PT,
        max_side: MAX_SYMBOL_PX,
        ..ImageQuery::default()
    };
    let first = pdf_text::page_images_with(pdf, &likely).ok()?;
    let mut ordered: Vec<&PageImage> = first.iter().collect();
    ordered.sort_by_key(|img| rank(img));
    if let Some(qr) = ordered.into_iter().find_map(decode_symbol) {
        return Some(qr);
    }
    // Then what the first pass did not cover: square images of any size on
    // any page, and pictures large enough to be a scanned invoice.
    let rest = ImageQuery {
        max_side: MAX_PICTURE_PX,
        max_pixels: MAX_SCAN_PIXELS,
        ..ImageQuery::default()
    };
    let more = pdf_text::page_images_where(pdf, &rest, |p| {
        let square = aspect(p.pixel_width, p.pixel_height) <= MAX_ASPECT;
        let scan = p.width_pt.min(p.height_pt) >= MIN_SCAN_PT;
        !likely.accepts(p) && (square || scan)
    })
    .ok()?;
    // Squares first: they are cheap to read.
    let (squares, pictures): (Vec<&PageImage>, Vec<&PageImage>) = more
        .iter()
        .partition(|img| aspect(img.pixel_width, img.pixel_height) <= MAX_ASPECT);
    squares.into_iter().chain(pictures).find_map(decode_symbol)
}

/// Lower is tried first: preferred size in the top-left area, preferred
/// size elsewhere, other sizes in the top-left area, the rest.
fn rank(img: &PageImage) -> u8 {
    let preferred = PREFERRED_SIDE_PT.contains(&img.width_pt.max(img.height_pt));
    let centre_x = img.x + img.width_pt / 2.0;
    let centre_y = img.y + img.height_pt / 2.0;
    let top_left = centre_x < TOP_LEFT_PT && centre_y < TOP_LEFT_PT;
    match (preferred, top_left) {
        (true, true) => 0,
        (true, false) => 1,
        (false, true) => 2,
        (false, false) => 3,
    }
}

fn aspect(width: usize, height: usize) -> f32 {
    let (w, h) = (width as f32, height as f32);
    w.max(h) / w.min(h).max(1.0)
}

/// The invoice code in an image: read straight off the grid when the image
/// is just the code, else found by rqrr's detector where finder patterns
/// show.
fn decode_symbol(img: &PageImage) -> Option<InvoiceQr> {
    let luma = Luma::new(img.pixel_width, img.pixel_height, &img.luma)?;
    if let Some(qr) = grid::read(&luma).and_then(|text| parse_invoice_qr(&text)) {
        return Some(qr);
    }
    detect::detect(&luma)
        .iter()
        .find_map(|text| parse_invoice_qr(text))
}
