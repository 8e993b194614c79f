//! Error correction and payload decoding of a sampled module grid, by
//! quircs: its table-driven Reed–Solomon decoder is far faster than rqrr's
//! (which spends most of a millisecond on syndromes per code).

/// Decode a `size`×`size` module grid (`dark(x, y)`, row `y` from the top),
/// as given and, failing that, mirrored. `None` unless it error-corrects.
pub(crate) fn decode_modules(size: usize, dark: impl Fn(usize, usize) -> bool) -> Option<String> {
    if !(21..=177).contains(&size) || !(size - 17).is_multiple_of(4) {
        return None;
    }
    for mirrored in [false, true] {
        let mut code = quircs::Code {
            size: i32::try_from(size).ok()?,
            ..quircs::Code::default()
        };
        for y in 0..size {
            for x in 0..size {
                let is_dark = if mirrored { dark(y, x) } else { dark(x, y) };
                let i = y * size + x;
                if is_dark && let Some(byte) = code.cell_bitmap.get_mut(i >> 3) {
                    *byte |= 1 << (i & 7);
                }
            }
        }
        if let Ok(data) = code.decode() {
            return Some(match String::from_utf8(data.payload) {
                Ok(text) => text,
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            });
        }
    }
    None
}
