//! Fonts as the text extractor needs them: how to split a string into
//! codes, what Unicode text each code stands for, and how far it advances.

use std::collections::HashMap;
use std::rc::Rc;

use encoding_rs::Encoding;
use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::cmap::{CMap, code_value};
use crate::encoding::{BaseEncoding, Difference, SimpleEncoding};
use crate::metrics::StandardWidths;
use crate::objects::{
    self, get, get_array, get_dict, get_name, get_number, get_stream, ref_id, resolve,
};

/// Largest CMap stream we are willing to inflate.
const CMAP_LIMIT: usize = 8 << 20;
/// Cap on `/W` entries kept per font.
const MAX_WIDTH_ENTRIES: usize = 1 << 17;

/// One decoded glyph: its byte length in the string and its advance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Glyph {
    /// Bytes of the shown string this glyph consumed (at least 1).
    pub len: usize,
    /// Horizontal advance in text space for a font size of 1.
    pub width: f32,
    /// A single-byte code 32, to which word spacing applies.
    pub is_space: bool,
}

/// How a composite (Type0) font maps its byte strings to codes and text.
#[derive(Debug, Clone)]
enum CidEncoding {
    /// Identity-H/V: two-byte codes equal to CIDs; text only via ToUnicode.
    Identity,
    /// Uni*-UCS2-*: two-byte codes that are UCS-2 values.
    Ucs2,
    /// Uni*-UTF16-*: UTF-16BE, two or four bytes.
    Utf16,
    /// Uni*-UTF8-*.
    Utf8,
    /// Uni*-UTF32-*.
    Utf32,
    /// A legacy multi-byte CJK charset (GBK/GB18030, Big5, Shift_JIS, EUC).
    Legacy(&'static Encoding),
    /// An embedded CMap stream, with the predefined CMap it builds on.
    Embedded(Rc<CMap>, Option<Box<CidEncoding>>),
}

impl CidEncoding {
    /// Classify a predefined CMap by name. Unknown names behave like Identity.
    fn predefined(name: &[u8]) -> Self {
        let name = String::from_utf8_lossy(name);
        if name.starts_with("Uni") {
            if name.contains("UCS2") {
                return Self::Ucs2;
            }
            if name.contains("UTF16") {
                return Self::Utf16;
            }
            if name.contains("UTF8") {
                return Self::Utf8;
            }
            if name.contains("UTF32") {
                return Self::Utf32;
            }
        }
        if name.starts_with("GB") {
            // GB18030 decodes GB2312 (EUC-CN), GBK and the four-byte GBK2K codes.
            return Self::Legacy(encoding_rs::GB18030);
        }
        if name.contains("B5") {
            return Self::Legacy(encoding_rs::BIG5);
        }
        if name.contains("RKSJ") {
            return Self::Legacy(encoding_rs::SHIFT_JIS);
        }
        if name.starts_with("KSC") {
            return Self::Legacy(encoding_rs::EUC_KR);
        }
        if name.starts_with("EUC-") {
            return Self::Legacy(encoding_rs::EUC_JP);
        }
        Self::Identity
    }

    /// Split the next code off `bytes` (non-empty): `(code, length)`.
    fn next_code(&self, bytes: &[u8]) -> (u32, usize) {
        let first = bytes.first().copied().unwrap_or(0);
        let len = match self {
            Self::Identity | Self::Ucs2 => 2,
            Self::Utf16 => {
                if (0xD8..=0xDB).contains(&first) {
                    4
                } else {
                    2
                }
            }
            Self::Utf8 => match first {
                0xF0..=0xF7 => 4,
                0xE0..=0xEF => 3,
                0xC0..=0xDF => 2,
                _ => 1,
            },
            Self::Utf32 => 4,
            Self::Legacy(enc) => legacy_code_len(enc, bytes),
            Self::Embedded(cmap, base) => {
                if cmap.has_codespace() {
                    return cmap.next_code(bytes);
                }
                return match base {
                    Some(base) => base.next_code(bytes),
                    None => (
                        code_value(bytes.get(..2).unwrap_or(bytes)),
                        2.min(bytes.len()).max(1),
                    ),
                };
            }
        };
        let len = len.min(bytes.len()).max(1);
        (code_value(bytes.get(..len).unwrap_or(bytes)), len)
    }

    /// The text a code stands for without ToUnicode; false if unknown.
    fn text(&self, code: u32, raw: &[u8], out: &mut String) -> bool {
        match self {
            Self::Identity => false,
            Self::Ucs2 | Self::Utf32 => push_char(code, out),
            Self::Utf16 => {
                if raw.len() == 4 {
                    let hi = (code >> 16) as u16;
                    let lo = (code & 0xFFFF) as u16;
                    match char::decode_utf16([hi, lo]).next() {
                        Some(Ok(c)) => {
                            out.push(c);
                            true
                        }
                        _ => false,
                    }
                } else {
                    push_char(code, out)
                }
            }
            Self::Utf8 => match std::str::from_utf8(raw) {
                Ok(s) => {
                    out.push_str(s);
                    true
                }
                Err(_) => false,
            },
            Self::Legacy(enc) => {
                let (text, had_errors) = enc.decode_without_bom_handling(raw);
                if had_errors {
                    return false;
                }
                out.push_str(&text);
                true
            }
            Self::Embedded(_, base) => base.as_ref().is_some_and(|b| b.text(code, raw, out)),
        }
    }

    /// The CID used to look up the width of `code`, when it can be known.
    fn cid(&self, code: u32) -> Option<u32> {
        match self {
            Self::Identity => Some(code),
            Self::Embedded(cmap, base) => cmap
                .cid(code)
                .or_else(|| base.as_ref().and_then(|b| b.cid(code))),
            // Without the predefined tables only printable ASCII is known: in
            // Adobe-GB1, -CNS1, -Japan1 and -Korea1 the proportional Latin
            // glyphs are CIDs 1..=95 for U+0020..=U+007E.
            _ => (0x20..=0x7E).contains(&code).then(|| code - 0x1F),
        }
    }
}

fn push_char(code: u32, out: &mut String) -> bool {
    match char::from_u32(code) {
        Some(c) => {
            out.push(c);
            true
        }
        None => false,
    }
}

/// Byte length of the next character in a legacy CJK encoding.
fn legacy_code_len(enc: &'static Encoding, bytes: &[u8]) -> usize {
    let first = bytes.first().copied().unwrap_or(0);
    let second = bytes.get(1).copied().unwrap_or(0);
    if enc == encoding_rs::GB18030 {
        match first {
            0x81..=0xFE if (0x30..=0x39).contains(&second) => 4,
            0x81..=0xFE => 2,
            _ => 1,
        }
    } else if enc == encoding_rs::SHIFT_JIS {
        match first {
            0x81..=0x9F | 0xE0..=0xFC => 2,
            _ => 1,
        }
    } else if enc == encoding_rs::EUC_JP {
        match first {
            0x8F => 3,
            0x8E | 0xA1..=0xFE => 2,
            _ => 1,
        }
    } else {
        match first {
            0x81..=0xFE => 2,
            _ => 1,
        }
    }
}

#[derive(Debug, Clone)]
struct SimpleFont {
    encoding: SimpleEncoding,
    first_char: i64,
    widths: Vec<f32>,
    has_widths: bool,
    missing_width: f32,
    standard: Option<StandardWidths>,
}

#[derive(Debug, Clone)]
struct CompositeFont {
    encoding: CidEncoding,
    default_width: f32,
    /// `(first cid, last cid, width)`, sorted by first cid.
    widths: Vec<(u32, u32, f32)>,
}

#[derive(Debug, Clone)]
enum Kind {
    Simple(SimpleFont),
    Composite(CompositeFont),
}

/// A font resource reduced to what text extraction needs.
#[derive(Debug, Clone)]
pub(crate) struct Font {
    kind: Kind,
    to_unicode: Option<Rc<CMap>>,
    /// Glyph units to text space: 1/1000, or a Type3 font's FontMatrix.
    width_scale: f32,
    /// Vertical writing mode (Identity-V and kin).
    pub vertical: bool,
}

/// Per-document cache of parsed CMaps, keyed by stream object id, so fonts
/// sharing one ToUnicode stream parse it once.
#[derive(Default)]
pub(crate) struct CMapCache {
    by_id: HashMap<ObjectId, Rc<CMap>>,
}

impl CMapCache {
    fn load(&mut self, doc: &Document, obj: &Object) -> Option<Rc<CMap>> {
        let id = ref_id(obj);
        if let Some(id) = id
            && let Some(hit) = self.by_id.get(&id)
        {
            return Some(Rc::clone(hit));
        }
        let Object::Stream(stream) = resolve(doc, obj)? else {
            return None;
        };
        let data = objects::stream_data(stream, CMAP_LIMIT)?;
        let cmap = Rc::new(CMap::parse(&data));
        if let Some(id) = id {
            self.by_id.insert(id, Rc::clone(&cmap));
        }
        Some(cmap)
    }
}

impl Font {
    /// Build from a font dictionary. Never fails: missing parts fall back to
    /// defaults so text still comes out where possible.
    pub fn load(doc: &Document, dict: &Dictionary, cmaps: &mut CMapCache) -> Font {
        let to_unicode = dict
            .get(b"ToUnicode")
            .ok()
            .and_then(|o| cmaps.load(doc, o))
            .filter(|c| !c.is_empty());
        let subtype = get_name(doc, dict, b"Subtype").unwrap_or_default();
        if subtype == b"Type0" {
            Self::load_composite(doc, dict, to_unicode, cmaps)
        } else {
            Self::load_simple(doc, dict, subtype, to_unicode)
        }
    }

    fn load_simple(
        doc: &Document,
        dict: &Dictionary,
        subtype: &[u8],
        to_unicode: Option<Rc<CMap>>,
    ) -> Font {
        let default_base = if subtype == b"TrueType" {
            BaseEncoding::WinAnsi
        } else {
            BaseEncoding::Standard
        };
        let mut encoding = SimpleEncoding::new(default_base);
        match get(doc, dict, b"Encoding") {
            Some(Object::Name(name)) => {
                if let Some(base) = BaseEncoding::from_name(name) {
                    encoding = SimpleEncoding::new(base);
                }
            }
            Some(Object::Dictionary(enc)) => {
                if let Some(base) =
                    get_name(doc, enc, b"BaseEncoding").and_then(BaseEncoding::from_name)
                {
                    encoding = SimpleEncoding::new(base);
                }
                if let Some(diffs) = get_array(doc, enc, b"Differences") {
                    encoding.apply_differences(diffs.iter().filter_map(|item| {
                        match resolve(doc, item)? {
                            Object::Integer(i) => Some(Difference::Code(*i)),
                            Object::Real(r) => Some(Difference::Code(*r as i64)),
                            Object::Name(n) => Some(Difference::Name(n)),
                            _ => None,
                        }
                    }));
                }
            }
            _ => {}
        }

        let widths_array = get_array(doc, dict, b"Widths");
        let widths = widths_array
            .map(|w| objects::numbers(doc, w))
            .unwrap_or_default();
        let descriptor = get_dict(doc, dict, b"FontDescriptor");
        let missing_width = descriptor
            .and_then(|d| get_number(doc, d, b"MissingWidth"))
            .unwrap_or(0.0);
        let base_font = get_name(doc, dict, b"BaseFont").unwrap_or_default();

        let mut width_scale = 0.001;
        if subtype == b"Type3"
            && let Some(m) = get_array(doc, dict, b"FontMatrix")
            && let Some(&a) = objects::numbers(doc, m).first()
            && a.is_finite()
            && a != 0.0
        {
            width_scale = a.abs();
        }

        Font {
            kind: Kind::Simple(SimpleFont {
                encoding,
                // Clamped so the index arithmetic below cannot overflow.
                first_char: get_number(doc, dict, b"FirstChar")
                    .map_or(0, |f| (f as i64).clamp(-(1 << 20), 1 << 20)),
                has_widths: widths_array.is_some(),
                widths,
                missing_width,
                standard: StandardWidths::for_font(base_font),
            }),
            to_unicode,
            width_scale,
            vertical: false,
        }
    }

    fn load_composite(
        doc: &Document,
        dict: &Dictionary,
        to_unicode: Option<Rc<CMap>>,
        cmaps: &mut CMapCache,
    ) -> Font {
        let (encoding, vertical) = match get(doc, dict, b"Encoding") {
            Some(Object::Name(name)) => {
                let vertical = name.ends_with(b"-V") || name.as_slice() == b"V";
                (CidEncoding::predefined(name), vertical)
            }
            Some(Object::Stream(_)) => {
                match dict.get(b"Encoding").ok().and_then(|o| cmaps.load(doc, o)) {
                    Some(cmap) => {
                        // `usecmap` in the source or /UseCMap in the dictionary
                        // names the predefined CMap this one extends.
                        let base_name = cmap.use_cmap.clone().or_else(|| {
                            get_stream(doc, dict, b"Encoding")
                                .and_then(|s| get_name(doc, &s.dict, b"UseCMap"))
                                .map(<[u8]>::to_vec)
                        });
                        let base = base_name.map(|n| Box::new(CidEncoding::predefined(&n)));
                        let vertical = cmap.vertical;
                        (CidEncoding::Embedded(cmap, base), vertical)
                    }
                    None => (CidEncoding::Identity, false),
                }
            }
            _ => (CidEncoding::Identity, false),
        };

        let descendant = get_array(doc, dict, b"DescendantFonts")
            .and_then(|a| a.first())
            .and_then(|o| objects::as_dict(doc, o));
        let default_width = descendant
            .and_then(|d| get_number(doc, d, b"DW"))
            .unwrap_or(1000.0);
        let widths = descendant
            .and_then(|d| get_array(doc, d, b"W"))
            .map(|w| parse_cid_widths(doc, w))
            .unwrap_or_default();

        Font {
            kind: Kind::Composite(CompositeFont {
                encoding,
                default_width,
                widths,
            }),
            to_unicode,
            width_scale: 0.001,
            vertical,
        }
    }

    /// Decode the glyph at the start of `bytes` (must be non-empty), append
    /// its text to `out` (U+FFFD when it cannot be decoded), and return its
    /// length and advance.
    pub fn next_glyph(&self, bytes: &[u8], out: &mut String) -> Glyph {
        match &self.kind {
            Kind::Simple(f) => {
                let code = bytes.first().copied().unwrap_or(0);
                let mapped =
                    self.to_unicode_text(u32::from(code), out) || f.encoding.text(code, out);
                if !mapped {
                    out.push(char::REPLACEMENT_CHARACTER);
                }
                let index = i64::from(code) - f.first_char;
                let width = match usize::try_from(index).ok().and_then(|i| f.widths.get(i)) {
                    Some(&w) => w,
                    None if f.has_widths => f.missing_width,
                    None => f
                        .standard
                        .and_then(|s| s.width(f.encoding.glyph_index(code)))
                        .unwrap_or(if f.missing_width > 0.0 {
                            f.missing_width
                        } else {
                            500.0
                        }),
                };
                Glyph {
                    len: 1,
                    width: width * self.width_scale,
                    is_space: code == b' ',
                }
            }
            Kind::Composite(f) => {
                let (code, len) = f.encoding.next_code(bytes);
                let raw = bytes.get(..len).unwrap_or(bytes);
                let mapped = self.to_unicode_text(code, out) || f.encoding.text(code, raw, out);
                if !mapped {
                    out.push(char::REPLACEMENT_CHARACTER);
                }
                let width = f
                    .encoding
                    .cid(code)
                    .and_then(|cid| lookup_width(&f.widths, cid))
                    .unwrap_or(f.default_width);
                Glyph {
                    len,
                    width: width * self.width_scale,
                    is_space: len == 1 && code == 32,
                }
            }
        }
    }

    /// ToUnicode text for `code`; an empty mapping counts as unmapped.
    fn to_unicode_text(&self, code: u32, out: &mut String) -> bool {
        let Some(cmap) = &self.to_unicode else {
            return false;
        };
        let before = out.len();
        cmap.lookup(code, out) && out.len() > before
    }
}

/// Parse a CIDFont `/W` array: `c [w1 w2 ...]` and `cfirst clast w` forms.
fn parse_cid_widths(doc: &Document, items: &[Object]) -> Vec<(u32, u32, f32)> {
    let mut out = Vec::new();
    let mut i = 0;
    let as_cid = |o: &Object| {
        objects::as_number(doc, o)
            .filter(|v| *v >= 0.0)
            .map(|v| v as u32)
    };
    while i < items.len() && out.len() < MAX_WIDTH_ENTRIES {
        let Some(first) = items.get(i).and_then(as_cid) else {
            i += 1;
            continue;
        };
        match items.get(i + 1).and_then(|o| resolve(doc, o)) {
            Some(Object::Array(list)) => {
                for (k, w) in list.iter().enumerate().take(MAX_WIDTH_ENTRIES) {
                    if let Some(w) = objects::as_number(doc, w) {
                        let cid = first.saturating_add(k as u32);
                        out.push((cid, cid, w));
                    }
                }
                i += 2;
            }
            Some(_) => {
                let last = items.get(i + 1).and_then(as_cid);
                let width = items.get(i + 2).and_then(|o| objects::as_number(doc, o));
                if let (Some(last), Some(width)) = (last, width)
                    && last >= first
                {
                    out.push((first, last, width));
                }
                i += 3;
            }
            None => break,
        }
    }
    out.sort_by_key(|e| e.0);
    out
}

fn lookup_width(widths: &[(u32, u32, f32)], cid: u32) -> Option<f32> {
    let idx = widths.partition_point(|e| e.0 <= cid);
    let (_, last, w) = widths.get(idx.checked_sub(1)?)?;
    (cid <= *last).then_some(*w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lopdf::{Stream, dictionary};

    fn decode(font: &Font, bytes: &[u8]) -> (String, Vec<Glyph>) {
        let mut text = String::new();
        let mut glyphs = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            let g = font.next_glyph(rest, &mut text);
            rest = rest.get(g.len..).unwrap_or_default();
            glyphs.push(g);
        }
        (text, glyphs)
    }

    #[test]
    fn cid_widths_both_forms() {
        let doc = Document::new();
        let w: Vec<Object> = vec![
            1.into(),
            vec![500.into(), 600.into()].into(),
            10.into(),
            20.into(),
            250.into(),
        ];
        let widths = parse_cid_widths(&doc, &w);
        assert_eq!(lookup_width(&widths, 1), Some(500.0));
        assert_eq!(lookup_width(&widths, 2), Some(600.0));
        assert_eq!(lookup_width(&widths, 15), Some(250.0));
        assert_eq!(lookup_width(&widths, 21), None);
        assert_eq!(lookup_width(&widths, 0), None);
    }

    #[test]
    fn ucs2_font_without_tounicode() {
        let mut doc = Document::new();
        let cid = doc.add_object(dictionary! {
            "Type" => "Font", "Subtype" => "CIDFontType0", "BaseFont" => "STSong-Light",
            "W" => vec![1.into(), 95.into(), 500.into()],
        });
        let font = dictionary! {
            "Type" => "Font", "Subtype" => "Type0", "BaseFont" => "STSong-Light-UniGB-UCS2-H",
            "Encoding" => "UniGB-UCS2-H", "DescendantFonts" => vec![cid.into()],
        };
        let f = Font::load(&doc, &font, &mut CMapCache::default());
        let (text, glyphs) = decode(&f, b"\x53\xd1\x00\x41");
        assert_eq!(text, "发A");
        assert_eq!(glyphs[0].width, 1.0);
        assert_eq!(glyphs[1].width, 0.5);
    }

    #[test]
    fn gbk_font_without_tounicode() {
        let doc = Document::new();
        let font = dictionary! { "Subtype" => "Type0", "Encoding" => "GBK-EUC-H" };
        let f = Font::load(&doc, &font, &mut CMapCache::default());
        let (text, glyphs) = decode(&f, b"\xb7\xa2\xc6\xb1A1");
        assert_eq!(text, "发票A1");
        assert_eq!(glyphs.len(), 4);
    }

    #[test]
    fn utf16_font_surrogates() {
        let doc = Document::new();
        let font = dictionary! { "Subtype" => "Type0", "Encoding" => "UniGB-UTF16-H" };
        let f = Font::load(&doc, &font, &mut CMapCache::default());
        let (text, glyphs) = decode(&f, b"\xd8\x40\xdc\x00\x4e\x2d");
        assert_eq!(text, "\u{20000}中");
        assert_eq!(glyphs[0].len, 4);
    }

    #[test]
    fn identity_with_tounicode_and_without() {
        let mut doc = Document::new();
        let cmap = doc.add_object(Stream::new(
            dictionary! {},
            b"1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfchar <0005> <7968> endbfchar".to_vec(),
        ));
        let with =
            dictionary! { "Subtype" => "Type0", "Encoding" => "Identity-H", "ToUnicode" => cmap };
        let f = Font::load(&doc, &with, &mut CMapCache::default());
        assert_eq!(decode(&f, b"\x00\x05\x00\x06").0, "票\u{FFFD}");
        let without = dictionary! { "Subtype" => "Type0", "Encoding" => "Identity-V" };
        let f = Font::load(&doc, &without, &mut CMapCache::default());
        assert!(f.vertical);
        // An odd trailing byte still makes progress.
        let (_, glyphs) = decode(&f, b"\x00\x05\x07");
        assert_eq!(glyphs.iter().map(|g| g.len).sum::<usize>(), 3);
    }

    #[test]
    fn simple_font_widths_and_differences() {
        let doc = Document::new();
        let font = dictionary! {
            "Subtype" => "Type1", "BaseFont" => "Helvetica",
            "Encoding" => dictionary! { "BaseEncoding" => "WinAnsiEncoding", "Differences" => vec![66.into(), Object::Name(b"uni7968".to_vec())] },
        };
        let f = Font::load(&doc, &font, &mut CMapCache::default());
        let (text, glyphs) = decode(&f, b"AB ");
        assert_eq!(text, "A票 ");
        assert!((glyphs[0].width - 0.667).abs() < 1e-6);
        assert!(glyphs[2].is_space);
        let font = dictionary! {
            "Subtype" => "TrueType", "FirstChar" => 65, "Widths" => vec![250.into()],
        };
        let f = Font::load(&doc, &font, &mut CMapCache::default());
        let (_, glyphs) = decode(&f, b"AB");
        assert_eq!(glyphs[0].width, 0.25);
        assert_eq!(glyphs[1].width, 0.0);
    }
}
