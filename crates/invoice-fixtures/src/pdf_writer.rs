//! Low-level PDF building: pages of positioned text, lines and images in the fonts real
//! e-invoices use, serialised deterministically with lopdf.
//!
//! Coordinates are given as on the page's text dump: `x` from the left, `y` (text baseline)
//! from the top, in points. Chinese text uses the non-embedded Type0 font `STSong-Light` with
//! the predefined CMap `UniGB-UCS2-H`, so the strings are plain UCS-2 big-endian; ASCII values
//! may use the standard Helvetica and Courier. Nothing time- or random-dependent is written:
//! no `/ID`, no dates.

use std::fmt::Write as _;
use std::io::Write as _;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use lopdf::{Dictionary, Document, Object, ObjectId, Stream, StringFormat, dictionary};

/// The three fonts every page has in its resources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Font {
    /// `STSong-Light`, Adobe-GB1, `UniGB-UCS2-H`: CJK ideographs 1 em, ASCII half width.
    Song,
    /// The same font with a ToUnicode map into the private-use area, as some producers write
    /// their label fonts: drawn right, extracted as junk.
    SongUnmapped,
    /// Standard Helvetica, WinAnsiEncoding.
    Helvetica,
    /// Standard Courier, WinAnsiEncoding.
    Courier,
}

/// Helvetica advance widths for U+0020..=U+007E (from the standard AFM).
const HELVETICA_ASCII: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

impl Font {
    fn resource_name(self) -> &'static str {
        match self {
            Self::Song => "F1",
            Self::SongUnmapped => "F4",
            Self::Helvetica => "F2",
            Self::Courier => "F3",
        }
    }

    /// Advance of one character in 1/1000 em.
    fn advance(self, c: char) -> f32 {
        let ascii = u32::from(c).checked_sub(0x20).filter(|&i| i < 95);
        match self {
            Self::Song | Self::SongUnmapped => {
                if ascii.is_some() {
                    500.0
                } else {
                    1000.0
                }
            }
            Self::Courier => 600.0,
            Self::Helvetica => ascii
                .and_then(|i| HELVETICA_ASCII.get(i as usize))
                .map_or(556.0, |&w| f32::from(w)),
        }
    }

    /// Width of `text` at `size` points.
    pub(crate) fn width(self, text: &str, size: f32) -> f32 {
        text.chars().map(|c| self.advance(c)).sum::<f32>() * size / 1000.0
    }

    /// The string operand: UCS-2 hex for the CJK font, a literal WinAnsi string otherwise.
    fn operand(self, text: &str) -> String {
        match self {
            Self::Song | Self::SongUnmapped => {
                let mut out = String::from("<");
                for unit in text.encode_utf16() {
                    let _ = write!(out, "{unit:04X}");
                }
                out.push('>');
                out
            }
            Self::Helvetica | Self::Courier => {
                let mut out = String::from("(");
                for c in text.chars() {
                    match c {
                        '(' | ')' | '\\' => {
                            out.push('\\');
                            out.push(c);
                        }
                        ' '..='~' => out.push(c),
                        // WinAnsi 0xA5; octal keeps the content stream ASCII.
                        '¥' => out.push_str("\\245"),
                        _ => out.push('?'),
                    }
                }
                out.push(')');
                out
            }
        }
    }
}

/// An RGB colour, components 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Rgb(pub f32, pub f32, pub f32);

pub(crate) const BLACK: Rgb = Rgb(0.0, 0.0, 0.0);

/// What a drawing operation is, for the labels-first reordering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layer {
    Graphics,
    Label,
    Value,
}

/// How a piece of text is drawn.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TextStyle {
    pub font: Font,
    pub size: f32,
    pub color: Rgb,
    /// Horizontal scaling in percent (`Tz`), 100 for none.
    pub scale: f32,
    /// Rotated 90° clockwise (reads top to bottom), as margin stamps are.
    pub rotated: bool,
}

impl TextStyle {
    pub(crate) fn new(font: Font, size: f32, color: Rgb) -> Self {
        Self {
            font,
            size,
            color,
            scale: 100.0,
            rotated: false,
        }
    }

    pub(crate) fn scaled(self, scale: f32) -> Self {
        Self { scale, ..self }
    }

    pub(crate) fn rotated(self) -> Self {
        Self {
            rotated: true,
            ..self
        }
    }

    /// Width of `text` in this style.
    pub(crate) fn width(&self, text: &str) -> f32 {
        self.font.width(text, self.size) * self.scale / 100.0
    }
}

/// An 8-bit greyscale image (the QR code).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GrayImage {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

/// One page under construction.
#[derive(Debug, Clone)]
pub(crate) struct Page {
    pub width: f32,
    pub height: f32,
    ops: Vec<(Layer, String)>,
    images: Vec<GrayImage>,
    /// See [`crate::invoice::Style::labels_first`].
    pub labels_first: bool,
}

/// Numbers in content streams: at most two decimals, no trailing zeros.
fn num(value: f32) -> String {
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_owned()
    } else {
        text.to_owned()
    }
}

impl Page {
    pub(crate) fn new(width: f32, height: f32) -> Self {
        Self {
            width,
            height,
            ops: Vec::new(),
            images: Vec::new(),
            labels_first: false,
        }
    }

    fn push(&mut self, layer: Layer, op: String) {
        self.ops.push((layer, op));
    }

    /// Draws `text` with its baseline at (`x`, `y`).
    pub(crate) fn text(&mut self, layer: Layer, style: TextStyle, x: f32, y: f32, text: &str) {
        if text.is_empty() {
            return;
        }
        let Rgb(r, g, b) = style.color;
        let mut op = format!(
            "q {} {} {} rg BT /{} {} Tf ",
            num(r),
            num(g),
            num(b),
            style.font.resource_name(),
            num(style.size)
        );
        if (style.scale - 100.0).abs() > f32::EPSILON {
            let _ = write!(op, "{} Tz ", num(style.scale));
        }
        let base = self.height - y;
        if style.rotated {
            let _ = write!(op, "0 -1 1 0 {} {} Tm ", num(x), num(base));
        } else {
            let _ = write!(op, "1 0 0 1 {} {} Tm ", num(x), num(base));
        }
        let _ = write!(op, "{} Tj ET Q", style.font.operand(text));
        self.push(layer, op);
    }

    /// Draws `text` ending at `right`.
    pub(crate) fn text_right(
        &mut self,
        layer: Layer,
        style: TextStyle,
        right: f32,
        y: f32,
        text: &str,
    ) {
        let x = right - style.width(text);
        self.text(layer, style, x, y, text);
    }

    /// Draws `text` centred on `center`.
    pub(crate) fn text_center(
        &mut self,
        layer: Layer,
        style: TextStyle,
        center: f32,
        y: f32,
        text: &str,
    ) {
        let x = center - style.width(text) / 2.0;
        self.text(layer, style, x, y, text);
    }

    /// Draws each character as its own text object, `gap` points apart beyond its advance, as
    /// OFD-to-PDF converters do. Returns the x after the last character.
    pub(crate) fn text_spaced(
        &mut self,
        layer: Layer,
        style: TextStyle,
        x: f32,
        y: f32,
        gap: f32,
        text: &str,
    ) -> f32 {
        let mut cursor = x;
        let mut buffer = [0_u8; 4];
        for c in text.chars() {
            let glyph: &str = c.encode_utf8(&mut buffer);
            self.text(layer, style, cursor, y, glyph);
            cursor += style.width(glyph) + gap;
        }
        cursor - gap
    }

    /// A straight line.
    pub(crate) fn line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, color: Rgb) {
        let Rgb(r, g, b) = color;
        let op = format!(
            "q {} w {} {} {} RG {} {} m {} {} l S Q",
            num(width),
            num(r),
            num(g),
            num(b),
            num(from.0),
            num(self.height - from.1),
            num(to.0),
            num(self.height - to.1)
        );
        self.push(Layer::Graphics, op);
    }

    /// A dashed straight line.
    pub(crate) fn dashed_line(&mut self, from: (f32, f32), to: (f32, f32), width: f32, color: Rgb) {
        let Rgb(r, g, b) = color;
        let op = format!(
            "q [4 2] 0 d {} w {} {} {} RG {} {} m {} {} l S Q",
            num(width),
            num(r),
            num(g),
            num(b),
            num(from.0),
            num(self.height - from.1),
            num(to.0),
            num(self.height - to.1)
        );
        self.push(Layer::Graphics, op);
    }

    /// The outline of a rectangle whose top-left corner is (`x`, `top`).
    pub(crate) fn rect(
        &mut self,
        x: f32,
        top: f32,
        width: f32,
        height: f32,
        line_width: f32,
        color: Rgb,
    ) {
        let Rgb(r, g, b) = color;
        let op = format!(
            "q {} w {} {} {} RG {} {} {} {} re S Q",
            num(line_width),
            num(r),
            num(g),
            num(b),
            num(x),
            num(self.height - top - height),
            num(width),
            num(height)
        );
        self.push(Layer::Graphics, op);
    }

    /// A filled rectangle whose top-left corner is (`x`, `top`).
    pub(crate) fn fill_rect(&mut self, x: f32, top: f32, width: f32, height: f32, color: Rgb) {
        let Rgb(r, g, b) = color;
        let op = format!(
            "q {} {} {} rg {} {} {} {} re f Q",
            num(r),
            num(g),
            num(b),
            num(x),
            num(self.height - top - height),
            num(width),
            num(height)
        );
        self.push(Layer::Graphics, op);
    }

    /// The outline of an ellipse centred on (`cx`, `cy`).
    pub(crate) fn ellipse(
        &mut self,
        center: (f32, f32),
        rx: f32,
        ry: f32,
        line_width: f32,
        color: Rgb,
    ) {
        // Four cubic Béziers with the usual circle constant.
        const K: f32 = 0.552_284_8;
        let (cx, cy) = (center.0, self.height - center.1);
        let Rgb(r, g, b) = color;
        let p = |x: f32, y: f32| format!("{} {}", num(x), num(y));
        let op = format!(
            "q {} w {} {} {} RG {} m {} {} {} c {} {} {} c {} {} {} c {} {} {} c S Q",
            num(line_width),
            num(r),
            num(g),
            num(b),
            p(cx + rx, cy),
            p(cx + rx, cy + K * ry),
            p(cx + K * rx, cy + ry),
            p(cx, cy + ry),
            p(cx - K * rx, cy + ry),
            p(cx - rx, cy + K * ry),
            p(cx - rx, cy),
            p(cx - rx, cy - K * ry),
            p(cx - K * rx, cy - ry),
            p(cx, cy - ry),
            p(cx + K * rx, cy - ry),
            p(cx + rx, cy - K * ry),
            p(cx + rx, cy),
        );
        self.push(Layer::Graphics, op);
    }

    /// The ⊗ mark printed before 大写 amounts (drawn, not text, as real invoices do).
    pub(crate) fn circled_cross(&mut self, center: (f32, f32), radius: f32, color: Rgb) {
        self.ellipse(center, radius, radius, 0.6, color);
        let d = radius * 0.7;
        self.line(
            (center.0 - d, center.1 - d),
            (center.0 + d, center.1 + d),
            0.6,
            color,
        );
        self.line(
            (center.0 - d, center.1 + d),
            (center.0 + d, center.1 - d),
            0.6,
            color,
        );
    }

    /// Places `image` with its top-left corner at (`x`, `top`), `size` points square.
    pub(crate) fn image(&mut self, image: GrayImage, x: f32, top: f32, size: f32) {
        self.images.push(image);
        let name = format!("Im{}", self.images.len());
        let op = format!(
            "q {} 0 0 {} {} {} cm /{name} Do Q",
            num(size),
            num(size),
            num(x),
            num(self.height - top - size)
        );
        self.push(Layer::Graphics, op);
    }

    /// The content stream. With `labels_first`, graphics and labels keep their order and come
    /// first, then the values in reverse.
    fn content(&self) -> Vec<u8> {
        let mut out = String::new();
        if self.labels_first {
            let not_values = self.ops.iter().filter(|(layer, _)| *layer != Layer::Value);
            let values = self
                .ops
                .iter()
                .rev()
                .filter(|(layer, _)| *layer == Layer::Value);
            for (_, op) in not_values.chain(values) {
                out.push_str(op);
                out.push('\n');
            }
        } else {
            for (_, op) in &self.ops {
                out.push_str(op);
                out.push('\n');
            }
        }
        out.into_bytes()
    }
}

/// A file embedded in the PDF (the railway ticket's XML).
#[derive(Debug, Clone)]
pub(crate) struct Attachment {
    pub name: String,
    pub data: Vec<u8>,
}

/// A whole PDF.
#[derive(Debug, Clone, Default)]
pub(crate) struct PdfFile {
    pub pages: Vec<Page>,
    pub attachments: Vec<Attachment>,
    /// Each page's content drawn inside a form XObject (`q /Fr1 Do Q`), as OFD-converted
    /// railway tickets are.
    pub form_xobjects: bool,
}

/// Deflate with a fixed level: same input, same bytes.
fn deflate(data: &[u8]) -> Vec<u8> {
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::best());
    // Writing into a Vec cannot fail; finish() only reports the writer's errors.
    let _ = encoder.write_all(data);
    encoder.finish().unwrap_or_default()
}

fn compressed_stream(mut dict: Dictionary, data: &[u8]) -> Stream {
    dict.set("Filter", Object::Name(b"FlateDecode".to_vec()));
    Stream::new(dict, deflate(data)).with_compression(false)
}

/// A PDF text string: PDFDocEncoding-safe ASCII as a literal, anything else as UTF-16BE
/// with BOM.
fn text_string(text: &str) -> Object {
    if text.is_ascii() {
        Object::String(text.as_bytes().to_vec(), StringFormat::Literal)
    } else {
        let mut bytes = vec![0xFE, 0xFF];
        for unit in text.encode_utf16() {
            bytes.extend_from_slice(&unit.to_be_bytes());
        }
        Object::String(bytes, StringFormat::Hexadecimal)
    }
}

impl PdfFile {
    /// Serialises the file.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut doc = Document::with_version("1.7");
        let pages_id = doc.new_object_id();
        let fonts = add_fonts(&mut doc);

        let mut kids = Vec::new();
        for page in &self.pages {
            let mut xobjects = Dictionary::new();
            for (index, image) in page.images.iter().enumerate() {
                let dict = dictionary! {
                    "Type" => "XObject",
                    "Subtype" => "Image",
                    "Width" => i64::from(image.width),
                    "Height" => i64::from(image.height),
                    "ColorSpace" => "DeviceGray",
                    "BitsPerComponent" => 8,
                };
                let id = doc.add_object(compressed_stream(dict, &image.pixels));
                xobjects.set(format!("Im{}", index + 1), Object::Reference(id));
            }
            let resources = dictionary! {
                "Font" => fonts.clone(),
                "XObject" => xobjects,
            };
            let media_box: Vec<Object> =
                vec![0.into(), 0.into(), page.width.into(), page.height.into()];
            let content = page.content();
            let (resources, contents_id) = if self.form_xobjects {
                let form = dictionary! {
                    "Type" => "XObject",
                    "Subtype" => "Form",
                    "BBox" => media_box.clone(),
                    "Resources" => resources,
                };
                let form_id = doc.add_object(compressed_stream(form, &content));
                let outer = dictionary! { "XObject" => dictionary! { "Fr1" => form_id } };
                let contents = compressed_stream(Dictionary::new(), b"q\n/Fr1 Do\nQ\n");
                (outer, doc.add_object(contents))
            } else {
                (
                    resources,
                    doc.add_object(compressed_stream(Dictionary::new(), &content)),
                )
            };
            let page_id = doc.add_object(dictionary! {
                "Type" => "Page",
                "Parent" => pages_id,
                "MediaBox" => media_box,
                "Resources" => resources,
                "Contents" => contents_id,
            });
            kids.push(Object::Reference(page_id));
        }
        let count = i64::try_from(kids.len()).unwrap_or_default();
        doc.objects.insert(
            pages_id,
            Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => kids, "Count" => count }),
        );

        let mut catalog = dictionary! { "Type" => "Catalog", "Pages" => pages_id };
        if !self.attachments.is_empty() {
            catalog.set(
                "Names",
                dictionary! { "EmbeddedFiles" => embedded_files(&mut doc, &self.attachments) },
            );
        }
        let catalog_id = doc.add_object(catalog);
        let info_id = doc.add_object(dictionary! {
            "Producer" => Object::string_literal("reimburse invoice-fixtures"),
        });
        doc.trailer.set("Root", catalog_id);
        doc.trailer.set("Info", info_id);

        let mut bytes = Vec::new();
        // Saving into a Vec performs no IO that could fail.
        let _ = doc.save_to(&mut bytes);
        bytes
    }
}

/// The font dictionary shared by every page: F1 STSong-Light, F2 Helvetica, F3 Courier.
fn add_fonts(doc: &mut Document) -> Dictionary {
    let descriptor = doc.add_object(dictionary! {
        "Type" => "FontDescriptor",
        "FontName" => "STSong-Light",
        "Flags" => 6,
        "FontBBox" => vec![(-25).into(), (-254).into(), 1000.into(), 880.into()],
        "ItalicAngle" => 0,
        "Ascent" => 880,
        "Descent" => -120,
        "CapHeight" => 880,
        "StemV" => 93,
    });
    let descendant = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "CIDFontType0",
        "BaseFont" => "STSong-Light",
        "CIDSystemInfo" => dictionary! {
            "Registry" => Object::string_literal("Adobe"),
            "Ordering" => Object::string_literal("GB1"),
            "Supplement" => 4,
        },
        "FontDescriptor" => descriptor,
        "DW" => 1000,
        // CIDs 1..=95 are the proportional Latin glyphs (U+0020..U+007E): half width.
        "W" => vec![1.into(), 95.into(), 500.into()],
    });
    let song = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type0",
        "BaseFont" => "STSong-Light-UniGB-UCS2-H",
        "Encoding" => "UniGB-UCS2-H",
        "DescendantFonts" => vec![Object::Reference(descendant)],
    });
    let private_use = doc.add_object(compressed_stream(
        Dictionary::new(),
        private_use_cmap().as_bytes(),
    ));
    let unmapped = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type0",
        "BaseFont" => "STSong-Light-UniGB-UCS2-H",
        "Encoding" => "UniGB-UCS2-H",
        "DescendantFonts" => vec![Object::Reference(descendant)],
        "ToUnicode" => private_use,
    });
    let simple = |doc: &mut Document, name: &str| {
        doc.add_object(dictionary! {
            "Type" => "Font",
            "Subtype" => "Type1",
            "BaseFont" => name,
            "Encoding" => "WinAnsiEncoding",
        })
    };
    let helvetica = simple(doc, "Helvetica");
    let courier = simple(doc, "Courier");
    dictionary! { "F1" => song, "F2" => helvetica, "F3" => courier, "F4" => unmapped }
}

/// A ToUnicode CMap sending every two-byte code into the private-use area (U+E000..U+F8FF).
fn private_use_cmap() -> String {
    let mut out = String::from(
        "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n\
         /CMapName /Reimburse-PUA def\n/CMapType 2 def\n\
         1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n",
    );
    let highs: Vec<u32> = (0..=0xFF).collect();
    for chunk in highs.chunks(100) {
        let _ = writeln!(out, "{} beginbfrange", chunk.len());
        for &high in chunk {
            let _ = writeln!(
                out,
                "<{:04X}> <{:04X}> <{:04X}>",
                high << 8,
                (high << 8) | 0xFF,
                0xE000 + (high % 25) * 0x100
            );
        }
        out.push_str("endbfrange\n");
    }
    out.push_str("endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
    out
}

/// The `/EmbeddedFiles` name tree for `attachments`.
fn embedded_files(doc: &mut Document, attachments: &[Attachment]) -> Dictionary {
    let mut names: Vec<Object> = Vec::new();
    for attachment in attachments {
        let size = i64::try_from(attachment.data.len()).unwrap_or_default();
        let file: ObjectId = doc.add_object(compressed_stream(
            dictionary! {
                "Type" => "EmbeddedFile",
                "Subtype" => "text/xml",
                "Params" => dictionary! { "Size" => size },
            },
            &attachment.data,
        ));
        let spec = doc.add_object(dictionary! {
            "Type" => "Filespec",
            "F" => text_string(&attachment.name),
            "UF" => text_string(&attachment.name),
            "EF" => dictionary! { "F" => file },
        });
        names.push(text_string(&attachment.name));
        names.push(Object::Reference(spec));
    }
    dictionary! { "Names" => names }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_stable() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(0.501_96), "0.5");
        assert_eq!(num(-0.001), "0");
    }

    #[test]
    fn operands_encode_per_font() {
        assert_eq!(Font::Song.operand("发票1"), "<53D179680031>");
        assert_eq!(Font::Helvetica.operand("¥(1)"), "(\\245\\(1\\))");
        assert!((Font::Song.width("发票12", 10.0) - 30.0).abs() < 0.01);
        assert!((Font::Courier.width("12", 10.0) - 12.0).abs() < 0.01);
    }

    #[test]
    fn labels_first_moves_values_last_in_reverse() {
        let mut page = Page::new(100.0, 100.0);
        let style = TextStyle::new(Font::Helvetica, 9.0, BLACK);
        page.text(Layer::Value, style, 1.0, 10.0, "v1");
        page.text(Layer::Label, style, 1.0, 10.0, "l1");
        page.text(Layer::Value, style, 1.0, 10.0, "v2");
        page.labels_first = true;
        let content = String::from_utf8(page.content()).unwrap_or_default();
        let order: Vec<usize> = ["(l1)", "(v2)", "(v1)"]
            .iter()
            .filter_map(|s| content.find(s))
            .collect();
        assert_eq!(order.len(), 3);
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{content}");
    }

    #[test]
    fn same_file_same_bytes() {
        let build = || {
            let mut page = Page::new(595.28, 396.85);
            page.text(
                Layer::Label,
                TextStyle::new(Font::Song, 20.0, BLACK),
                193.0,
                40.0,
                "电子发票",
            );
            PdfFile {
                pages: vec![page],
                ..PdfFile::default()
            }
            .to_bytes()
        };
        let bytes = build();
        assert!(bytes.starts_with(b"%PDF-1.7"));
        assert_eq!(bytes, build());
    }
}
