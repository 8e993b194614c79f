//! What extraction asks of an OCR engine when a page's text layer is missing or lies. The
//! engine (rendering and recognition) lives outside this crate, which stays pure: the caller
//! passes one in, or none, and then such pages are read from what the text layer says
//! truthfully plus the QR code.

/// A box on a page in points, origin top-left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Region {
    pub x0: f32,
    pub top: f32,
    pub x1: f32,
    pub bottom: f32,
}

/// A line of text an engine read, with its box.
#[derive(Debug, Clone, PartialEq)]
pub struct OcrLine {
    pub text: String,
    pub region: Region,
}

/// An 8-bit grey image extraction prepared (a seal's ring unrolled), row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineImage {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

/// Which page of a PDF, and its size in points (what regions are measured against).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageRef {
    /// 0-based.
    pub index: usize,
    pub width: f32,
    pub height: f32,
}

/// Renders pages of a PDF and reads text from them.
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
