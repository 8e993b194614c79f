//! Running the OCR engine (PP-OCR, in process) on one image file: decoded within the
//! bounds of `bounded_image`, transparency composited on white.

use std::path::Path;

use image::{DynamicImage, RgbImage};

use crate::bounded_image;
use crate::error::PaymentsError;
use crate::lines::{Line, Page};

/// The lines of the image at `path`.
pub fn read_page(engine: &pp_ocr::Engine, path: &Path) -> Result<Page, PaymentsError> {
    let (image, _permit) = bounded_image::load(path)?;
    read_image(engine, &image)
}

/// The lines of a decoded image.
pub fn read_image(engine: &pp_ocr::Engine, image: &DynamicImage) -> Result<Page, PaymentsError> {
    let rgb = on_white(image);
    let lines = engine
        .read(&rgb)
        .map_err(|e| PaymentsError::Ocr(e.to_string()))?;
    Ok(Page {
        width: rgb.width(),
        height: rgb.height(),
        lines: lines.into_iter().map(Line::from).collect(),
    })
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
