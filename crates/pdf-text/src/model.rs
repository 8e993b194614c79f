//! The public result types: documents, pages, text runs, attachments and
//! page images.

use crate::layout::{self, Line};

/// Everything extracted from one PDF.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Document {
    /// Pages in reading order of the page tree.
    pub pages: Vec<Page>,
    /// Embedded files, from the `/EmbeddedFiles` name tree and from file
    /// attachment annotations, decompressed.
    pub attachments: Vec<Attachment>,
}

/// One page's text.
///
/// Coordinates are in PDF points (1/72 inch) in the page as displayed: the
/// origin is the top-left corner of the crop box (media box if none), `x`
/// grows to the right and `y` grows **downwards**, and `/Rotate` is applied.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    /// Displayed width in points.
    pub width: f32,
    /// Displayed height in points.
    pub height: f32,
    /// Text runs in drawing order: the page content (with the form XObjects
    /// it calls), then the appearances of visible annotations (stamps, form
    /// fields), as a viewer paints them. Runs lying entirely outside the
    /// page (hidden text some producers park there) are dropped.
    pub runs: Vec<TextRun>,
}

/// A piece of text drawn in one go, without gaps.
///
/// A run is a maximal stretch of non-blank glyphs drawn by one show-text
/// operator (`Tj`, `TJ`, `'`, `"`): whitespace glyphs end a run (and are not
/// part of any), and so does a `TJ` kerning adjustment that opens a gap
/// wider than 0.2 em. So `(2019  07  20) Tj` yields three runs, which lets
/// labels drawn separately in the gaps interleave correctly in
/// [`Page::lines`]. Runs drawn with a zero font size are dropped. In a
/// vertical (`-V`) font each glyph is its own run. Runs are not merged
/// across operators: group them with [`Page::lines`].
///
/// Text is exactly what the font maps to: no Unicode normalisation is done,
/// so some producers' Kangxi radicals (e.g. U+2F08 `⼈` for `人`) or
/// full-width forms come through as-is; apply NFKC if you need to compare.
/// A glyph that cannot be mapped to Unicode becomes U+FFFD.
#[derive(Debug, Clone, PartialEq)]
pub struct TextRun {
    /// The decoded text.
    pub text: String,
    /// Left edge: x of the first glyph's origin.
    pub x: f32,
    /// Baseline y of the first glyph, measured from the top of the page.
    pub y: f32,
    /// x where the last glyph's advance ends (character spacing excluded).
    pub end_x: f32,
    /// Effective font size in points: the `Tf` size scaled by the text and
    /// current transformation matrices.
    pub font_size: f32,
}

/// An embedded file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// File name (`/UF`, else `/F`, else the name-tree key).
    pub name: String,
    /// Decompressed file content.
    pub data: Vec<u8>,
}

/// Where an image is drawn and how many pixels it has, known before any
/// pixel is decoded: what [`crate::ImageQuery`] and the filter of
/// [`crate::page_images_where`] decide on. Fields as in [`PageImage`], with
/// `pixel_width` and `pixel_height` from the image dictionary (before any
/// reduction or turning upright).
#[cfg(feature = "images")]
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ImagePlacement {
    /// Index of the page in [`Document::pages`] order (0-based).
    pub page: usize,
    /// Left edge on the page, in points.
    pub x: f32,
    /// Top edge on the page, in points from the top.
    pub y: f32,
    /// Drawn width in points.
    pub width_pt: f32,
    /// Drawn height in points.
    pub height_pt: f32,
    /// `/Width` of the image.
    pub pixel_width: usize,
    /// `/Height` of the image.
    pub pixel_height: usize,
}

/// An image drawn on a page, decoded to 8-bit grey levels.
///
/// Placement uses the same coordinates as [`Page`]: points, origin at the
/// top-left of the displayed page, `y` growing downwards. `x`, `y`,
/// `width_pt` and `height_pt` are the bounding box of the image as drawn
/// (by the current transformation matrix at its `Do` or inline `BI`).
///
/// The pixels are turned upright: when the image is drawn rotated by a
/// multiple of 90° and/or mirrored, `luma` is re-ordered so that it reads as
/// the page shows it, row 0 at the top. Skewed or arbitrarily rotated images
/// keep their sample order.
#[cfg(feature = "images")]
#[derive(Debug, Clone, PartialEq)]
pub struct PageImage {
    /// Index of the page in [`Document::pages`] order (0-based).
    pub page: usize,
    /// Left edge on the page, in points.
    pub x: f32,
    /// Top edge on the page, in points from the top.
    pub y: f32,
    /// Drawn width in points.
    pub width_pt: f32,
    /// Drawn height in points.
    pub height_pt: f32,
    /// Pixels per row of `luma`.
    pub pixel_width: usize,
    /// Rows of `luma`.
    pub pixel_height: usize,
    /// `pixel_width * pixel_height` grey levels, row-major, 0 black to 255
    /// white. Transparency (soft masks, stencil and colour-key masks) is
    /// composited over white paper; stencil masks paint black.
    pub luma: Vec<u8>,
}

impl Page {
    /// The runs grouped into visual lines, top to bottom, each left to right.
    /// See [`Line`] for the grouping rules.
    pub fn lines(&self) -> Vec<Line> {
        layout::group_lines(&self.runs)
    }

    /// The page's text: one [`Line::text`] per line, each ending in `\n`.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for line in self.lines() {
            out.push_str(&line.text());
            out.push('\n');
        }
        out
    }
}

impl Document {
    /// All pages' [`Page::text`], separated by a form feed (`\u{c}`).
    pub fn plain_text(&self) -> String {
        self.pages
            .iter()
            .map(Page::text)
            .collect::<Vec<_>>()
            .join("\u{c}")
    }

    /// The first attachment whose name ends with `suffix` (ASCII
    /// case-insensitive), e.g. `".xml"`.
    pub fn attachment_with_suffix(&self, suffix: &str) -> Option<&Attachment> {
        let suffix = suffix.to_ascii_lowercase();
        self.attachments
            .iter()
            .find(|a| a.name.to_ascii_lowercase().ends_with(&suffix))
    }
}
