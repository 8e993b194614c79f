//! The seller named only in its seal: some receipts leave 收款单位 blank and print the payee
//! in the round seal image. The ring of text is unrolled into a straight strip (polar to
//! rectangular) and read as one line by the caller's OCR; the name is flagged as coming from
//! the seal alone.

use crate::ocr::{LineImage, PageReader};
use crate::text;

/// Seals are drawn 1.5–6 cm across.
const DRAWN_PT: std::ops::RangeInclusive<f32> = 40.0..=180.0;
/// Enough pixels for the ring's characters to be read.
const MIN_PX: usize = 120;
/// Share of dark samples on the seal's outer circle.
const RING_DARK: f32 = 0.8;
/// Bands of text inside the ring (outer, inner edge as fractions of the ring's radius): the
/// ring is read in each, and the readings vote character by character, since unrolling
/// distorts glyphs differently at each band and one reading often misses a character.
const BANDS: [(f32, f32); 3] = [(0.93, 0.60), (0.94, 0.64), (0.92, 0.66)];
/// What a seal says besides the name.
const SEAL_WORDS: &[&str] = &["发票专用章", "财务专用章", "专用章", "公章"];

/// The name in the first seal image of the document that reads as one.
pub(crate) fn name_in_seal(pdf: &[u8], reader: &dyn PageReader) -> Option<String> {
    let query = pdf_text::ImageQuery::default();
    let images = pdf_text::page_images_where(pdf, &query, |p| {
        let (w, h) = (p.width_pt, p.height_pt);
        DRAWN_PT.contains(&w) && DRAWN_PT.contains(&h) && (w / h - 1.0).abs() < 0.2
    })
    .ok()?;
    images.iter().find_map(|image| {
        let readings: Vec<String> = BANDS
            .iter()
            .filter_map(|band| unroll(image, *band))
            .filter_map(|strip| reader.read_line(&strip).ok())
            .filter_map(|read| name_of(&read))
            .collect();
        vote(&readings)
    })
}

/// The readings of the most common length, merged by majority character by character (the
/// first reading wins a tie); `None` without readings.
fn vote(readings: &[String]) -> Option<String> {
    let lengths: Vec<usize> = readings.iter().map(|r| r.chars().count()).collect();
    let length = *lengths
        .iter()
        .max_by_key(|l| (lengths.iter().filter(|m| m == l).count(), usize::MAX - **l))?;
    let same: Vec<Vec<char>> = readings
        .iter()
        .map(|r| r.chars().collect::<Vec<char>>())
        .filter(|r| r.len() == length)
        .collect();
    let merged = (0..length)
        .map(|i| {
            let column: Vec<char> = same.iter().filter_map(|r| r.get(i).copied()).collect();
            column
                .iter()
                .copied()
                .max_by_key(|c| {
                    let votes = column.iter().filter(|d| *d == c).count();
                    let first = column.iter().position(|d| d == c).unwrap_or(usize::MAX);
                    (votes, usize::MAX - first)
                })
                .unwrap_or(' ')
        })
        .collect();
    Some(merged)
}

/// The ring of text unrolled clockwise from the bottom, outer edge on top; `None` unless the
/// image is a seal (a dark circle near its edge).
fn unroll(image: &pdf_text::PageImage, band: (f32, f32)) -> Option<LineImage> {
    let (w, h) = (image.pixel_width, image.pixel_height);
    if w.min(h) < MIN_PX {
        return None;
    }
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let ring = ring_radius(image, cx, cy)?;
    let (outer, inner) = (band.0 * ring, band.1 * ring);
    let height = (outer - inner).round() as usize;
    let width = (std::f32::consts::TAU * (outer + inner) / 2.0).round() as usize;
    let mut pixels = Vec::with_capacity(width * height);
    for j in 0..height {
        let r = outer - j as f32;
        for k in 0..width {
            let phi = -std::f32::consts::PI + std::f32::consts::TAU * k as f32 / width as f32;
            pixels.push(sample(image, cx + r * phi.sin(), cy - r * phi.cos()));
        }
    }
    Some(LineImage {
        width: u32::try_from(width).ok()?,
        height: u32::try_from(height).ok()?,
        pixels,
    })
}

/// Bilinear sample, so that the unrolled strokes stay smooth.
fn sample(image: &pdf_text::PageImage, x: f32, y: f32) -> u8 {
    let (x0, y0) = (x.floor(), y.floor());
    let (fx, fy) = (x - x0, y - y0);
    let at = |dx: f32, dy: f32| f32::from(luma_at(image, x0 + dx, y0 + dy));
    let top = at(0.0, 0.0) * (1.0 - fx) + at(1.0, 0.0) * fx;
    let bottom = at(0.0, 1.0) * (1.0 - fx) + at(1.0, 1.0) * fx;
    (top * (1.0 - fy) + bottom * fy).round().clamp(0.0, 255.0) as u8
}

fn luma_at(image: &pdf_text::PageImage, x: f32, y: f32) -> u8 {
    if x < 0.0 || y < 0.0 {
        return 255;
    }
    let (x, y) = (x as usize, y as usize);
    if x >= image.pixel_width || y >= image.pixel_height {
        return 255;
    }
    image
        .luma
        .get(y * image.pixel_width + x)
        .copied()
        .unwrap_or(255)
}

/// The radius of the darkest circle in the outer fifth of the image, if dark enough to be a
/// seal's ring.
fn ring_radius(image: &pdf_text::PageImage, cx: f32, cy: f32) -> Option<f32> {
    let max = cx.min(cy);
    let dark_share = |r: f32| {
        let n = 360;
        let dark = (0..n)
            .filter(|k| {
                let a = std::f32::consts::TAU * *k as f32 / n as f32;
                luma_at(image, cx + r * a.sin(), cy - r * a.cos()) < 128
            })
            .count();
        dark as f32 / n as f32
    };
    let (best, share) = (0..40)
        .map(|k| max * (0.8 + 0.2 * k as f32 / 40.0))
        .map(|r| (r, dark_share(r)))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (share >= RING_DARK).then_some(best)
}

/// The name in what OCR read: ideographs and brackets, without the seal's own words; at
/// least four characters.
fn name_of(read: &str) -> Option<String> {
    let mut name: String = text::normalize(read)
        .chars()
        .filter(|c| is_ideograph(*c) || matches!(c, '(' | ')'))
        .collect();
    for word in SEAL_WORDS {
        if let Some(stripped) = name.strip_suffix(word) {
            name = stripped.to_owned();
        }
    }
    // A name never opens with a bracket, nor ends with an unpaired one: the ring's edge.
    let mut name = name
        .trim_start_matches(['(', ')'])
        .trim_end_matches('(')
        .to_owned();
    if name.ends_with(')') && name.matches('(').count() < name.matches(')').count() {
        name.pop();
    }
    (name.chars().filter(|c| is_ideograph(*c)).count() >= 4).then_some(name)
}

/// CJK ideographs, without the CJK punctuation block.
fn is_ideograph(c: char) -> bool {
    text::is_cjk(c) && !('\u{3000}'..='\u{303F}').contains(&c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disc(size: usize) -> pdf_text::PageImage {
        let c = size as f32 / 2.0;
        let luma = (0..size * size)
            .map(|i| {
                let (x, y) = ((i % size) as f32 + 0.5 - c, (i / size) as f32 + 0.5 - c);
                let r = (x * x + y * y).sqrt();
                if (r - 0.95 * c).abs() < 3.0 { 0 } else { 255 }
            })
            .collect();
        pdf_text::PageImage {
            page: 0,
            x: 0.0,
            y: 0.0,
            width_pt: 70.0,
            height_pt: 70.0,
            pixel_width: size,
            pixel_height: size,
            luma,
        }
    }

    #[test]
    fn a_ring_is_found_and_unrolled() {
        let image = disc(400);
        let ring = ring_radius(&image, 200.0, 200.0).unwrap();
        assert!((ring - 190.0).abs() < 4.0, "{ring}");
        let strip = unroll(&image, BANDS[0]).unwrap();
        assert_eq!(strip.pixels.len(), (strip.width * strip.height) as usize);
        assert!(
            strip.width > 900 && strip.height > 55,
            "{}x{}",
            strip.width,
            strip.height
        );
    }

    #[test]
    fn a_blank_image_is_no_seal() {
        let mut image = disc(400);
        image.luma.iter_mut().for_each(|p| *p = 255);
        assert!(unroll(&image, BANDS[0]).is_none());
    }

    #[test]
    fn readings_vote_character_by_character() {
        let r = |s: &[&str]| vote(&s.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>());
        assert_eq!(
            r(&["江苏省高速公路", "江起省高速公路", "江苏省高速入路"]).as_deref(),
            Some("江苏省高速公路")
        );
        assert_eq!(
            r(&["某某公司", "某某有限公司", "某某有限公司"]).as_deref(),
            Some("某某有限公司")
        );
        assert_eq!(r(&[]), None);
    }

    #[test]
    fn the_name_without_the_seal_words() {
        assert_eq!(
            name_of("江苏省高速公路经营管理中心 财务专用章").as_deref(),
            Some("江苏省高速公路经营管理中心")
        );
        assert_eq!(name_of("|| 中心 ."), None);
        assert_eq!(
            name_of("(江苏省高速公路经营管理中心").as_deref(),
            Some("江苏省高速公路经营管理中心")
        );
        assert_eq!(
            name_of("某某(北京)有限公司)").as_deref(),
            Some("某某(北京)有限公司")
        );
        assert_eq!(name_of("某某公司中心。").as_deref(), Some("某某公司中心"));
    }
}
