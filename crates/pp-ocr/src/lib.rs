//! PP-OCRv4 mobile (PaddleOCR's text detection, DBNet, and recognition, SVTR with CTC) run in
//! this process by rten from the ONNX files `cargo xtask install` unpacks into
//! `models/pp-ocr/`. [`Engine::read`] gives the text lines of an image with their boxes.
//!
//! Not yet used by the service: the screenshot reader and the page OCR still run tesseract
//! (issue #30 moves them here).

mod charset;
mod detect;
mod engine;
mod error;
mod recognize;

pub use engine::{Engine, TextLine, models_dir};
pub use error::OcrError;
