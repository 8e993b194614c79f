//! Drawing helpers the layouts share: labels in a layout's colour (spaced out when the style
//! asks), amounts with their currency sign, wrapped names.

use crate::invoice::{Invoice, Yen};
use crate::money::Cents;
use crate::pdf_writer::{Font, Layer, Page, Rgb, TextStyle};

/// Gap between the characters of a spaced-out label, in points: wider than 0.2 em, so text
/// extraction sees `发 票 号 码` as converters' output reads.
pub(crate) const SPACED_GAP: f32 = 2.6;

/// Draws a label (already Kangxi-mapped by the caller where wanted) and returns where it ends.
/// Spaced styles draw each character on its own, slightly smaller, with gaps between.
pub(crate) fn label(
    page: &mut Page,
    invoice: &Invoice,
    color: Rgb,
    x: f32,
    y: f32,
    size: f32,
    text: &str,
) -> f32 {
    let font = if invoice.style.unmapped_labels {
        Font::SongUnmapped
    } else {
        Font::Song
    };
    if invoice.style.spaced && text.chars().count() > 1 {
        let style = TextStyle::new(font, size - 0.6, color);
        page.text_spaced(Layer::Label, style, x, y, SPACED_GAP, text)
    } else {
        let style = TextStyle::new(font, size, color);
        page.text(Layer::Label, style, x, y, text);
        x + style.width(text)
    }
}

/// A value in the CJK font.
pub(crate) fn value(page: &mut Page, x: f32, y: f32, size: f32, text: &str) {
    page.text(
        Layer::Value,
        TextStyle::new(Font::Song, size, crate::pdf_writer::BLACK),
        x,
        y,
        text,
    );
}

/// A value in `font`, ending at `right`.
pub(crate) fn value_right(page: &mut Page, font: Font, right: f32, y: f32, size: f32, text: &str) {
    page.text_right(
        Layer::Value,
        TextStyle::new(font, size, crate::pdf_writer::BLACK),
        right,
        y,
        text,
    );
}

/// An amount with its currency sign, ending at `right`: `¥` in Helvetica at `sign_size`, `￥`
/// in the CJK font at `size`; the digits in the CJK font.
pub(crate) fn yen_amount(
    page: &mut Page,
    invoice: &Invoice,
    right: f32,
    y: f32,
    size: f32,
    sign_size: f32,
    cents: Cents,
) {
    let digits = invoice.amount_text(cents);
    let digits_style = TextStyle::new(Font::Song, size, crate::pdf_writer::BLACK);
    let start = right - digits_style.width(&digits);
    page.text(Layer::Value, digits_style, start, y, &digits);
    let sign_style = match invoice.style.yen {
        Yen::Half => TextStyle::new(Font::Helvetica, sign_size, crate::pdf_writer::BLACK),
        Yen::Full => TextStyle::new(Font::Song, size, crate::pdf_writer::BLACK),
    };
    page.text_right(Layer::Value, sign_style, start, y, invoice.style.yen.sign());
}

/// The supervising tax office's oval seal (全国统一发票监制章) centred on `center`. Its words
/// sit in the text layer, as on real files, where they interleave with the title's line.
pub(crate) fn seal(page: &mut Page, center: (f32, f32), office: &str) {
    let red = Rgb(0.86, 0.12, 0.12);
    page.ellipse(center, 36.0, 23.0, 1.2, red);
    let style = TextStyle::new(Font::Song, 7.0, red);
    // Offsets along the upper half of the oval, left to right; fixed numbers rather than
    // trigonometry, whose last bits may differ between platforms' maths libraries.
    const ARC: [(f32, f32); 9] = [
        (-32.1, 0.5),
        (-28.8, -4.8),
        (-22.3, -9.2),
        (-13.5, -12.0),
        (-3.5, -13.0),
        (6.5, -12.0),
        (15.3, -9.2),
        (21.8, -4.8),
        (25.1, 0.5),
    ];
    for (ch, (dx, dy)) in "全国统一发票监制章".chars().zip(ARC) {
        page.text(
            Layer::Graphics,
            style,
            center.0 + dx,
            center.1 + dy,
            &ch.to_string(),
        );
    }
    let centred = |text: &str| center.0 - style.width(text) / 2.0;
    page.text(
        Layer::Graphics,
        style,
        centred("国家税务总局"),
        center.1 + 5.0,
        "国家税务总局",
    );
    page.text(
        Layer::Graphics,
        style,
        centred(office),
        center.1 + 15.0,
        office,
    );
}

/// Splits `text` into lines no wider than `max` in `style`.
pub(crate) fn wrap(text: &str, style: TextStyle, max: f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for c in text.chars() {
        let mut candidate = current.clone();
        candidate.push(c);
        if style.width(&candidate) > max && !current.is_empty() {
            lines.push(std::mem::take(&mut current));
            current.push(c);
        } else {
            current = candidate;
        }
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf_writer::BLACK;

    #[test]
    fn wrap_keeps_every_character() {
        let style = TextStyle::new(Font::Song, 9.0, BLACK);
        let text = "*日用杂品*示例牌 多功能收纳箱加厚大号带盖家用整理箱";
        let lines = wrap(text, style, 97.0);
        assert!(lines.len() >= 2);
        assert!(lines.iter().all(|l| style.width(l) <= 97.0));
        assert_eq!(lines.concat(), text);
    }
}
