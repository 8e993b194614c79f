//! Evening out a screenshot's rows before OCR: every row becomes dark text
//! on white, whether its panel is white, dark, mid-tone or a gradient.

use image::GrayImage;

use crate::preprocess::{mode_of, row_samples};

/// Makes every row dark text on white: rows of a dark panel (a bank app's
/// coloured header) are inverted, and faint grey text (labels) is made as
/// dark as the body text. Tesseract binarises the page with one threshold;
/// a dark header pulls it so high that grey labels elsewhere vanish. Rows
/// of a gradient panel are evened out column by column (see
/// [`gradient_background`]).
pub(crate) fn even_out_rows(gray: &mut GrayImage) {
    let h = gray.height();
    let flat: Vec<Option<u8>> = (0..h).map(|y| evening_background(gray, y)).collect();
    let source = gray.clone();
    let edges: Vec<Vec<u32>> = (0..h).map(|y| sharp_edges(&source, y)).collect();
    // A gradient panel shows as rows without a common value that change
    // gently (a dotted rule has no common value either, but many sharp
    // changes). Its text rows can look flat (white text and margins make
    // the common value), so rows near such a row count as the panel's.
    let reach = usize::try_from(gray.width() / 40).unwrap_or(0);
    let seeds: Vec<bool> = flat
        .iter()
        .zip(&edges)
        .enumerate()
        .map(|(y, (f, e))| f.is_none() && e.len() <= MAX_PANEL_EDGES && shades(&source, y))
        .collect();
    let gradient: Vec<bool> = (0..seeds.len())
        .map(|y| {
            let lo = y.saturating_sub(reach);
            let hi = (y + reach + 1).min(seeds.len());
            seeds[lo..hi].iter().any(|&s| s)
        })
        .collect();
    let plain = plain_rows(&edges, gray.width());
    let mut sides = Vec::new();
    for (y, (&flat, &gradient)) in (0..h).zip(flat.iter().zip(&gradient)) {
        let background = if gradient {
            gradient_background(&source, &plain, y)
        } else {
            None
        };
        match background {
            Some(background) => even_out_against(gray, y, &background),
            None => {
                let bg = flat.unwrap_or_else(|| row_median(&source, y));
                sides.push((y, even_out_flat(gray, y, bg)));
            }
        }
    }
    whiten_panel_sides(gray, &source, &flat, &sides);
}

/// Evens out a row against one background value, inverting it first when
/// its text is lighter than its panel.
/// Returns the row's panel sides (see [`panel_sides`]), left to be painted.
fn even_out_flat(gray: &mut GrayImage, y: u32, mut bg: u8) -> [Vec<u32>; 2] {
    let w = gray.width();
    if bg < 110 || has_light_text(gray, y, bg) {
        for x in 0..w {
            let p = gray.get_pixel(x, y).0[0];
            gray.put_pixel(x, y, image::Luma([255 - p]));
        }
        bg = 255 - bg;
    }
    let sides = panel_sides(gray, y, bg);
    for x in 0..w {
        let p = gray.get_pixel(x, y).0[0];
        // Ink is how far a pixel is below the background, doubled.
        let ink = u32::from(bg.saturating_sub(p)) * 2;
        let value = 255u32.saturating_sub(ink);
        gray.put_pixel(x, y, image::Luma([u8::try_from(value).unwrap_or(0)]));
    }
    sides
}

/// A light row's flat dark sides, left and right, after the row was
/// inverted if need be: a white card overlapping a coloured header leaves
/// the header showing left and right of its first row (`交易金额 -198.30`
/// between two dark blocks), and evened out those blocks became ink that
/// tesseract read with the row, as `2 9030 量`. A side is a run from the
/// image's edge, at least a fortieth of the width (and 16 px) and at most a
/// third of it, of one flat value well below the background, that ends
/// where the row turns to its background (through a few blurred pixels);
/// text does not start at the edge.
fn panel_sides(gray: &GrayImage, y: u32, bg: u8) -> [Vec<u32>; 2] {
    let w = gray.width();
    let value = |x: u32| gray.get_pixel(x, y).0[0];
    let flat_run = |xs: &mut dyn Iterator<Item = u32>| -> Option<Vec<u32>> {
        let mut run = Vec::new();
        let mut side = None;
        let mut ramp = Vec::new();
        for x in xs {
            let p = value(x);
            let panel = *side.get_or_insert(p);
            if ramp.is_empty() && p.abs_diff(panel) <= SIDE_GRAIN {
                run.push(x);
                continue;
            }
            // The row must turn to its background here, not to text,
            // through a few resampled pixels at most, none darker.
            if p.abs_diff(bg) <= SIDE_GRAIN * 2 {
                run.extend(ramp);
                return Some(run);
            }
            if ramp.len() >= SIDE_RAMP || p < panel.saturating_sub(SIDE_GRAIN) {
                return None;
            }
            ramp.push(x);
        }
        None
    };
    let side = |xs: &mut dyn Iterator<Item = u32>| -> Vec<u32> {
        let Some(run) = flat_run(xs) else {
            return Vec::new();
        };
        let panel = run.first().map_or(bg, |&x| value(x));
        let width = usize::try_from(w).unwrap_or(0);
        let wide = run.len() >= (width / 40).max(MIN_SIDE) && run.len() * 3 <= width;
        if wide && bg.saturating_sub(panel) >= SIDE_DARKER {
            run
        } else {
            Vec::new()
        }
    };
    [side(&mut (0..w)), side(&mut (0..w).rev())]
}

/// Paints the evened rows' panel sides white where they hang from a
/// panel above and run down the edge for less than an eighth of the
/// image's height: a header's sides beside a card's first rows. Longer,
/// they are the page round a card (a dark-mode page round a white receipt,
/// which the page's inversion turned into sides): whitened, that card's
/// table rows were taken for big text and shrunk, and read worse. Without
/// the panel above, across where the card is, they are no header's: the
/// bezel and table round a photographed phone, broken into short runs by
/// the table's grain, whose whitening cost a moiré photo its amount.
fn whiten_panel_sides(
    gray: &mut GrayImage,
    source: &GrayImage,
    flat: &[Option<u8>],
    sides: &[(u32, [Vec<u32>; 2])],
) {
    let longest = gray.height() / 8;
    // Rows without a side between rows with one (a table's rules, a gap
    // between cards) do not end the run.
    let gap = (gray.height() / 40).max(1);
    for edge in 0..2 {
        let rows: Vec<&(u32, [Vec<u32>; 2])> =
            sides.iter().filter(|(_, s)| !s[edge].is_empty()).collect();
        let mut start = 0;
        while start < rows.len() {
            let mut end = start + 1;
            while end < rows.len() && rows[end].0 - rows[end - 1].0 <= gap {
                end += 1;
            }
            let (top, top_sides) = rows[start];
            let short = rows[end - 1].0 - top < longest;
            if short && hangs_from_panel(source, flat, *top, &top_sides[edge], gap) {
                for (y, row) in &rows[start..end] {
                    for &x in &row[edge] {
                        gray.put_pixel(x, *y, image::Luma([255]));
                    }
                }
            }
            start = end;
        }
    }
}

/// Whether a side run's first row hangs from a panel of its colour:
/// within `gap` rows above, a row whose background is the side's colour
/// across the width, where the card below begins.
fn hangs_from_panel(
    source: &GrayImage,
    flat: &[Option<u8>],
    top: u32,
    side: &[u32],
    gap: u32,
) -> bool {
    let Some(&outer) = side.first() else {
        return false;
    };
    let panel = source.get_pixel(outer, top).0[0];
    (top.saturating_sub(gap)..top).any(|y| {
        let background = flat.get(usize::try_from(y).unwrap_or(usize::MAX));
        background
            .copied()
            .flatten()
            .is_some_and(|b| b.abs_diff(panel) <= SIDE_GRAIN * 2)
    })
}

/// The narrowest panel side: a glyph's flat stroke at the edge is narrower.
const MIN_SIDE: usize = 16;

/// How many pixels a panel side may take to turn to the row's background
/// (blurred by resampling and JPEG).
const SIDE_RAMP: usize = 6;

/// How far a panel side's pixels may stray from its first one.
const SIDE_GRAIN: u8 = 12;

/// How much darker than the row's background a panel side must be.
const SIDE_DARKER: u8 = 60;

/// Evens out a row against a background per column: ink is how far a
/// pixel stands from it, lighter or darker.
fn even_out_against(gray: &mut GrayImage, y: u32, background: &[f64]) {
    for (x, bg) in (0..gray.width()).zip(background) {
        let p = f64::from(gray.get_pixel(x, y).0[0]);
        // Less than 8 off is the blend's error or the panel's texture.
        let ink = ((bg - p).abs() - 8.0).max(0.0) * 2.0;
        let value = (255.0 - ink).clamp(0.0, 255.0);
        gray.put_pixel(x, y, image::Luma([u8::try_from(value as i64).unwrap_or(0)]));
    }
}

/// Whether a row shades from one value to another (a gradient), rather
/// than a plain colour grained by compression: the middle three fifths of
/// its samples span 16 levels or more.
fn shades(gray: &GrayImage, row: usize) -> bool {
    let y = u32::try_from(row).unwrap_or(0);
    let mut samples: Vec<u8> = row_samples(gray, y).collect();
    samples.sort_unstable();
    let n = samples.len();
    n > 0 && samples[n * 4 / 5].abs_diff(samples[n / 5]) >= 16
}

/// The median of a row's samples.
fn row_median(gray: &GrayImage, y: u32) -> u8 {
    let mut samples: Vec<u8> = row_samples(gray, y).collect();
    let mid = samples.len() / 2;
    samples.select_nth_unstable(mid).1.to_owned()
}

/// Where a row's value changes sharply: the first column of each run of
/// sharp change.
fn sharp_edges(gray: &GrayImage, y: u32) -> Vec<u32> {
    let mut edges = Vec::new();
    let mut in_edge = false;
    for x in 2..gray.width() {
        let a = gray.get_pixel(x - 2, y).0[0];
        let b = gray.get_pixel(x, y).0[0];
        let sharp = a.abs_diff(b) > 24;
        if sharp && !in_edge {
            edges.push(x);
        }
        in_edge = sharp;
    }
    edges
}

/// Rows with no text: a gradient changes their value gently, and each of
/// their few sharp changes is a panel's side, found at the same column
/// some rows above and below (a comma's tail or a glyph's top is not).
fn plain_rows(edges: &[Vec<u32>], width: u32) -> Vec<bool> {
    let d = usize::try_from(width / 60).unwrap_or(1).max(1);
    let near = |x: u32, row: usize| edges[row].iter().any(|&o| o.abs_diff(x) <= 4);
    (0..edges.len())
        .map(|y| {
            let (up, down) = (y.saturating_sub(d), (y + d).min(edges.len() - 1));
            let own = &edges[y];
            own.len() <= MAX_PANEL_EDGES && own.iter().all(|&x| near(x, up) && near(x, down))
        })
        .collect()
}

/// Sharp changes a row without text may have: the sides of a panel, and
/// of a panel inside it.
const MAX_PANEL_EDGES: usize = 4;

/// The background of a row of a gradient panel (a credit card's
/// blue-to-tan tile), column by column: the nearest plain rows above and
/// below that show the same panel, blended by distance. One value for the
/// whole row lost white text wherever the tile was lighter than that
/// value; the rows around the text show the tile as it is, sides included.
fn gradient_background(gray: &GrayImage, plain: &[bool], y: u32) -> Option<Vec<f64>> {
    let limit = usize::try_from(gray.width() / 4).unwrap_or(usize::MAX);
    let row = usize::try_from(y).unwrap_or(0);
    let own = row_of(gray, row);
    // Most of the row is background, so the same panel matches most of it.
    // Compared on the raw rows: a gradient row looks at many candidates.
    let same_panel = |r: usize| {
        let close = own
            .iter()
            .zip(row_of(gray, r))
            .filter(|(a, b)| a.abs_diff(**b) < 24)
            .count();
        close * 2 > own.len()
    };
    let above = (row.saturating_sub(limit)..=row)
        .rev()
        .find(|&r| plain[r] && same_panel(r));
    let below = (row..plain.len().min(row + limit + 1)).find(|&r| plain[r] && same_panel(r));
    let profile =
        |r: usize| -> Vec<f64> { row_of(gray, r).iter().copied().map(f64::from).collect() };
    match (above, below) {
        (Some(a), Some(b)) if b > a => {
            let t = (row - a) as f64 / (b - a) as f64;
            let (pa, pb) = (profile(a), profile(b));
            Some(pa.iter().zip(&pb).map(|(u, v)| u + (v - u) * t).collect())
        }
        (Some(r), _) | (None, Some(r)) => Some(profile(r)),
        (None, None) => None,
    }
}

/// A row's pixels.
fn row_of(gray: &GrayImage, row: usize) -> &[u8] {
    let w = usize::try_from(gray.width()).unwrap_or(0);
    gray.as_raw().get(row * w..(row + 1) * w).unwrap_or(&[])
}

/// A mid-tone row (an orange or green header panel, grey enough not to
/// count as dark) whose text is lighter than it: white text on the panel
/// would otherwise be evened out to nothing, as only ink darker than the
/// background counts. Text covers less than a third of a row; a dashed
/// rule's white gaps cover more.
fn has_light_text(gray: &GrayImage, y: u32, bg: u8) -> bool {
    if bg >= 200 {
        return false;
    }
    let (mut light, mut dark) = (0u32, 0u32);
    for x in 0..gray.width() {
        let p = gray.get_pixel(x, y).0[0];
        if p > bg.saturating_add(40) {
            light += 1;
        } else if p < bg.saturating_sub(40) {
            dark += 1;
        }
    }
    light > dark && light * 3 < gray.width()
}

/// A flat row's background: its most common value where that covers a
/// third of the row. A gradient (a card tile, a hero panel) has none, and
/// its mode could be the text's white: `None`, and the caller evens it out
/// against its panel or, failing that, its median.
fn evening_background(gray: &GrayImage, y: u32) -> Option<u8> {
    let samples: Vec<u8> = row_samples(gray, y).collect();
    let (value, count) = mode_of(samples.iter().copied());
    (count * 3 >= samples.len()).then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_text_on_a_dark_gradient_becomes_dark_on_white() {
        // A hero panel shading from 100 to 40 left to right, white text in
        // the middle of rows 5..15: no value is common enough to be the
        // rows' background, and the text's white would pass for it.
        let mut img = GrayImage::from_fn(200, 20, |x, y| {
            let text = (5..15).contains(&y) && (80..120).contains(&x) && x % 3 != 0;
            let shade = 100 - u8::try_from(x * 60 / 200).unwrap_or(0);
            image::Luma([if text { 255 } else { shade }])
        });
        even_out_rows(&mut img);
        assert!(img.get_pixel(82, 10).0[0] < 80, "text stays ink");
        for x in [0, 60, 140, 199] {
            assert!(
                img.get_pixel(x, 10).0[0] > 170,
                "panel at {x} becomes paper"
            );
        }
    }

    #[test]
    fn white_text_on_an_orange_panel_becomes_dark_on_white() {
        // An orange header greys to ~137, not dark enough to count as a
        // dark panel; its white text must not even out to nothing.
        let mut img = GrayImage::from_fn(200, 20, |x, y| {
            let text = (5..15).contains(&y) && (80..120).contains(&x) && x % 3 != 0;
            image::Luma([if text { 255 } else { 137 }])
        });
        even_out_rows(&mut img);
        assert!(img.get_pixel(82, 10).0[0] < 80, "text becomes ink");
        assert!(img.get_pixel(10, 10).0[0] > 200, "panel becomes paper");
    }

    #[test]
    fn a_header_s_sides_beside_a_card_s_first_row_are_no_ink() {
        // A white card (x 20..180) over a dark header (60) whose sides show
        // left and right of its first row; text at x 40..60.
        let first_row = |x: u32| {
            let text = (40..60).contains(&x) && x.is_multiple_of(3);
            match x {
                _ if text => 30,
                20..180 => 255,
                _ => 60,
            }
        };
        let mut img = row_over_page(200, first_row);
        even_out_rows(&mut img);
        for x in [0, 10, 19, 180, 199] {
            assert!(img.get_pixel(x, 1).0[0] > 240, "side at {x} becomes paper");
        }
        assert!(img.get_pixel(42, 1).0[0] < 120, "text stays ink");
        // The same sides down the whole page are a page round a card: kept.
        let mut framed = GrayImage::from_fn(200, 16, |x, _| image::Luma([first_row(x)]));
        even_out_rows(&mut framed);
        assert!(framed.get_pixel(10, 2).0[0] < 120, "a frame stays");
        // Sides under white rather than under a panel are not a header's
        // (a photographed phone's bezel and table): kept.
        let mut photo = GrayImage::from_fn(200, 16, |x, y| {
            image::Luma([if y == 1 { first_row(x) } else { 255 }])
        });
        even_out_rows(&mut photo);
        assert!(photo.get_pixel(10, 1).0[0] < 120, "a bezel stays");
        // Blurred into the card over four pixels, as resampled.
        let mut img = row_over_page(200, |x| match x {
            0..20 => 60,
            20..24 => u8::try_from(60 + (x - 19) * 39).unwrap_or(255),
            _ => 255,
        });
        even_out_rows(&mut img);
        assert!(
            img.get_pixel(10, 1).0[0] > 240,
            "a blurred side becomes paper"
        );
        assert!(img.get_pixel(22, 1).0[0] > 240, "and its blur");
        // A run that ends in ink, or a glyph's stroke at the edge, is no
        // side.
        for (side, then) in [(30, 0), (8, 255)] {
            let mut img = row_over_page(400, |x| match x {
                _ if x < side => 60,
                _ if x < side + 4 => then,
                _ => 255,
            });
            even_out_rows(&mut img);
            assert!(img.get_pixel(2, 1).0[0] < 200, "ink at the edge stays");
        }
    }

    /// A row drawn by `row` (row 1) under a row of header (60) and over
    /// fourteen rows of white page.
    fn row_over_page(width: u32, row: impl Fn(u32) -> u8) -> GrayImage {
        GrayImage::from_fn(width, 16, |x, y| {
            image::Luma([match y {
                0 => 60,
                1 => row(x),
                _ => 255,
            }])
        })
    }

    #[test]
    fn a_dashed_rule_is_no_light_text() {
        // Grey dashes with white gaps as wide: the gaps are no text.
        let img = GrayImage::from_fn(200, 1, |x, _| {
            image::Luma([if x % 8 < 5 { 190 } else { 255 }])
        });
        assert!(!has_light_text(&img, 0, 190));
    }

    /// A card tile at x 20..280, y 5..55 on a white page, shading from 70
    /// (blue) to 160 (tan) left to right, with sparse white text in rows
    /// 25..35.
    fn credit_card_tile() -> GrayImage {
        GrayImage::from_fn(300, 60, |x, y| {
            let tile = (20..280).contains(&x) && (5..55).contains(&y);
            let text = tile && (25..35).contains(&y) && (40..260).contains(&x) && x % 3 == 0;
            let shade = 70 + u8::try_from((x.saturating_sub(20)) * 90 / 260).unwrap_or(0);
            image::Luma([if text || !tile { 255 } else { shade }])
        })
    }

    #[test]
    fn white_text_on_a_gradient_tile_stays_ink_where_the_tile_is_light() {
        let mut img = credit_card_tile();
        even_out_rows(&mut img);
        for x in [42, 150, 258] {
            assert!(img.get_pixel(x, 30).0[0] < 80, "text at {x} stays ink");
            assert!(
                img.get_pixel(x + 1, 30).0[0] > 200,
                "tile at {x} becomes paper"
            );
            assert!(
                img.get_pixel(x, 45).0[0] > 200,
                "tile below at {x} becomes paper"
            );
        }
        assert!(img.get_pixel(10, 30).0[0] > 200, "page beside the tile");
    }

    fn edges_of(img: &GrayImage) -> Vec<Vec<u32>> {
        (0..img.height()).map(|y| sharp_edges(img, y)).collect()
    }

    #[test]
    fn plain_rows_are_a_tile_without_text() {
        let img = credit_card_tile();
        let plain = plain_rows(&edges_of(&img), img.width());
        assert!(plain[20] && plain[45], "the tile's own rows, sides and all");
        assert!(!plain[30], "a row of text");
        // A comma's tail under a line of text: a short mark with no
        // counterpart some rows below.
        let img = GrayImage::from_fn(600, 40, |x, y| {
            let line = (10..20).contains(&y) && (10..590).contains(&x) && x % 4 < 2;
            let tail = (20..28).contains(&y) && (50..53).contains(&x);
            image::Luma([if line || tail { 0 } else { 255 }])
        });
        let plain = plain_rows(&edges_of(&img), img.width());
        assert!(!plain[24], "the tail's row");
        assert!(plain[35], "the page under it");
    }

    #[test]
    fn dark_panels_and_grey_labels_become_dark_on_white() {
        // Row 0: a dark header with light text; row 1: a grey label on white.
        let mut img = GrayImage::from_pixel(40, 2, image::Luma([255]));
        for x in 0..40 {
            img.put_pixel(x, 0, image::Luma([if x < 4 { 240 } else { 50 }]));
        }
        img.put_pixel(5, 1, image::Luma([153]));
        even_out_rows(&mut img);
        assert_eq!(img.get_pixel(10, 0).0[0], 255, "panel background");
        assert!(img.get_pixel(0, 0).0[0] < 60, "panel text");
        assert_eq!(img.get_pixel(0, 1).0[0], 255, "page background");
        assert!(img.get_pixel(5, 1).0[0] < 60, "grey label");
    }
}
