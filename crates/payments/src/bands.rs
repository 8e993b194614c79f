//! Bands of text on a prepared screenshot: rows that hold text cut into
//! lines and pieces, and big lines (a headline amount) shrunk to about the
//! body size, with what they were kept for the re-read.

use image::GrayImage;

use crate::preprocess::{BigLine, downscale, mode_of, row_samples};

/// A horizontal band of rows that hold text (or an icon).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Band {
    pub top: u32,
    /// Exclusive.
    pub bottom: u32,
    pub left: u32,
    /// Exclusive.
    pub right: u32,
    /// The band's background value.
    pub background: u8,
}

impl Band {
    /// The band of a line box the page's OCR read, on the background of
    /// the row just above it (a coloured card's, where the line is on one).
    pub fn around(gray: &GrayImage, top: u32, bottom: u32, left: u32, right: u32) -> Option<Self> {
        let right = right.min(gray.width());
        let bottom = bottom.min(gray.height());
        if left >= right || top >= bottom {
            return None;
        }
        let above = top.saturating_sub(2);
        let background = mode_of((left..right).map(|x| gray.get_pixel(x, above).0[0])).0;
        Some(Self {
            top,
            bottom,
            left,
            right,
            background,
        })
    }

    pub fn height(&self) -> u32 {
        self.bottom - self.top
    }
}

/// Most common value of a row (its background), from a sample.
fn row_background(gray: &GrayImage, y: u32) -> u8 {
    mode_of(row_samples(gray, y)).0
}

/// A copy of the page with ink runs that start at its left or right edge,
/// up to a tenth of the width, painted with their row's background: a
/// coloured header's sides beside a sheet over it, evened out into dark
/// bars down both edges, join every row beside them into one band too high
/// for a line (a headline amount between them was never cut out alone).
/// Text keeps a margin from the edge.
pub fn edge_bars_cleared(gray: &GrayImage) -> GrayImage {
    let (w, h) = gray.dimensions();
    let widest = w / 10;
    let mut out = gray.clone();
    for y in 0..h {
        let bg = row_background(gray, y);
        let ink = |x: u32| gray.get_pixel(x, y).0[0].abs_diff(bg) > 60;
        let run = |xs: &mut dyn Iterator<Item = u32>| {
            let n = xs.take_while(|&x| ink(x)).count();
            u32::try_from(n).unwrap_or(u32::MAX)
        };
        let (left, right) = (run(&mut (0..w)), run(&mut (0..w).rev()));
        let left = if left <= widest { left } else { 0 };
        let right = if right <= widest { right } else { 0 };
        for x in (0..left).chain(w - right..w) {
            out.put_pixel(x, y, image::Luma([bg]));
        }
    }
    out
}

/// Splits the page into bands of rows that differ from their background,
/// separated by plain rows.
pub fn text_bands(gray: &GrayImage) -> Vec<Band> {
    let (w, h) = gray.dimensions();
    let mut bands = Vec::new();
    let mut current: Option<Band> = None;
    for y in 0..h {
        let bg = row_background(gray, y);
        let (mut left, mut right, mut ink) = (w, 0, 0u32);
        for x in 0..w {
            let p = gray.get_pixel(x, y).0[0];
            if p.abs_diff(bg) > 60 {
                ink += 1;
                left = left.min(x);
                right = right.max(x + 1);
            }
        }
        // A full-width rule or an edge of a coloured panel is no text.
        let is_text = ink >= 2 && ink * 10 < w * 9;
        match (&mut current, is_text) {
            (Some(b), true) => {
                b.bottom = y + 1;
                b.left = b.left.min(left);
                b.right = b.right.max(right);
            }
            (None, true) => {
                current = Some(Band {
                    top: y,
                    bottom: y + 1,
                    left,
                    right,
                    background: bg,
                });
            }
            (Some(_), false) => {
                if let Some(b) = current.take() {
                    bands.push(b);
                }
            }
            (None, false) => {}
        }
    }
    bands.extend(current);
    bands.retain(|b| b.height() >= 4 && b.right > b.left);
    bands
}

/// Shrinks lines much taller than the body text (headline amounts, big
/// titles) in place, centred where they were. A tall band may be several
/// things side by side (a logo circle beside a payee's name over the
/// amount): it is cut into column segments at blank gaps, and each segment
/// into its own lines, so that only the big line itself is shrunk, by its
/// own height.
pub(crate) fn shrink_big_bands(gray: &mut GrayImage) -> Vec<BigLine> {
    let mut shrunk = Vec::new();
    let bands = text_bands(gray);
    let mut heights: Vec<u32> = bands.iter().map(Band::height).filter(|&h| h >= 8).collect();
    heights.sort_unstable();
    // A phone's body text is ~3.5% of the screen's width; the cap, 4.5%,
    // leaves room for large-text modes. A sparse page (a 支付成功 page:
    // title beside its tick, payee, amount, a method row, a button) has
    // too few lines for their median to be the body's: there the lower
    // third is.
    let phone_body = (gray.width() * 45 / 1000).max(8);
    let typical = if heights.len() < 8 {
        heights.len() / 3
    } else {
        heights.len() / 2
    };
    let body = heights
        .get(typical)
        .filter(|_| heights.len() >= 4)
        .map_or(phone_body, |&h| h.min(phone_body));
    let is_big = |h: u32| h * 10 >= body * 15;
    for band in bands {
        if !is_big(band.height()) {
            continue;
        }
        // Wide bands of that height are pictures or panels, not a line.
        if band.right - band.left > gray.width() * 95 / 100 {
            continue;
        }
        let (big, small): (Vec<Band>, Vec<Band>) = band_pieces(gray, &band, (body / 2).max(4))
            .into_iter()
            .map(|(line, (left, right))| Band {
                // The segment's own edges: within the segment a line's
                // edges are judged against the segment's background.
                left,
                right,
                ..line
            })
            .partition(|line| is_big(line.height()));
        for rect in join_glyph_pieces(big) {
            for sign in signs_beside(&rect, &small, body) {
                fill(gray, &sign, rect.background);
            }
            shrunk.push(big_line(gray, rect));
            shrink_in_place(
                gray,
                &rect,
                f64::from(body) * 1.25 / f64::from(rect.height()),
            );
        }
    }
    shrunk
}

/// Joins big pieces that are one line cut at wide gaps (a hairline font's
/// headline digits stand far apart, each its own segment): side by side,
/// of about the same height and on the same rows. Shrunk apart, each would
/// be centred on its own, the gaps stay wide and the decimal point, too
/// small to count as big, is left behind on the old baseline.
fn join_glyph_pieces(mut pieces: Vec<Band>) -> Vec<Band> {
    pieces.sort_by_key(|p| (p.left, p.top));
    let mut out: Vec<Band> = Vec::new();
    for p in pieces {
        if let Some(last) = out.last_mut() {
            let overlap = last
                .bottom
                .min(p.bottom)
                .saturating_sub(last.top.max(p.top));
            let (short, tall) = (last.height().min(p.height()), last.height().max(p.height()));
            // Or a piece at least half as tall, wholly on the other's rows
            // and level with its top: a hairline `4` whose thin stem did not
            // count as ink is only its top (a logo beside a name over an
            // amount is level with neither).
            let level_top = last.top.abs_diff(p.top) * 10 <= tall;
            let same_line = (overlap * 10 >= tall * 6 && short * 10 >= tall * 7)
                || (overlap == short && short * 2 >= tall && level_top);
            if same_line && p.left >= last.right {
                last.top = last.top.min(p.top);
                last.bottom = last.bottom.max(p.bottom);
                last.right = p.right;
                continue;
            }
        }
        out.push(p);
    }
    out
}

/// A big line's rectangle and its pixels before it is shrunk, with a
/// margin of a quarter of its height above and below and an eighth on
/// either side (a small `元` after the amount stays out).
fn big_line(gray: &GrayImage, rect: Band) -> BigLine {
    let margin = rect.height() / 4;
    let side = rect.height() / 8;
    let left = rect.left.saturating_sub(side);
    let top = rect.top.saturating_sub(margin);
    let right = (rect.right + side).min(gray.width());
    let bottom = (rect.bottom + margin).min(gray.height());
    let pixels = image::imageops::crop_imm(gray, left, top, right - left, bottom - top).to_image();
    BigLine { rect, pixels }
}

/// The single glyphs standing beside a big line on its rows, at most three
/// body heights off: a small `¥` before a headline amount, a `+` set apart
/// by a wide gap, a `元` after it. The big line shrunk and centred, such a
/// sign would be left far off on the old baseline, where OCR reads it as an
/// ideograph (`闻 105.72`, `路 364.00`); so it is erased, and the amount
/// stands alone as a headline does (a refund is told by its status words,
/// not by the sign).
fn signs_beside(rect: &Band, small: &[Band], body: u32) -> Vec<Band> {
    let near = body * 3;
    // A `+` whose bar spans its whole segment is cut there into two
    // pieces (a row of ink from edge to edge passes for a rule): pieces of
    // one segment are one glyph again.
    let mut glyphs: Vec<Band> = Vec::new();
    for s in small {
        match glyphs
            .iter_mut()
            .find(|g| g.left == s.left && g.right == s.right)
        {
            Some(g) => {
                g.top = g.top.min(s.top);
                g.bottom = g.bottom.max(s.bottom);
            }
            None => glyphs.push(*s),
        }
    }
    glyphs
        .into_iter()
        .filter(|s| {
            let on_rows = s.top >= rect.top && s.bottom <= rect.bottom;
            let one_glyph = s.right - s.left <= body * 2;
            // A minus or plus sign is flat or short; a currency sign is
            // about half the digits' height.
            let tall = s.height() * 10 >= rect.height() * 4;
            let beside = (s.right <= rect.left && rect.left - s.right <= near)
                || (s.left >= rect.right && s.left - rect.right <= near);
            on_rows && one_glyph && tall && beside
        })
        .collect()
}

/// The page's lines of text one by one: each band cut into column
/// segments at blank gaps wider than `gap`, and each segment into its own
/// lines (a logo spanning two lines joins them into one band; beside it,
/// they part again).
pub fn text_pieces(gray: &GrayImage, gap: u32) -> Vec<Band> {
    text_bands(gray)
        .iter()
        .flat_map(|band| band_pieces(gray, band, gap))
        .map(|(line, _)| line)
        .collect()
}

/// The lines of a piece beside a leading icon (a bank's square badge
/// beside its name over the card number, which joins the two lines into
/// one piece); the piece itself when it has no such icon or one line.
pub fn lines_beside_icon(gray: &GrayImage, piece: &Band) -> Vec<Band> {
    let segments = column_segments(gray, piece, (piece.height() / 10).max(4));
    let icon = match segments.as_slice() {
        [(left, right), (next, _), ..] if right - left <= piece.height() * 13 / 10 => Some(*next),
        _ => None,
    };
    let Some(left) = icon else {
        return vec![*piece];
    };
    let lines = lines_between(gray, piece, left, piece.right);
    if lines.len() >= 2 {
        lines
    } else {
        vec![*piece]
    }
}

/// Pieces of one line that wide gaps parted, joined again: a piece joins
/// the one left of it when their rows overlap by half the shorter one's
/// height and the blank between them is at most twice the taller one's
/// (`6200   ****   ****   1906` in big monospaced type, whose gaps exceed
/// the width that parts a page's columns). Columns stand further apart.
pub fn join_parted_words(mut pieces: Vec<Band>) -> Vec<Band> {
    pieces.sort_by_key(|p| p.left);
    let mut joined: Vec<Band> = Vec::new();
    for piece in pieces {
        let neighbour = joined.iter_mut().find(|j| {
            let overlap = j
                .bottom
                .min(piece.bottom)
                .saturating_sub(j.top.max(piece.top));
            let shorter = j.height().min(piece.height());
            let gap = piece.left.saturating_sub(j.right);
            overlap * 2 >= shorter && gap <= 2 * j.height().max(piece.height())
        });
        match neighbour {
            Some(j) => {
                j.top = j.top.min(piece.top);
                j.bottom = j.bottom.max(piece.bottom);
                j.right = j.right.max(piece.right);
            }
            None => joined.push(piece),
        }
    }
    joined.sort_by_key(|b| (b.top, b.left));
    joined
}

/// The lines of one band, segment by segment (see [`text_pieces`]), each
/// with its segment's left and right edges.
fn band_pieces(gray: &GrayImage, band: &Band, gap: u32) -> Vec<(Band, (u32, u32))> {
    column_segments(gray, band, gap)
        .into_iter()
        .flat_map(|(left, right)| {
            lines_between(gray, band, left, right)
                .into_iter()
                .map(move |line| (line, (left, right)))
        })
        .collect()
}

/// The lines of text on a band's rows between columns `left` and `right`,
/// in page coordinates, with the band's background.
fn lines_between(gray: &GrayImage, band: &Band, left: u32, right: u32) -> Vec<Band> {
    let crop =
        image::imageops::crop_imm(gray, left, band.top, right - left, band.height()).to_image();
    text_bands(&crop)
        .into_iter()
        .map(|line| Band {
            top: band.top + line.top,
            bottom: band.top + line.bottom,
            left: left + line.left,
            right: left + line.right,
            background: band.background,
        })
        .collect()
}

/// Horizontal spans of a band that hold ink, split at blank gaps of at
/// least `gap` columns.
pub fn column_segments(gray: &GrayImage, band: &Band, gap: u32) -> Vec<(u32, u32)> {
    let mut segments: Vec<(u32, u32)> = Vec::new();
    let mut blank_run = u32::MAX;
    for x in band.left..band.right {
        let ink = (band.top..band.bottom)
            .any(|y| gray.get_pixel(x, y).0[0].abs_diff(band.background) > 60);
        if ink {
            match segments.last_mut() {
                Some(last) if blank_run < gap => last.1 = x + 1,
                _ => segments.push((x, x + 1)),
            }
            blank_run = 0;
        } else {
            blank_run = blank_run.saturating_add(1);
        }
    }
    segments
}

/// Replaces a rectangle by itself scaled by `factor` (< 1), centred, on
/// the band's background.
fn shrink_in_place(gray: &mut GrayImage, rect: &Band, factor: f64) {
    let (width, height) = (rect.right - rect.left, rect.height());
    let crop = image::imageops::crop_imm(gray, rect.left, rect.top, width, height).to_image();
    let small = downscale(&crop, factor);
    fill(gray, rect, rect.background);
    let x = rect.left + width.saturating_sub(small.width()) / 2;
    let y = rect.top + height.saturating_sub(small.height()) / 2;
    image::imageops::replace(gray, &small, i64::from(x), i64::from(y));
}

/// Paints a rectangle with one value.
fn fill(gray: &mut GrayImage, rect: &Band, value: u8) {
    for y in rect.top..rect.bottom {
        for x in rect.left..rect.right {
            gray.put_pixel(x, y, image::Luma([value]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Striped ink (every third column blank, like glyph strokes).
    fn ink(img: &mut GrayImage, x0: u32, y0: u32, w: u32, h: u32) {
        for y in y0..y0 + h {
            for x in (x0..x0 + w).filter(|x| x % 3 != 0) {
                img.put_pixel(x, y, image::Luma([0]));
            }
        }
    }

    #[test]
    fn dark_bars_down_the_edges_are_cleared_and_a_headline_between_them_stands_alone() {
        // Bars 25 px wide down both edges of rows 100..700, a 60 px line
        // of text between them at rows 300..360.
        let mut img = GrayImage::from_pixel(1000, 1000, image::Luma([255]));
        for y in 100..700 {
            for x in (0..25).chain(975..1000) {
                img.put_pixel(x, y, image::Luma([0]));
            }
        }
        ink(&mut img, 340, 300, 320, 60);
        // A dark panel wider than a tenth of the width is no bar.
        for y in 800..900 {
            for x in 0..200 {
                img.put_pixel(x, y, image::Luma([0]));
            }
        }
        let cleared = edge_bars_cleared(&img);
        assert_eq!(cleared.get_pixel(10, 400).0[0], 255);
        assert_eq!(cleared.get_pixel(990, 400).0[0], 255);
        assert_eq!(cleared.get_pixel(341, 310).0[0], 0);
        assert_eq!(cleared.get_pixel(10, 850).0[0], 0);
        let pieces = text_pieces(&cleared, 40);
        assert_eq!((pieces[0].top, pieces[0].bottom), (300, 360), "{pieces:?}");
    }

    fn band(left: u32, right: u32, top: u32, bottom: u32) -> Band {
        Band {
            top,
            bottom,
            left,
            right,
            background: 255,
        }
    }

    #[test]
    fn words_parted_by_wide_gaps_are_joined_into_their_line() {
        // `6200   ****   ****   1906`, 30 px digits and 16 px stars set
        // higher, 50 px apart; a label's column 200 px right of it.
        let pieces = vec![
            band(40, 120, 100, 130),
            band(170, 250, 104, 120),
            band(300, 380, 104, 120),
            band(430, 510, 100, 130),
            band(710, 800, 100, 130),
            // The next line, under the number.
            band(40, 200, 160, 190),
        ];
        let joined = join_parted_words(pieces);
        assert_eq!(
            joined,
            vec![
                band(40, 510, 100, 130),
                band(710, 800, 100, 130),
                band(40, 200, 160, 190),
            ]
        );
    }

    /// Four body lines 10 px high, two above and two below y 100..300.
    fn body_lines(img: &mut GrayImage) {
        for top in [20, 60, 300, 340] {
            ink(img, 40, top, 120, 10);
        }
    }

    #[test]
    fn bands_and_shrinking() {
        // Three thin lines and one four times as tall.
        let mut img = GrayImage::from_pixel(200, 400, image::Luma([255]));
        for (top, height) in [(20u32, 10u32), (60, 10), (100, 40), (200, 10), (240, 10)] {
            for y in top..top + height {
                for x in 40..120 {
                    if x % 3 != 0 {
                        img.put_pixel(x, y, image::Luma([0]));
                    }
                }
            }
        }
        let bands = text_bands(&img);
        assert_eq!(bands.len(), 5);
        assert_eq!((bands[2].top, bands[2].height()), (100, 40));
        shrink_big_bands(&mut img);
        let after = text_bands(&img);
        assert!(after[2].height() <= 14, "{:?}", after[2]);
    }

    #[test]
    fn a_line_of_far_apart_glyphs_shrinks_as_one() {
        // Body lines, then a tall line of three glyphs 30 px apart and a
        // small point on its baseline between the last two.
        let mut img = GrayImage::from_pixel(300, 400, image::Luma([255]));
        body_lines(&mut img);
        for left in [40, 90, 170] {
            ink(&mut img, left, 100, 20, 40);
        }
        ink(&mut img, 144, 134, 6, 6);
        shrink_big_bands(&mut img);
        let line = text_bands(&img)[2];
        assert!(line.height() <= 14, "{line:?}");
        // The point shrank with the glyphs: nothing is left below them.
        let below = (line.bottom..200).any(|y| (0..300).any(|x| img.get_pixel(x, y).0[0] < 128));
        assert!(!below);
        // A logo beside a name over an amount stays apart from them.
        let logo = Band {
            top: 0,
            bottom: 80,
            left: 0,
            right: 60,
            background: 255,
        };
        let amount = Band {
            top: 40,
            bottom: 80,
            left: 80,
            right: 200,
            background: 255,
        };
        assert_eq!(join_glyph_pieces(vec![amount, logo]).len(), 2);
    }

    #[test]
    fn a_glyph_cut_short_joins_its_line() {
        // A hairline `4` whose stem did not count as ink: only its top,
        // 60% of the line's height, on the line's rows.
        let digit = |left, top, bottom| Band {
            top,
            bottom,
            left,
            right: left + 20,
            background: 255,
        };
        let pieces = vec![
            digit(40, 100, 140),
            digit(90, 100, 124),
            digit(140, 100, 140),
        ];
        let joined = join_glyph_pieces(pieces);
        assert_eq!(joined.len(), 1, "{joined:?}");
        assert_eq!((joined[0].top, joined[0].bottom), (100, 140));
        // A short piece off the line's rows stays apart.
        let pieces = vec![digit(40, 100, 140), digit(90, 130, 154)];
        assert_eq!(join_glyph_pieces(pieces).len(), 2);
    }

    #[test]
    fn a_sparse_page_shrinks_its_amount_to_a_phone_body_size() {
        // A dark 支付成功 page: status bar, a title beside its tick, the
        // payee, a big amount and a button: the median line is no body
        // line.
        let mut img = GrayImage::from_pixel(1000, 1400, image::Luma([255]));
        for (top, height, left, right) in [
            (20u32, 29u32, 40u32, 960u32),
            (250, 67, 330, 660),
            (420, 48, 400, 600),
            (550, 115, 280, 720),
            (1200, 138, 100, 900),
        ] {
            for y in top..top + height {
                for x in (left..right).filter(|x| x % 3 != 0) {
                    img.put_pixel(x, y, image::Luma([0]));
                }
            }
        }
        shrink_big_bands(&mut img);
        let amount = text_bands(&img)
            .into_iter()
            .find(|b| b.top >= 500 && b.bottom <= 700)
            .unwrap();
        assert!(amount.height() <= 60, "{amount:?}");
    }

    #[test]
    fn a_small_sign_beside_a_big_amount_is_erased() {
        // Body lines, then a big amount with a small currency sign on its
        // baseline just before it.
        let mut img = GrayImage::from_pixel(400, 400, image::Luma([255]));
        body_lines(&mut img);
        ink(&mut img, 100, 100, 200, 34);
        ink(&mut img, 70, 120, 14, 14);
        let shrunk = shrink_big_bands(&mut img);
        let sign_left = (120..134).any(|y| (70..84).any(|x| img.get_pixel(x, y).0[0] < 128));
        assert!(!sign_left, "the sign is gone");
        let line = text_bands(&img)[2];
        assert!(line.height() <= 14, "{line:?}");
        // The big line is kept as it was, for the amount's re-read.
        assert_eq!(shrunk.len(), 1);
        assert_eq!((shrunk[0].rect.top, shrunk[0].rect.bottom), (100, 134));
        assert!(shrunk[0].pixels.height() > 34);
    }

    #[test]
    fn a_badge_beside_two_lines_parts_them() {
        // A square badge 60 px high beside a name over a card number.
        let mut img = GrayImage::from_pixel(500, 100, image::Luma([255]));
        ink(&mut img, 10, 20, 60, 60);
        ink(&mut img, 90, 22, 150, 20);
        ink(&mut img, 90, 55, 300, 20);
        let piece = text_pieces(&img, 40)[0];
        assert_eq!((piece.top, piece.bottom), (20, 80));
        let lines = lines_beside_icon(&img, &piece);
        assert_eq!(lines.len(), 2);
        assert_eq!((lines[1].top, lines[1].bottom), (55, 75));
        assert!(lines[1].left >= 90);
    }
}
