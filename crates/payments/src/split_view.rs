//! Tablet split view: a screenshot of two panes side by side (a chat or
//! menu list beside the payment's detail), cut down to the detail pane.

use image::GrayImage;

/// Difference in grey value that marks a pane's edge or divider line.
const EDGE_STEP: u8 = 6;

/// The detail pane of a split-view screenshot: everything right of a
/// vertical divider standing between a fifth and half of the width, over
/// nearly the whole height (below the status bar). `None` for a single
/// pane. OCR reads a split view's rows across both panes as one line
/// (`订阅号消息 -3,773.00`), so the list pane has to go.
pub fn detail_pane(gray: &GrayImage) -> Option<GrayImage> {
    let (w, h) = gray.dimensions();
    let x = divider(gray)?;
    let left = x + 3;
    (left < w).then(|| image::imageops::crop_imm(gray, left, 0, w - left, h).to_image())
}

/// Column of the divider between a narrow left pane and a wider right one:
/// where a vertical edge or line runs through at least 85% of the rows
/// below the top twentieth. Text, even left-aligned, breaks far more often.
fn divider(gray: &GrayImage) -> Option<u32> {
    let (w, h) = gray.dimensions();
    if w < 200 || h < 200 {
        return None;
    }
    let rows: Vec<u32> = (h / 20..h).step_by(2).collect();
    let edge_at = |x: u32, y: u32| {
        let p = gray.get_pixel(x, y).0[0];
        let before = gray.get_pixel(x - 3, y).0[0];
        let after = gray.get_pixel(x + 3, y).0[0];
        p.abs_diff(before) >= EDGE_STEP || p.abs_diff(after) >= EDGE_STEP
    };
    let counts: Vec<(u32, usize)> = (w / 5..w / 2)
        .map(|x| (x, rows.iter().filter(|&&y| edge_at(x, y)).count()))
        .collect();
    let best = counts.iter().map(|&(_, n)| n).max()?;
    if best * 100 < rows.len() * 85 {
        return None;
    }
    // A line is seen from 3 px on either side too: its middle column.
    let at_best: Vec<u32> = counts
        .iter()
        .filter(|&&(_, n)| n == best)
        .map(|&(x, _)| x)
        .collect();
    at_best.get(at_best.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn a_divider_line_splits_off_the_list_pane() {
        let mut page = GrayImage::from_pixel(600, 1200, Luma([255]));
        for y in 0..1200 {
            page.put_pixel(200, y, Luma([225]));
        }
        let pane = detail_pane(&page).expect("split view");
        assert_eq!(pane.width(), 600 - 203);
        assert_eq!(pane.height(), 1200);
    }

    #[test]
    fn a_pane_of_another_shade_is_split_off() {
        let page = GrayImage::from_fn(600, 1200, |x, _| Luma([if x < 250 { 240 } else { 255 }]));
        assert!(detail_pane(&page).is_some());
    }

    #[test]
    fn left_aligned_text_is_no_divider() {
        // Rows of "text" starting at the same column, with gaps between.
        let page = GrayImage::from_fn(600, 1200, |x, y| {
            let text_row = (y / 30) % 2 == 0 && (y % 30) < 20;
            Luma([if text_row && (250..400).contains(&x) && x % 7 < 3 {
                30
            } else {
                255
            }])
        });
        assert!(detail_pane(&page).is_none());
    }

    #[test]
    fn a_plain_page_has_one_pane() {
        let page = GrayImage::from_pixel(600, 1200, Luma([250]));
        assert!(detail_pane(&page).is_none());
    }
}
