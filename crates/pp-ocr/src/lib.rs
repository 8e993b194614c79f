//! PaddleOCR's PP-OCRv4 mobile models (text detection, DBNet, and recognition, SVTR with CTC)
//! run in this process by onnxruntime, for Chinese and English text in screenshots and
//! rendered pages: an image in, its text lines with their boxes out.
//!
//! ```no_run
//! // Needs the models: `cargo xtask install` puts them in the workspace's `models/pp-ocr/`.
//! use reimburse_pp_ocr::Engine;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let engine = Engine::find()?; // ~100 ms; keep it, it serves any number of images
//! let image = image::open("支付截图.png")?.to_rgb8();
//! for line in engine.read(&image)? {
//!     let (x0, y0, x1, y1) = (line.x0, line.y0, line.x1, line.y1);
//!     println!("({x0}, {y0})-({x1}, {y1}) {:.2} {}", line.score, line.text);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! The models are plain files in one folder: `det.onnx` and `rec.onnx` (`ch_PP-OCRv4_det_infer`
//! and `ch_PP-OCRv4_rec_infer` from PyPI's `rapidocr_onnxruntime` 1.4.4 wheel, Apache-2.0)
//! and onnxruntime's `libonnxruntime.so` (from PyPI's `onnxruntime` 1.32.0 wheel), loaded at
//! run time, so nothing is downloaded at build time. Inside the workspace `cargo xtask install`
//! fetches and checks them; [`models_dir`] says where [`Engine::find`] looks, and
//! [`Engine::load`] takes a folder. Images are `image` 0.25's `RgbImage`.
//!
//! Start from [`Engine`]: [`Engine::read`] gives a screenshot's [`TextLine`]s, top to bottom;
//! [`Engine::read_document`] detects at a size fit for a rendered page; [`Engine::recognize`]
//! reads images that each hold one line, optionally only with the characters of an alphabet.
//! Failures are [`OcrError`]s. Which size an image is detected at is a pure function:
//!
//! ```
//! use reimburse_pp_ocr::detection_scale;
//!
//! assert_eq!(detection_scale(720, 1280), 1.0); // small: detected at full size
//! assert_eq!(detection_scale(1080, 2400), 0.4); // a phone screen: at 960 px on the long side
//! ```

#![warn(missing_docs)]

mod charset;
mod detect;
mod engine;
mod error;
mod recognize;
mod runtime;

pub use detect::scale as detection_scale;
pub use engine::{Engine, TextLine, models_dir};
pub use error::OcrError;
