//! [`PageOcr`]: extraction's [`PageReader`] over pdftoppm and tesseract.

use crate::error::PageOcrError;
use crate::gray::{Gray, Rect};
use crate::render::{LONG_SIDE, render};
use crate::tsv;
use extraction::{LineImage, OcrLine, PageReader, PageRef, Region};
use std::sync::Mutex;
use std::time::Duration;
use tesseract_lib::Engine;

/// tesseract's "one uniform block of text": label crops and a whole invoice page read
/// best this way (automatic segmentation splits a form's cells into scattered blocks).
const PSM_BLOCK: u8 = 6;
/// "A single character": a one-glyph label (`合`, `购`).
const PSM_CHAR: u8 = 10;
/// "A single text line": a seal's unrolled ring.
const PSM_LINE: u8 = 7;

/// Crops stacked into one image at most (a bound on its size; readings do not depend on it).
const STACK_CROPS: usize = 40;

/// How long one recognition may take.
const TIMEOUT: Duration = Duration::from_secs(30);

/// Reads invoice pages; holds warm `chi_sim` models, loaded on first use: one for whole pages,
/// one restricted to the alphabet of the last region reading.
#[derive(Debug, Default)]
pub struct PageOcr {
    engine: Mutex<Option<Engine>>,
    restricted: Mutex<Option<(String, Engine)>>,
}

impl PageOcr {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether the renderer and the OCR engine are there; the error names the install command.
    pub fn check() -> Result<(), PageOcrError> {
        std::process::Command::new("pdftoppm")
            .arg("-v")
            .output()
            .map_err(|e| PageOcrError::Render(format!("pdftoppm: {e}")))?;
        if !tesseract_lib::available() {
            return Err(PageOcrError::Ocr("libtesseract 未找到".into()));
        }
        Ok(())
    }

    fn recognize(
        &self,
        image: &Gray,
        dpi: u32,
        psm: u8,
    ) -> Result<Vec<tsv::TsvLine>, PageOcrError> {
        let mut slot = self.engine.lock().map_err(|_| poisoned())?;
        let engine = match slot.as_mut() {
            Some(engine) => engine,
            None => slot.insert(load(&[])?),
        };
        read(engine, image, dpi, psm)
    }

    /// [`Self::recognize`] with only the characters of `alphabet` allowed.
    fn recognize_in(
        &self,
        image: &Gray,
        dpi: u32,
        alphabet: &str,
        psm: u8,
    ) -> Result<Vec<tsv::TsvLine>, PageOcrError> {
        let mut slot = self.restricted.lock().map_err(|_| poisoned())?;
        if slot.as_ref().is_none_or(|(a, _)| a != alphabet) {
            *slot = Some((
                alphabet.to_owned(),
                load(&[("tessedit_char_whitelist", alphabet)])?,
            ));
        }
        match slot.as_mut() {
            Some((_, engine)) => read(engine, image, dpi, psm),
            None => Err(poisoned()),
        }
    }

    /// The page rendered, and its pixels per point across and down.
    fn rendered(pdf: &[u8], page: PageRef) -> Result<(Gray, f32, f32), PageOcrError> {
        let image = render(pdf, page.index, LONG_SIDE)?;
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
                // A little room above and below for tall glyphs (more takes in the form's
                // rules, read as strokes); less to the sides, where a value often starts right
                // after its label.
                let pad = 0.12 * (r.bottom - r.top) * sy;
                let side = 0.05 * (r.bottom - r.top) * sx;
                image.clamp(
                    r.x0 * sx - side,
                    r.top * sy - pad,
                    r.x1 * sx + side,
                    r.bottom * sy + pad,
                )
            })
            .collect();
        let dpi = (72.0 * sy).round() as u32;
        // Several readings of every crop: stacked with others in one image (read among others
        // like it, as a form's labels are), on its own, and, for one glyph, as one character.
        // tesseract misses some short labels alone and misreads others in company; extraction
        // keeps the reading that fits and that most readings agree on.
        let mut stacked = Vec::with_capacity(crops.len());
        for chunk in crops.chunks(STACK_CROPS) {
            stacked.extend(self.read_stacked(&image, chunk, dpi, alphabet, PSM_BLOCK)?);
        }
        let mut readings = Vec::with_capacity(crops.len());
        for (crop, together) in crops.iter().zip(stacked) {
            let alone = match crop {
                Some(_) => self
                    .read_stacked(&image, &[*crop], dpi, alphabet, PSM_BLOCK)?
                    .concat(),
                None => String::new(),
            };
            let mut these = vec![together, alone];
            // A crop about as wide as tall holds one glyph: read as one character too (what
            // tesseract's line reader often misses alone), and trusted first.
            if let Some(r) = crop.filter(|r| r.w * 10 < r.h * 16) {
                let one = self
                    .read_stacked(&image, &[Some(r)], dpi, alphabet, PSM_CHAR)?
                    .concat();
                these.insert(0, one);
            }
            readings.push(these);
        }
        Ok(readings)
    }

    /// Reads crops stacked into one image: one text per crop.
    fn read_stacked(
        &self,
        image: &Gray,
        crops: &[Option<Rect>],
        dpi: u32,
        alphabet: &str,
        psm: u8,
    ) -> Result<Vec<String>, PageOcrError> {
        let (stack, bands) = stack(image, crops);
        let lines = if alphabet.is_empty() {
            self.recognize(&stack, dpi, psm)?
        } else {
            self.recognize_in(&stack, dpi, alphabet, psm)?
        };
        let mut texts = vec![String::new(); crops.len()];
        let mut placed: Vec<(usize, i32, String)> = lines
            .into_iter()
            .flat_map(|l| l.words)
            .filter_map(|w| {
                let mid = (w.top + w.bottom) / 2;
                let band = bands
                    .iter()
                    .position(|&(top, bottom)| mid >= top && mid < bottom)?;
                Some((band, w.left, w.text))
            })
            .collect();
        placed.sort_by_key(|(band, left, _)| (*band, *left));
        for (band, _, text) in placed {
            if let Some(t) = texts.get_mut(band) {
                t.push_str(&text);
            }
        }
        Ok(texts)
    }

    fn page(&self, pdf: &[u8], page: PageRef) -> Result<Vec<OcrLine>, PageOcrError> {
        let (image, sx, sy) = Self::rendered(pdf, page)?;
        let lines = self.recognize(&image, (72.0 * sy).round() as u32, PSM_BLOCK)?;
        Ok(lines
            .into_iter()
            .flat_map(|l| l.words)
            .map(|w| OcrLine {
                text: w.text,
                region: Region {
                    x0: w.left as f32 / sx,
                    top: w.top as f32 / sy,
                    x1: w.right as f32 / sx,
                    bottom: w.bottom as f32 / sy,
                },
            })
            .collect())
    }
}

fn poisoned() -> PageOcrError {
    PageOcrError::Ocr("engine poisoned".into())
}

fn load(variables: &[(&str, &str)]) -> Result<Engine, PageOcrError> {
    Engine::new(None, "chi_sim", variables).map_err(|e| PageOcrError::Ocr(e.to_string()))
}

fn read(
    engine: &mut Engine,
    image: &Gray,
    dpi: u32,
    psm: u8,
) -> Result<Vec<tsv::TsvLine>, PageOcrError> {
    let tsv = engine
        .recognize_tsv(&image.pixels, image.width, image.height, psm, dpi, TIMEOUT)
        .map_err(|e| PageOcrError::Ocr(e.to_string()))?;
    Ok(tsv::lines(&tsv))
}

/// The crops one above the other on a white image, a line's height apart, and each crop's
/// vertical band in it (an empty band for a crop outside the page).
fn stack(image: &Gray, crops: &[Option<Rect>]) -> (Gray, Vec<(i32, i32)>) {
    let margin = 16u32;
    let tallest = crops.iter().flatten().map(|r| r.h).max().unwrap_or(1);
    let gap = tallest.max(8);
    let width = crops.iter().flatten().map(|r| r.w).max().unwrap_or(1) + 2 * margin;
    let height = margin * 2 + crops.iter().flatten().map(|r| r.h + gap).sum::<u32>();
    let mut canvas = Gray::white(width, height.max(1));
    let mut y = margin;
    let mut bands = Vec::with_capacity(crops.len());
    for crop in crops {
        match crop {
            Some(r) => {
                canvas.paste(image, *r, margin, y);
                let half_gap = (gap / 2) as i32;
                bands.push((y as i32 - half_gap, (y + r.h) as i32 + half_gap));
                y += r.h + gap;
            }
            None => bands.push((-1, -1)),
        }
    }

    (canvas, bands)
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
        let crop = gray.clamp(0.0, 0.0, image.width as f32, image.height as f32);
        self.read_stacked(&gray, &[crop], 300, "", PSM_LINE)
            .map(|t| t.concat())
            .map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacks_crops_in_bands() {
        let image = Gray::white(100, 100);
        let crops = [
            Some(Rect {
                x: 0,
                y: 0,
                w: 40,
                h: 10,
            }),
            None,
            Some(Rect {
                x: 10,
                y: 50,
                w: 20,
                h: 20,
            }),
        ];
        let (canvas, bands) = stack(&image, &crops);
        assert_eq!(canvas.width, 72);
        assert_eq!(bands.len(), 3);
        assert_eq!(bands[1], (-1, -1));
        assert!(bands[0].1 <= bands[2].0, "{bands:?}");
    }
}
