//! Running the OCR engine (PP-OCR, in process) on one image file: decoded within the
//! bounds of `bounded_image`, transparency composited on white.

use std::path::Path;

use image::{DynamicImage, RgbImage};

use crate::bounded_image;
use crate::error::PaymentsError;
use crate::lines::{ScreenLine, ScreenText};

/// The lines of the image at `path`.
pub fn read_page(engine: &pp_ocr::Engine, path: &Path) -> Result<ScreenText, PaymentsError> {
    let (image, _permit) = bounded_image::load(path)?;
    read_image(engine, &image)
}

/// The lines of a decoded image.
pub fn read_image(
    engine: &pp_ocr::Engine,
    image: &DynamicImage,
) -> Result<ScreenText, PaymentsError> {
    let rgb = on_white(image);
    let ocr = |e: pp_ocr::OcrError| PaymentsError::Ocr(e.to_string());
    let mut lines: Vec<ScreenLine> = engine
        .read(&rgb)
        .map_err(ocr)?
        .into_iter()
        .map(ScreenLine::from)
        .collect();
    if pp_ocr::detection_scale(rgb.width(), rgb.height()) < 1.0 {
        reread_headline(engine, &rgb, &mut lines).map_err(ocr)?;
    }
    Ok(ScreenText {
        width: rgb.width(),
        height: rgb.height(),
        lines,
    })
}

/// The tallest line that reads as an amount (the headline amount, the field that matters
/// most) read again from its row at full resolution. A reduced detection can miss glyphs of
/// a big bold amount (`-4,843.00` seen as `843.00`: a wrong amount, not an empty one); at
/// full size it sees them. The row is a thin band, so this costs little.
fn reread_headline(
    engine: &pp_ocr::Engine,
    rgb: &RgbImage,
    lines: &mut [ScreenLine],
) -> Result<(), pp_ocr::OcrError> {
    let is_amount = |l: &ScreenLine| {
        crate::amount::parse_value(&crate::text::folded_compact(&l.text)).is_some()
    };
    let Some(line) = lines
        .iter_mut()
        .filter(|l| is_amount(l))
        .max_by_key(|l| l.height())
    else {
        return Ok(());
    };
    let pad = line.height() / 2;
    let top = line.y0.saturating_sub(pad);
    let bottom = (line.y1 + pad).min(rgb.height());
    if bottom <= top {
        return Ok(());
    }
    let band = image::imageops::crop_imm(rgb, 0, top, rgb.width(), bottom - top).to_image();
    let found = engine.read_document(&band, band.width().max(band.height()))?;
    // The band's lines over the old one, left to right, when together they read as an
    // amount. Only the text changes: the box stays as the page's detection drew it, so
    // that heights still compare with the page's other lines.
    let mut over: Vec<ScreenLine> = found
        .into_iter()
        .map(|t| ScreenLine::from(t).shifted(top))
        .filter(|t| t.x0 < line.x1 && t.x1 > line.x0 && line.shares_row(t))
        .collect();
    over.sort_by_key(|t| t.x0);
    let text = over
        .iter()
        .map(|t| t.text.trim())
        .collect::<Vec<_>>()
        .join(" ");
    let reread = ScreenLine {
        text,
        ..line.clone()
    };
    if is_amount(&reread) {
        *line = reread;
    }
    Ok(())
}

/// The image as RGB with any transparency laid over white, as a phone shows it.
fn on_white(image: &DynamicImage) -> RgbImage {
    if !image.color().has_alpha() {
        return image.to_rgb8();
    }
    let rgba = image.to_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let p = rgba.get_pixel(x, y).0;
        let a = u16::from(p[3]);
        let mix = |c: u8| {
            let v = (u16::from(c) * a + 255 * (255 - a)) / 255;
            u8::try_from(v).unwrap_or(u8::MAX)
        };
        image::Rgb([mix(p[0]), mix(p[1]), mix(p[2])])
    })
}
