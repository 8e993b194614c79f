//! What extraction asks of an OCR engine when a page's text layer is missing or lies. The
//! engine (rendering and recognition) lives outside this crate, which stays pure: the caller
//! passes one in, or none, and then such pages are read from what the text layer says
//! truthfully plus the QR code.

/// A box on a page in points, origin top-left (`y` grows downwards, as in
/// [`reimburse_pdf_text::Page`](pdf_text::Page)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Region {
    /// Left edge.
    pub x0: f32,
    /// Top edge.
    pub top: f32,
    /// Right edge.
    pub x1: f32,
    /// Bottom edge.
    pub bottom: f32,
}

/// A line of text an engine read, with its box.
#[derive(Debug, Clone, PartialEq)]
pub struct OcrLine {
    /// What was read.
    pub text: String,
    /// Where it was read on the page; its height is taken as the font size.
    pub region: Region,
}

/// An 8-bit grey image extraction prepared (a seal's ring unrolled), row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineImage {
    /// Pixels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `width * height` grey levels, row-major, 0 black to 255 white.
    pub pixels: Vec<u8>,
}

/// Which page of a PDF, and its size in points (what regions are measured against).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageRef {
    /// 0-based.
    pub index: usize,
    /// Displayed width in points.
    pub width: f32,
    /// Displayed height in points.
    pub height: f32,
}

/// Renders pages of a PDF and reads text from them: the OCR engine a caller hands to
/// [`extract_with`](crate::extract_with) or [`extract_pdf_with`](crate::extract_pdf_with).
///
/// Extraction asks for three things: the labels a lying text layer drew without a usable
/// mapping ([`read_regions`](PageReader::read_regions)), a whole page that has no text layer
/// ([`read_page`](PageReader::read_page)), and the ring of a seal it unrolled into a strip
/// ([`read_line`](PageReader::read_line)). An `Err` (its text is the engine's own message) is
/// taken as "nothing read": extraction goes on with what the text layer says.
///
/// ```
/// use reimburse_extraction::{LineImage, OcrLine, PageReader, PageRef, Region};
///
/// /// An engine that reads nothing, to show the shape of one.
/// struct Blind;
///
/// impl PageReader for Blind {
///     fn read_regions(
///         &self,
///         _pdf: &[u8],
///         _page: PageRef,
///         regions: &[Region],
///         _alphabet: &str,
///     ) -> Result<Vec<Vec<String>>, String> {
///         Ok(vec![Vec::new(); regions.len()])
///     }
///
///     fn read_page(&self, _pdf: &[u8], _page: PageRef) -> Result<Vec<OcrLine>, String> {
///         Err("no engine".to_owned())
///     }
///
///     fn read_line(&self, _image: &LineImage) -> Result<String, String> {
///         Err("no engine".to_owned())
///     }
/// }
///
/// // A text layer that tells the truth needs no engine: the record is the same.
/// let invoice = invoice_fixtures::office_supply_batch("ocr", 1).pop().ok_or("no invoice")?;
/// let record = reimburse_extraction::extract_with(&invoice.bytes, "invoice.pdf", Some(&Blind))?;
/// assert_eq!(record, invoice.expected);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait PageReader {
    /// The readings of the text inside each region of the page, per region in order, most
    /// trusted first (`""` where nothing was read). The text is known to use only the
    /// characters of `alphabet`.
    fn read_regions(
        &self,
        pdf: &[u8],
        page: PageRef,
        regions: &[Region],
        alphabet: &str,
    ) -> Result<Vec<Vec<String>>, String>;

    /// Every word or line of text on the page, with its box.
    fn read_page(&self, pdf: &[u8], page: PageRef) -> Result<Vec<OcrLine>, String>;

    /// The one line of text an image holds.
    fn read_line(&self, image: &LineImage) -> Result<String, String>;
}
