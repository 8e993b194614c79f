//! Built-in advance widths of the standard 14 fonts, for simple fonts that
//! omit `/Widths` (allowed for those fonts only).

use crate::tables;

/// Widths of one standard font.
#[derive(Debug, Clone, Copy)]
pub(crate) enum StandardWidths {
    /// Every glyph has this width (Courier family).
    Fixed(f32),
    /// Per-glyph widths, parallel to the glyph name table.
    Table(&'static [u16]),
}

impl StandardWidths {
    /// Recognise a standard font (or a common alias such as Arial) from a
    /// `/BaseFont` name, ignoring a subset prefix like `ABCDEF+`.
    pub fn for_font(base_font: &[u8]) -> Option<Self> {
        let name = match base_font.get(6) {
            Some(b'+') => base_font.get(7..).unwrap_or_default(),
            _ => base_font,
        };
        let name = String::from_utf8_lossy(name)
            .to_ascii_lowercase()
            .replace([' ', '-', ','], "");
        let bold = name.contains("bold");
        let italic = name.contains("italic") || name.contains("oblique");
        if name.starts_with("courier") {
            return Some(Self::Fixed(600.0));
        }
        if name.starts_with("helvetica") || name.starts_with("arial") {
            return Some(Self::Table(if bold {
                &tables::HELVETICA_BOLD
            } else {
                &tables::HELVETICA
            }));
        }
        if name.starts_with("times") {
            let table: &'static [u16] = match (bold, italic) {
                (true, true) => &tables::TIMES_BOLDITALIC,
                (true, false) => &tables::TIMES_BOLD,
                (false, true) => &tables::TIMES_ITALIC,
                (false, false) => &tables::TIMES_ROMAN,
            };
            return Some(Self::Table(table));
        }
        None
    }

    /// Width in glyph units (1/1000 em) of a built-in glyph.
    pub fn width(&self, glyph: Option<u16>) -> Option<f32> {
        match self {
            Self::Fixed(w) => Some(*w),
            Self::Table(t) => {
                let w = t.get(usize::from(glyph?)).copied()?;
                (w > 0).then_some(f32::from(w))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glyphs::glyph_index;

    #[test]
    fn known_fonts() {
        let h = StandardWidths::for_font(b"Helvetica");
        assert!(matches!(h, Some(StandardWidths::Table(_))));
        let w = h.and_then(|h| h.width(glyph_index("A")));
        assert_eq!(w, Some(667.0));
        let digit = h.and_then(|h| h.width(glyph_index("zero")));
        assert_eq!(digit, Some(556.0));
        let t = StandardWidths::for_font(b"Times-Bold").and_then(|t| t.width(glyph_index("space")));
        assert_eq!(t, Some(250.0));
        let c = StandardWidths::for_font(b"ABCDEF+CourierNewPSMT");
        assert_eq!(c.and_then(|c| c.width(None)), Some(600.0));
        assert!(StandardWidths::for_font(b"SimSun").is_none());
    }
}
