//! Single-byte encodings of simple fonts: a base encoding plus `/Differences`.

use crate::glyphs;
use crate::tables;

/// The predefined base encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BaseEncoding {
    Standard,
    WinAnsi,
    MacRoman,
}

impl BaseEncoding {
    /// The encoding for a `/BaseEncoding` or `/Encoding` name, if predefined.
    pub fn from_name(name: &[u8]) -> Option<Self> {
        match name {
            b"WinAnsiEncoding" => Some(Self::WinAnsi),
            b"MacRomanEncoding" => Some(Self::MacRoman),
            // MacExpert has no Unicode-meaningful table here; Standard is the
            // closest harmless choice.
            b"StandardEncoding" | b"MacExpertEncoding" => Some(Self::Standard),
            _ => None,
        }
    }

    fn table(self) -> &'static [u16; 256] {
        match self {
            Self::Standard => &tables::STANDARD,
            Self::WinAnsi => &tables::WIN_ANSI,
            Self::MacRoman => &tables::MAC_ROMAN,
        }
    }
}

/// What one code of a simple font stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum CodeGlyph {
    None,
    /// A glyph from the built-in name table (index into it).
    Known(u16),
    /// A glyph name outside the table, already turned into text.
    Custom(Box<str>),
}

/// One item of a `/Differences` array.
pub(crate) enum Difference<'a> {
    Code(i64),
    Name(&'a [u8]),
}

/// A complete code-to-glyph table for a simple font.
#[derive(Debug, Clone)]
pub(crate) struct SimpleEncoding {
    glyphs: Vec<CodeGlyph>,
}

impl SimpleEncoding {
    pub fn new(base: BaseEncoding) -> Self {
        let glyphs = base
            .table()
            .iter()
            .map(|&i| {
                if i == u16::MAX {
                    CodeGlyph::None
                } else {
                    CodeGlyph::Known(i)
                }
            })
            .collect();
        Self { glyphs }
    }

    /// Overlay a `/Differences` array: a code, then names for consecutive codes.
    pub fn apply_differences<'a>(&mut self, items: impl IntoIterator<Item = Difference<'a>>) {
        let mut code: Option<usize> = None;
        for item in items {
            match item {
                Difference::Code(c) => code = usize::try_from(c).ok(),
                Difference::Name(name) => {
                    let Some(c) = code else { continue };
                    if let Some(slot) = self.glyphs.get_mut(c) {
                        *slot = Self::glyph_for_name(name);
                    }
                    code = Some(c.saturating_add(1));
                }
            }
        }
    }

    fn glyph_for_name(name: &[u8]) -> CodeGlyph {
        let Ok(name) = std::str::from_utf8(name) else {
            return CodeGlyph::None;
        };
        if let Some(i) = glyphs::glyph_index(name) {
            return CodeGlyph::Known(i);
        }
        match glyphs::glyph_to_unicode(name) {
            Some(text) => CodeGlyph::Custom(text.into()),
            None => CodeGlyph::None,
        }
    }

    /// Append the text of `code`; false when the code has no known glyph.
    pub fn text(&self, code: u8, out: &mut String) -> bool {
        match self.glyphs.get(usize::from(code)) {
            Some(CodeGlyph::Known(i)) => {
                out.push_str(glyphs::glyph_text(*i));
                true
            }
            Some(CodeGlyph::Custom(t)) => {
                out.push_str(t);
                true
            }
            _ => false,
        }
    }

    /// The built-in glyph index of `code`, used for standard-font widths.
    pub fn glyph_index(&self, code: u8) -> Option<u16> {
        match self.glyphs.get(usize::from(code)) {
            Some(CodeGlyph::Known(i)) => Some(*i),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(e: &SimpleEncoding, code: u8) -> String {
        let mut s = String::new();
        e.text(code, &mut s);
        s
    }

    #[test]
    fn base_encodings_differ_where_expected() {
        let win = SimpleEncoding::new(BaseEncoding::WinAnsi);
        let std = SimpleEncoding::new(BaseEncoding::Standard);
        let mac = SimpleEncoding::new(BaseEncoding::MacRoman);
        assert_eq!(t(&win, b'A'), "A");
        assert_eq!(t(&win, 0x80), "€");
        assert_eq!(t(&win, 0xA5), "¥");
        assert_eq!(t(&std, 0x27), "\u{2019}");
        assert_eq!(t(&win, 0x27), "'");
        assert_eq!(t(&mac, 0x80), "Ä");
        assert_eq!(t(&std, 0x80), "");
    }

    #[test]
    fn differences_override() {
        let mut e = SimpleEncoding::new(BaseEncoding::WinAnsi);
        e.apply_differences([
            Difference::Code(65),
            Difference::Name(b"uni53D1"),
            Difference::Name(b"zero"),
            Difference::Code(300),
            Difference::Name(b"A"),
            Difference::Name(b"g77"),
        ]);
        assert_eq!(t(&e, 65), "发");
        assert_eq!(t(&e, 66), "0");
        assert_eq!(t(&e, 67), "C");
        assert!(e.glyph_index(66).is_some());
    }
}
