//! The general fallback: rqrr's detector on a cleaned-up bitmap, for codes
//! that are skewed, noisy, inverted or sit inside a larger picture.
//!
//! Only images whose rows show finder patterns get here (see
//! [`crate::screen`]). The bitmap is cropped to where those patterns are,
//! given a white quiet zone, rescaled to a few pixels per module (upscaling
//! one-pixel modules, downscaling huge ones keeps rqrr fast), and
//! thresholded once with the image's global threshold.

use rqrr::{BitGrid, PreparedImage};

use crate::luma::{Bounds, Luma};
use crate::qr_decode;
use crate::screen;

/// Pixels per module handed to rqrr.
const TARGET_MODULE_PX: f32 = 4.0;
/// Modules around the finder patterns' centres kept when cropping: 3.5 to
/// the symbol's corner, a quiet zone, and slack for module-size error.
const MARGIN_MODULES: f32 = 10.0;
/// White modules added around the crop, for codes printed without a quiet
/// zone up to the image's edge.
const QUIET_MODULES: f32 = 4.0;
/// Largest bitmap handed to rqrr, in pixels per side.
const MAX_SIDE: usize = 640;

/// Every QR text rqrr finds in `luma`: dark codes on light paper, then
/// light codes on a dark ground.
pub(crate) fn detect(luma: &Luma<'_>) -> Vec<String> {
    for inverted in [false, true] {
        let hits = screen::finder_hits(luma, inverted);
        if !hits.promising() {
            continue;
        }
        let Some((bounds, module)) = hits.region(luma, MARGIN_MODULES) else {
            continue;
        };
        let found = run(luma, bounds, module, inverted);
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// Crop `luma` to `bounds` plus a white quiet zone (outside the image is
/// paper), scale to [`TARGET_MODULE_PX`] per `module`, threshold,
/// optionally invert, and run rqrr.
fn run(luma: &Luma<'_>, bounds: Bounds, module: f32, invert: bool) -> Vec<String> {
    let quiet = QUIET_MODULES * module;
    let origin_x = bounds.left as f32 - quiet;
    let origin_y = bounds.top as f32 - quiet;
    let (src_w, src_h) = (
        bounds.width() as f32 + 2.0 * quiet,
        bounds.height() as f32 + 2.0 * quiet,
    );
    let scale = (TARGET_MODULE_PX / module).clamp(0.05, 16.0);
    let scale = scale.min(MAX_SIDE as f32 / src_w.max(src_h));
    let out_w = (src_w * scale) as usize;
    let out_h = (src_h * scale) as usize;
    if out_w < 21 || out_h < 21 {
        return Vec::new();
    }
    // Source pixels per output pixel: averaged when shrinking.
    let step = (1.0 / scale).max(1.0);
    let taps = (step.round() as usize).clamp(1, 4);
    let threshold = u32::from(luma.threshold());
    let mut image = PreparedImage::prepare_from_bitmap(out_w, out_h, |x, y| {
        let sx = origin_x + x as f32 / scale;
        let sy = origin_y + y as f32 / scale;
        if sx < 0.0 || sy < 0.0 || sx >= luma.width as f32 || sy >= luma.height as f32 {
            return false;
        }
        let mut sum = 0u32;
        for ty in 0..taps {
            for tx in 0..taps {
                let px = (sx + tx as f32 * step / taps as f32) as usize;
                let py = (sy + ty as f32 * step / taps as f32) as usize;
                sum += u32::from(if py < luma.height {
                    luma.get(px, py)
                } else {
                    255
                });
            }
        }
        (sum <= threshold * (taps * taps) as u32) != invert
    });
    image
        .detect_grids()
        .iter()
        .filter_map(|grid| {
            let grid = &grid.grid;
            qr_decode::decode_modules(grid.size(), |x, y| grid.bit(y, x))
        })
        .collect()
}
