//! The loaded models and one image's reading.

use crate::charset;
use crate::detect::{self, TextBox};
use crate::error::OcrError;
use crate::recognize;
use crate::runtime::{LIBRARY, Net};
use std::path::{Path, PathBuf};

/// The model files `cargo xtask install` writes (beside onnxruntime's library).
const DET: &str = "det.onnx";
const REC: &str = "rec.onnx";

/// A line of text and its box on the image (pixels, right and bottom exclusive).
#[derive(Debug, Clone, PartialEq)]
pub struct TextLine {
    /// The text read, trimmed.
    pub text: String,
    /// Mean probability of the line's characters.
    pub score: f32,
    /// Left edge.
    pub x0: u32,
    /// Top edge.
    pub y0: u32,
    /// Right edge (exclusive).
    pub x1: u32,
    /// Bottom edge (exclusive).
    pub y1: u32,
    /// The line's slant in radians, clockwise (0 for a level line).
    pub angle: f32,
}

/// The detection and recognition models and the recognition's characters. Loading takes
/// ~100 ms; one engine serves any number of images, from any thread (each model runs one
/// input at a time, on `REIMBURSE_OCR_THREADS` threads, default all cores).
#[derive(Debug)]
pub struct Engine {
    det: Net,
    rec: Net,
    chars: Vec<String>,
}

/// Where the models are: `REIMBURSE_MODELS`, else `models/pp-ocr` in the working directory or
/// one of its ancestors (the workspace root, where `cargo xtask install` puts them), else
/// beside the executable's ancestors, else in the source tree the binary was built from.
pub fn models_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("REIMBURSE_MODELS") {
        return Some(PathBuf::from(dir));
    }
    let holds = |p: &Path| [DET, REC, LIBRARY].iter().all(|f| p.join(f).is_file());
    let from = |start: PathBuf| {
        start
            .ancestors()
            .map(|a| a.join("models/pp-ocr"))
            .find(|p| holds(p))
    };
    std::env::current_dir()
        .ok()
        .and_then(from)
        .or_else(|| std::env::current_exe().ok().and_then(from))
        // The source tree this binary was built from, where `cargo xtask install` put them
        // (a build whose target directory lies elsewhere, a service started from any folder).
        .or_else(|| from(PathBuf::from(env!("CARGO_MANIFEST_DIR"))))
}

impl Engine {
    /// Loads the models from [`models_dir`].
    pub fn find() -> Result<Self, OcrError> {
        let dir =
            models_dir().ok_or_else(|| OcrError::Missing("未找到 models/pp-ocr".to_owned()))?;
        Self::load(&dir)
    }

    /// Loads `det.onnx` and `rec.onnx` from `dir` with the onnxruntime library there.
    pub fn load(dir: &Path) -> Result<Self, OcrError> {
        let path = |name: &str| {
            let p = dir.join(name);
            if p.is_file() {
                Ok(p)
            } else {
                Err(OcrError::Missing(p.display().to_string()))
            }
        };
        let (det_path, rec_path, library) = (path(DET)?, path(REC)?, path(LIBRARY)?);
        let rec_bytes = std::fs::read(&rec_path)
            .map_err(|e| OcrError::Load(format!("{}: {e}", rec_path.display())))?;
        let chars = charset::characters(&rec_bytes)
            .ok_or_else(|| OcrError::Load(format!("{}: no character list", rec_path.display())))?;
        Ok(Self {
            det: Net::load(&library, &det_path)?,
            rec: Net::load(&library, &rec_path)?,
            chars,
        })
    }

    /// The text lines of `image`, top to bottom, left to right.
    pub fn read(&self, image: &image::RgbImage) -> Result<Vec<TextLine>, OcrError> {
        self.read_at(image, None)
    }

    /// As [`Self::read`], detecting at `long_side` pixels on the longer side (a rendered
    /// document page, whose print is small, wants more than a phone screen's default).
    pub fn read_document(
        &self,
        image: &image::RgbImage,
        long_side: u32,
    ) -> Result<Vec<TextLine>, OcrError> {
        self.read_at(image, Some(long_side))
    }

    /// The text of each image, each holding one line (no detection), with only the
    /// characters of `alphabet` (and spaces) allowed when it is given.
    pub fn recognize(
        &self,
        images: &[image::RgbImage],
        alphabet: Option<&str>,
    ) -> Result<Vec<String>, OcrError> {
        let allowed: Option<Vec<bool>> = alphabet.map(|a| {
            self.chars
                .iter()
                .map(|c| c.chars().all(|ch| a.contains(ch)))
                .collect()
        });
        let mut out = vec![String::new(); images.len()];
        let mut order: Vec<usize> = (0..images.len()).collect();
        order.sort_by(|&a, &b| {
            let r = |i: usize| images[i].width() as f32 / images[i].height().max(1) as f32;
            r(a).total_cmp(&r(b))
        });
        for batch in order.chunks(recognize::BATCH) {
            let refs: Vec<&image::RgbImage> = batch.iter().map(|&i| &images[i]).collect();
            for (&i, (text, _)) in batch
                .iter()
                .zip(self.recognize_batch(&refs, allowed.as_deref())?)
            {
                out[i] = text.trim().to_owned();
            }
        }
        Ok(out)
    }

    /// One batch through the recognition model: each line's text and mean probability.
    fn recognize_batch(
        &self,
        lines: &[&image::RgbImage],
        allowed: Option<&[bool]>,
    ) -> Result<Vec<(String, f32)>, OcrError> {
        let output = self.rec.run(recognize::input_images(lines))?;
        let &[n, steps, classes] = output.shape.as_slice() else {
            return Err(OcrError::Run(format!(
                "recognition output of shape {:?}",
                output.shape
            )));
        };
        if n != lines.len() || classes == 0 {
            return Err(OcrError::Run(format!(
                "recognition output of shape {:?} for {} lines",
                output.shape,
                lines.len()
            )));
        }
        Ok(output
            .data
            .chunks(steps * classes)
            .map(|probs| recognize::decode_allowed(probs, classes, &self.chars, allowed))
            .collect())
    }

    fn read_at(
        &self,
        image: &image::RgbImage,
        long_side: Option<u32>,
    ) -> Result<Vec<TextLine>, OcrError> {
        let boxes = self.detect(image, long_side)?;
        let mut lines: Vec<Option<TextLine>> = vec![None; boxes.len()];
        for batch in recognize::batches(&boxes) {
            let cuts: Vec<image::RgbImage> = batch.iter().map(|&i| boxes[i].cut(image)).collect();
            let refs: Vec<&image::RgbImage> = cuts.iter().collect();
            for (&i, (text, score)) in batch.iter().zip(self.recognize_batch(&refs, None)?) {
                let b = boxes[i];
                lines[i] = Some(TextLine {
                    text,
                    score,
                    x0: b.x0,
                    y0: b.y0,
                    x1: b.x1,
                    y1: b.y1,
                    angle: b.slant.map_or(0.0, |s| s.angle),
                });
            }
        }
        Ok(lines
            .into_iter()
            .flatten()
            .filter(|l| !l.text.trim().is_empty())
            .collect())
    }

    fn detect(
        &self,
        image: &image::RgbImage,
        long_side: Option<u32>,
    ) -> Result<Vec<TextBox>, OcrError> {
        let output = self.det.run(detect::input(image, long_side))?;
        let &[1, 1, h, w] = output.shape.as_slice() else {
            return Err(OcrError::Run(format!(
                "detection output of shape {:?}",
                output.shape
            )));
        };
        let (iw, ih) = image.dimensions();
        Ok(detect::boxes(&output.data, w, h, iw, ih))
    }
}
