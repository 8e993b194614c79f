//! [`PageOcr`]: extraction's [`PageReader`] over pdftoppm and PP-OCR (`pp-ocr`, in process).

use crate::error::PageOcrError;
use crate::gray::{Gray, Rect};
use crate::render::{LONG_SIDE, render_page};
use extraction::{LineImage, OcrLine, PageReader, PageRef, Region};
use std::sync::OnceLock;

/// Detection size for a whole rendered page (A4 at 300 dpi is 3508 px long): an invoice's
/// small print needs more than a phone screen's 960 px.
const PAGE_DETECT: u32 = 2400;

/// Reads invoice pages for extraction (it implements
/// [`reimburse_extraction::PageReader`](PageReader)); the
/// PP-OCR models are loaded on first use and shared by every page read through it.
#[derive(Debug, Default)]
pub struct PageOcr {
    engine: OnceLock<Result<pp_ocr::Engine, String>>,
}

impl PageOcr {
    /// A reader that loads nothing yet: the models are found (see
    /// `reimburse_pp_ocr::models_dir`) when the first page is read.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the renderer and the OCR models are there; the error names the install command.
    pub fn check() -> Result<(), PageOcrError> {
        std::process::Command::new("pdftoppm")
            .arg("-v")
            .output()
            .map_err(|e| PageOcrError::Render(format!("pdftoppm: {e}")))?;
        if pp_ocr::models_dir().is_none() {
            return Err(PageOcrError::Ocr("未找到 models/pp-ocr".into()));
        }
        Ok(())
    }

    fn engine(&self) -> Result<&pp_ocr::Engine, PageOcrError> {
        self.engine
            .get_or_init(|| pp_ocr::Engine::find().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| PageOcrError::Ocr(e.clone()))
    }

    /// The page rendered, and its pixels per point across and down.
    fn rendered(pdf: &[u8], page: PageRef) -> Result<(Gray, f32, f32), PageOcrError> {
        let image = render_page(pdf, page.index, LONG_SIDE)?;
        let sx = image.width as f32 / page.width.max(1.0);
        let sy = image.height as f32 / page.height.max(1.0);
        Ok((image, sx, sy))
    }

    fn regions(
        &self,
        pdf: &[u8],
        page: PageRef,
        regions: &[Region],
        alphabet: &str,
    ) -> Result<Vec<Vec<String>>, PageOcrError> {
        let (image, sx, sy) = Self::rendered(pdf, page)?;
        let crops: Vec<Option<Rect>> = regions
            .iter()
            .map(|r| {
                // Some room above and below, as the recogniser was trained with; little to
                // the sides, where a value often starts right after its label.
                let pad = 0.2 * (r.bottom - r.top) * sy;
                let side = 0.05 * (r.bottom - r.top) * sx;
                image.clamp(
                    r.x0 * sx - side,
                    r.top * sy - pad,
                    r.x1 * sx + side,
                    r.bottom * sy + pad,
                )
            })
            .collect();
        let (present, images): (Vec<usize>, Vec<image::RgbImage>) = crops
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|r| (i, rgb(&image, r))))
            .unzip();
        let engine = self.engine()?;
        let alphabet = (!alphabet.is_empty()).then_some(alphabet);
        // The labels' characters only: a free reading of a colon or a stray mark is an
        // ideograph (`下`) that would pass into the value beside it.
        let restricted = engine
            .recognize(&images, alphabet)
            .map_err(|e| PageOcrError::Ocr(e.to_string()))?;
        let mut readings = vec![vec![String::new()]; regions.len()];
        for (i, r) in present.into_iter().zip(restricted) {
            readings[i] = vec![r];
        }
        Ok(readings)
    }

    fn page(&self, pdf: &[u8], page: PageRef) -> Result<Vec<OcrLine>, PageOcrError> {
        let (image, sx, sy) = Self::rendered(pdf, page)?;
        let whole = Rect {
            x: 0,
            y: 0,
            w: image.width,
            h: image.height,
        };
        let lines = self
            .engine()?
            .read_document(&rgb(&image, whole), PAGE_DETECT)
            .map_err(|e| PageOcrError::Ocr(e.to_string()))?;
        Ok(lines
            .into_iter()
            .map(|l| OcrLine {
                text: l.text,
                region: Region {
                    x0: l.x0 as f32 / sx,
                    top: l.y0 as f32 / sy,
                    x1: l.x1 as f32 / sx,
                    bottom: l.y1 as f32 / sy,
                },
            })
            .collect())
    }
}

/// A crop of the grey image as RGB, what the recogniser takes.
fn rgb(image: &Gray, r: Rect) -> image::RgbImage {
    image::RgbImage::from_fn(r.w.max(1), r.h.max(1), |x, y| {
        let i = (r.y + y) as usize * image.width as usize + (r.x + x) as usize;
        let v = image.pixels.get(i).copied().unwrap_or(255);
        image::Rgb([v, v, v])
    })
}

impl PageReader for PageOcr {
    fn read_regions(
        &self,
        pdf: &[u8],
        page: PageRef,
        regions: &[Region],
        alphabet: &str,
    ) -> Result<Vec<Vec<String>>, String> {
        self.regions(pdf, page, regions, alphabet)
            .map_err(|e| e.to_string())
    }

    fn read_page(&self, pdf: &[u8], page: PageRef) -> Result<Vec<OcrLine>, String> {
        self.page(pdf, page).map_err(|e| e.to_string())
    }

    fn read_line(&self, image: &LineImage) -> Result<String, String> {
        let gray = Gray {
            width: image.width,
            height: image.height,
            pixels: image.pixels.clone(),
        };
        let whole = Rect {
            x: 0,
            y: 0,
            w: image.width,
            h: image.height,
        };
        let engine = self.engine().map_err(|e| e.to_string())?;
        engine
            .recognize(&[rgb(&gray, whole)], None)
            .map(|t| t.concat())
            .map_err(|e| e.to_string())
    }
}
