//! PP-OCRv4 mobile (PaddleOCR's text detection, DBNet, and recognition, SVTR with CTC) run in
//! this process by onnxruntime (through `ort`, the library loaded at run time) from the ONNX
//! files and the library `cargo xtask install` unpacks into `models/pp-ocr/`.
//! [`Engine::read`] gives the text lines of an image with their boxes;
//! [`Engine::read_document`] detects at a size fit for a rendered page; [`Engine::recognize`]
//! reads images that each hold one line, optionally only with the characters of an alphabet.
//! Used by the screenshot reader (`payments`) and the invoice page OCR (`page-ocr`).

mod charset;
mod detect;
mod engine;
mod error;
mod recognize;
mod runtime;

pub use detect::scale as detection_scale;
pub use engine::{Engine, TextLine, models_dir};
pub use error::OcrError;
