//! The QR codes invoices carry: their payload text and a greyscale image of it.
//!
//! Payloads follow the national e-invoice format `01,<type>,<code>,<number>,<amount>,<date>,
//! <check code>,<hash>`: type 32 数电 普通, 31 数电 专用, 51 railway, 10 old 增值税电子普通发票
//! (toll included), 20 通用机打发票. 数电 and railway carry the 价税合计; old formats carry the
//! pre-tax 金额合计.

use crate::pdf_writer::GrayImage;
use qrcode::{Color, EcLevel, QrCode};

/// Pixels per module: enough for a decoder to read the image at its native size.
const SCALE: usize = 4;
/// Quiet zone in modules.
const QUIET: usize = 4;

/// The payload of a QR code.
pub(crate) fn payload(
    type_code: &str,
    code: &str,
    number: &str,
    amount: &str,
    date: &str,
    check: &str,
    tail: &str,
) -> String {
    format!("01,{type_code},{code},{number},{amount},{date},{check},{tail}")
}

/// A greyscale image of `text` as a QR code (EC level M), with a white quiet zone.
pub(crate) fn image(text: &str) -> Option<GrayImage> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).ok()?;
    let modules = code.width();
    let colors = code.to_colors();
    let side = (modules + 2 * QUIET) * SCALE;
    let mut pixels = vec![255_u8; side * side];
    for (index, color) in colors.iter().enumerate() {
        if *color != Color::Dark {
            continue;
        }
        let (mx, my) = (index % modules + QUIET, index / modules + QUIET);
        for dy in 0..SCALE {
            let row = (my * SCALE + dy) * side;
            for dx in 0..SCALE {
                if let Some(p) = pixels.get_mut(row + mx * SCALE + dx) {
                    *p = 0;
                }
            }
        }
    }
    let side = u32::try_from(side).ok()?;
    Some(GrayImage {
        width: side,
        height: side,
        pixels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_shape() {
        assert_eq!(
            payload(
                "32",
                "",
                "25330000000000000001",
                "146.00",
                "20250219",
                "",
                "9A1F"
            ),
            "01,32,,25330000000000000001,146.00,20250219,,9A1F"
        );
    }

    #[test]
    fn image_has_quiet_zone_and_dark_modules() {
        let image = image("01,32,,25330000000000000001,146.00,20250219,,9A1F").unwrap();
        assert_eq!(image.width, image.height);
        assert_eq!(image.pixels.len(), (image.width * image.height) as usize);
        assert!(
            image.pixels[..(image.width as usize) * QUIET * SCALE]
                .iter()
                .all(|&p| p == 255)
        );
        assert!(image.pixels.contains(&0));
    }
}
