//! Glyph names to Unicode, per the Adobe Glyph List conventions.

use std::borrow::Cow;

use crate::tables::GLYPH_NAMES;

/// Index of `name` in the built-in glyph name table.
pub(crate) fn glyph_index(name: &str) -> Option<u16> {
    GLYPH_NAMES
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .and_then(|i| u16::try_from(i).ok())
}

/// Unicode text of a built-in glyph by index.
pub(crate) fn glyph_text(index: u16) -> &'static str {
    GLYPH_NAMES
        .get(usize::from(index))
        .map(|(_, t)| *t)
        .unwrap_or_default()
}

fn hex_digits(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(s, 16).ok()
}

/// One component of a glyph name (no `_` or `.`).
fn component(name: &str, out: &mut String) -> bool {
    if let Some(i) = glyph_index(name) {
        out.push_str(glyph_text(i));
        return true;
    }
    // uniXXXX[XXXX...]: one or more BMP values, four hex digits each.
    if let Some(hex) = name.strip_prefix("uni")
        && !hex.is_empty()
        && hex.len() % 4 == 0
    {
        let mut units = Vec::with_capacity(hex.len() / 4);
        for i in (0..hex.len()).step_by(4) {
            match hex.get(i..i + 4).and_then(hex_digits) {
                Some(v) => units.push(v as u16),
                None => return false,
            }
        }
        for c in char::decode_utf16(units) {
            out.push(c.unwrap_or(char::REPLACEMENT_CHARACTER));
        }
        return true;
    }
    // uXXXX to uXXXXXX: a single code point.
    if let Some(hex) = name.strip_prefix('u')
        && (4..=6).contains(&hex.len())
        && let Some(c) = hex_digits(hex).and_then(char::from_u32)
    {
        out.push(c);
        return true;
    }
    false
}

/// Unicode text for a glyph name such as `A`, `uni53D1`, `u1F600`, `f_i`
/// or `one.oldstyle`. `None` when the name is not understood.
pub(crate) fn glyph_to_unicode(name: &str) -> Option<Cow<'static, str>> {
    if let Some(i) = glyph_index(name) {
        return Some(Cow::Borrowed(glyph_text(i)));
    }
    // Drop a suffix such as ".sc" or ".alt".
    let base = name.split('.').next().unwrap_or_default();
    if base.is_empty() {
        return None;
    }
    let mut out = String::new();
    for part in base.split('_') {
        if !component(part, &mut out) {
            return None;
        }
    }
    Some(Cow::Owned(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(name: &str) -> Option<String> {
        glyph_to_unicode(name).map(Cow::into_owned)
    }

    #[test]
    fn names() {
        assert_eq!(u("A").as_deref(), Some("A"));
        assert_eq!(u("space").as_deref(), Some(" "));
        assert_eq!(u("zero").as_deref(), Some("0"));
        assert_eq!(u("yen").as_deref(), Some("¥"));
        assert_eq!(u("uni53D1").as_deref(), Some("发"));
        assert_eq!(u("uni00660069").as_deref(), Some("fi"));
        assert_eq!(u("u1F600").as_deref(), Some("😀"));
        assert_eq!(u("f_i").as_deref(), Some("fi"));
        assert_eq!(u("a.sc").as_deref(), Some("a"));
        assert_eq!(u("g123"), None);
        assert_eq!(u(""), None);
        assert_eq!(u("uniZZZZ"), None);
    }
}
