//! A slip's glyphs cut out of their row to be read alone: the card
//! number's last ones, and the amount's word.
//!
//! Read with the whole row, tesseract misreads the digit before an entry
//! mode (`621700******9462 S` as `…9467 5`, `…5751 (S)` as `…5757 (S)`) at
//! every size and with every model; the last star and the four digits read
//! alone come back right. Likewise a small amount (`¥8.00` at 720 px, read
//! `3.00` in its row).

use image::GrayImage;

use crate::ocr::Line;
use crate::preprocess::on_white_margin;
use crate::text::digits_of;

/// Below this grey a pixel is ink.
const INK_LEVEL: u8 = 128;

/// Rows of text below this height are enlarged to it.
const MIN_HEIGHT: u32 = 32;

/// Glyph cells the crop keeps: the last mask star and the last four.
const TAIL_CELLS: usize = 5;

/// The crop of a slip card row's last glyph cells (see the module's
/// comment), `None` when the row shows no number of eight glyphs or more
/// set in even cells. The number's glyphs are the runs of inked columns
/// from its word's left edge on; it goes on past the word's box (a digit
/// the page left out of the word) while the next glyph starts within one
/// and a half cells of the last, and ends at a space.
pub(crate) fn last_four_crop(gray: &GrayImage, line: &Line) -> Option<GrayImage> {
    let (_, left, right) = line
        .words
        .iter()
        .filter(|(w, _, _)| number_glyphs(w) >= 8)
        .max_by_key(|(w, _, _)| number_glyphs(w))?;
    let (top, bottom) = line.number_rows.unwrap_or((line.top, line.bottom));
    let top = u32::try_from(top.max(0)).ok()?;
    let bottom = u32::try_from(bottom).ok()?.min(gray.height());
    let from = u32::try_from(*left).ok()?;
    if bottom <= top + 4 || from >= gray.width() {
        return None;
    }
    let runs = ink_runs(gray, from, top, bottom);
    let in_word = |runs: &[(u32, u32)]| {
        runs.iter()
            .take_while(|(start, _)| i64::from(*start) < i64::from(*right))
            .count()
    };
    if in_word(&runs) < 8 {
        return None;
    }
    let mut steps: Vec<u32> = runs[..in_word(&runs)]
        .windows(2)
        .map(|w| w[1].0 - w[0].0)
        .collect();
    steps.sort_unstable();
    let cell = steps[steps.len() / 2].max(1);
    // A blurred glyph's strokes may part into runs of their own (a `9` cut
    // in two on a soft photo); runs starting within half a cell are one.
    let mut glyphs: Vec<(u32, u32)> = Vec::new();
    for run in runs {
        match glyphs.last_mut() {
            Some(glyph) if (run.0 - glyph.0) * 2 < cell => glyph.1 = glyph.1.max(run.1),
            _ => glyphs.push(run),
        }
    }
    let mut number = in_word(&glyphs);
    while let (Some(next), Some(last)) = (glyphs.get(number), glyphs.get(number - 1)) {
        if (next.0 - last.0) * 2 > cell * 3 {
            break;
        }
        number += 1;
    }
    let from_glyph = number.checked_sub(TAIL_CELLS)?;
    let tail = glyphs.get(from_glyph..number)?;
    let (first, last) = (tail.first()?, tail.last()?);
    // The tail's glyphs stand a cell apart, or they are not glyphs.
    let even = tail
        .windows(2)
        .all(|w| (w[1].0 - w[0].0) * 10 >= cell * 6 && (w[1].0 - w[0].0) * 10 <= cell * 15);
    if !even {
        return None;
    }
    // The rows of the tail's own ink: a line box from another page mode
    // may reach into the next line (`退货` under `…5751 (S)`, which made
    // every reader read nothing).
    let (ink_top, ink_bottom) = ink_rows(gray, (first.0, last.1), (top, bottom))?;
    let pad = (ink_bottom - ink_top) / 4;
    // The margins stop halfway to the glyphs beside the tail.
    let before = from_glyph
        .checked_sub(1)
        .and_then(|i| glyphs.get(i))
        .map_or(0, |g| g.1 + (first.0 - g.1) / 2);
    let after = glyphs
        .get(number)
        .map_or(gray.width(), |g| last.1 + (g.0 - last.1) / 2);
    let x0 = first.0.saturating_sub(pad).max(before);
    let x1 = (last.1 + pad).min(after).min(gray.width());
    Some(cut_out(gray, (x0, x1), (ink_top, ink_bottom)))
}

/// The crop of a slip amount's word alone (the word whose digits hold
/// `digits`, the amount's), between the rows of its own ink, its paper
/// whitened, its dotted zeros painted out, small glyphs enlarged.
pub(crate) fn amount_crop(gray: &GrayImage, line: &Line, digits: &str) -> Option<GrayImage> {
    let (_, left, right) = line
        .words
        .iter()
        .find(|(w, _, _)| !digits.is_empty() && digits_of(w).contains(digits))
        .or_else(|| {
            line.words
                .iter()
                .find(|(w, _, _)| w.contains('.') && digits_of(w).len() == digits.len())
        })?;
    let (top, bottom) = line.number_rows.unwrap_or((line.top, line.bottom));
    let top = u32::try_from(top.max(0)).ok()?;
    let bottom = u32::try_from(bottom).ok()?.min(gray.height());
    let from = u32::try_from((*left).max(0)).ok()?;
    let to = u32::try_from(*right).ok()?.min(gray.width());
    if bottom <= top + 4 || to <= from + 4 {
        return None;
    }
    let (ink_top, ink_bottom) = ink_rows(gray, (from, to), (top, bottom))?;
    let pad = (ink_bottom - ink_top) / 4;
    let x0 = from.saturating_sub(pad);
    let x1 = (to + pad).min(gray.width());
    Some(cut_out(gray, (x0, x1), (ink_top, ink_bottom)))
}

/// Columns `x0..x1` of the rows of ink `ink_top..ink_bottom`, with a
/// quarter of their height above and below, made ready to be read alone.
fn cut_out(gray: &GrayImage, (x0, x1): (u32, u32), (ink_top, ink_bottom): (u32, u32)) -> GrayImage {
    let pad = (ink_bottom - ink_top) / 4;
    let y0 = ink_top.saturating_sub(pad);
    let y1 = (ink_bottom + pad).min(gray.height());
    let mut crop = image::imageops::crop_imm(gray, x0, y0, x1 - x0, y1 - y0).to_image();
    whiten_paper(&mut crop);
    // A printer's dotted `0` reads as `9` or `6` (see `dotted_zero`).
    crate::dotted_zero::paint_out_dots(&mut crop);
    // Small glyphs (a photo forwarded at 720 px, its digits 14 px high)
    // read as nothing; enlarged to 32 px they read.
    on_white_margin(&enlarged(crop, ink_bottom - ink_top))
}

/// A crop whose glyphs are `height` px high, enlarged to [`MIN_HEIGHT`]
/// when smaller.
fn enlarged(crop: GrayImage, height: u32) -> GrayImage {
    if height >= MIN_HEIGHT {
        return crop;
    }
    let factor = f64::from(MIN_HEIGHT) / f64::from(height);
    let (w, h) = (
        crate::preprocess::scaled(crop.width(), factor),
        crate::preprocess::scaled(crop.height(), factor),
    );
    image::imageops::resize(&crop, w, h, image::imageops::FilterType::Triangle)
}

/// The first and one past the last inked row of the band of ink that
/// holds the middle of rows `top..bottom` within `columns`, searched half
/// a row beyond them: the glyphs' own rows, not the line box's.
fn ink_rows(
    gray: &GrayImage,
    columns: (u32, u32),
    (top, bottom): (u32, u32),
) -> Option<(u32, u32)> {
    let inked = |y: u32| (columns.0..columns.1).any(|x| gray.get_pixel(x, y).0[0] < INK_LEVEL);
    let reach = (bottom - top) / 2;
    let (lo, hi) = (
        top.saturating_sub(reach),
        (bottom + reach).min(gray.height()),
    );
    let middle = (top + bottom) / 2;
    let start = (lo..=middle).rev().find(|&y| inked(y))?;
    let mut first = start;
    while first > lo && inked(first - 1) {
        first -= 1;
    }
    let mut end = start + 1;
    while end < hi && inked(end) {
        end += 1;
    }
    (end > first + 4).then_some((first, end))
}

/// Makes a crop's paper white: each pixel divided by the paper's grey (the
/// crop's brightest tenth), so the crop's edge leaves no step on the white
/// canvas it is set on.
fn whiten_paper(crop: &mut GrayImage) {
    let mut values: Vec<u8> = crop.pixels().map(|p| p.0[0]).collect();
    values.sort_unstable();
    let paper = u32::from(values.get(values.len() * 9 / 10).copied().unwrap_or(255)).max(1);
    for p in crop.pixels_mut() {
        let v = (u32::from(p.0[0]) * 255 / paper).min(255);
        p.0[0] = u8::try_from(v).unwrap_or(255);
    }
}

/// How many of a word's glyphs may belong to a masked card number: digits,
/// and the stars or the letters a reader makes of them.
fn number_glyphs(word: &str) -> usize {
    word.chars()
        .filter(|c| c.is_ascii_digit() || *c == '*' || c.is_ascii_alphabetic())
        .count()
}

/// The runs of inked columns between rows `top` and `bottom`, from column
/// `from` on, as `(first, one past the last)`; a one-column gap inside a
/// glyph does not part it.
fn ink_runs(gray: &GrayImage, from: u32, top: u32, bottom: u32) -> Vec<(u32, u32)> {
    let inked = |x: u32| (top..bottom).any(|y| gray.get_pixel(x, y).0[0] < INK_LEVEL);
    let mut runs: Vec<(u32, u32)> = Vec::new();
    for x in from..gray.width() {
        if !inked(x) {
            continue;
        }
        match runs.last_mut() {
            Some(run) if x <= run.1 + 1 => run.1 = x + 1,
            _ => runs.push((x, x + 1)),
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row of `glyphs` 10 px wide on a 16 px pitch from x 20, 32 px high,
    /// a space (one empty cell) before `after` more glyphs.
    fn row(glyphs: u32, after: u32) -> GrayImage {
        let mut img = GrayImage::from_pixel(20 + (glyphs + after + 2) * 16, 52, image::Luma([255]));
        let cells = (0..glyphs).chain(glyphs + 1..glyphs + 1 + after);
        for cell in cells {
            for x in 20 + cell * 16..30 + cell * 16 {
                for y in 10..42 {
                    img.put_pixel(x, y, image::Luma([0]));
                }
            }
        }
        img
    }

    fn line(word: &str, right: i32) -> Line {
        Line {
            text: word.to_owned(),
            top: 10,
            bottom: 42,
            left: 20,
            right,
            conf: 90.0,
            words: vec![(word.to_owned(), 20, right)],
            digit_conf: 90.0,
            number_rows: Some((10, 42)),
        }
    }

    #[test]
    fn the_crop_holds_the_last_five_cells_and_stops_at_a_space() {
        // Sixteen glyphs, then ` S`; the page's word box ends two glyphs
        // short of the number (a digit it left out).
        let img = row(16, 1);
        let crop = last_four_crop(&img, &line("621700******94", 20 + 14 * 16)).unwrap();
        // Five glyphs of 10 px on a 16 px pitch, 3 px of margin before (half
        // the gap to the star before) and 8 after, 20 of canvas each side.
        assert_eq!(crop.width(), 4 * 16 + 10 + 3 + 8 + 40);
        let inked_columns = (0..crop.width())
            .filter(|&x| crop.get_pixel(x, 30).0[0] < INK_LEVEL)
            .count();
        assert_eq!(inked_columns, 50, "five glyphs and not the entry mode");
    }

    #[test]
    fn small_glyphs_are_enlarged() {
        let img = row(16, 0);
        let small = preprocess_half(&img);
        let mut line = line("621700******9462", 10 + 8 * 16);
        line.words[0].1 = 10;
        line.number_rows = Some((5, 21));
        let crop = last_four_crop(&small, &line).unwrap();
        // 16 px rows made 32 px high, with their margin, in the canvas.
        assert_eq!(crop.height(), (16 + 2 * 4) * 2 + 40);
    }

    /// `img` at half its size.
    fn preprocess_half(img: &GrayImage) -> GrayImage {
        crate::preprocess::downscale(img, 0.5)
    }

    #[test]
    fn a_row_without_a_long_number_gives_no_crop() {
        let img = row(5, 0);
        assert!(last_four_crop(&img, &line("9462", 20 + 5 * 16)).is_none());
        assert!(last_four_crop(&img, &line("621700******9462", 20 + 5 * 16)).is_none());
    }

    #[test]
    fn an_amount_s_word_is_cut_out_alone_and_enlarged() {
        // A label of three glyphs, a space, then `¥8.00` as five glyphs
        // (x 84..158), 16 px high at half size.
        let img = preprocess_half(&row(3, 5));
        let mut line = line("金额: ¥8.00", 79);
        line.words = vec![("金额:".to_owned(), 10, 34), ("¥8.00".to_owned(), 42, 79)];
        line.number_rows = Some((5, 21));
        let crop = amount_crop(&img, &line, "800").unwrap();
        // The word's 37 px and 4 px of margin each side, doubled, in the
        // canvas; the label's glyphs are left out.
        assert_eq!(crop.height(), (16 + 2 * 4) * 2 + 40);
        assert_eq!(crop.width(), (37 + 2 * 4) * 2 + 40);
        // The page's amount misread (`3.00`): the word with a point and as
        // many digits is the amount's.
        assert!(amount_crop(&img, &line, "300").is_some());
        assert!(amount_crop(&img, &line, "8000").is_none());
    }
}
