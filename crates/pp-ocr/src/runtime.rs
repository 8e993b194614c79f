//! The ONNX runtime: onnxruntime's shared library (from PyPI's `onnxruntime` wheel, put beside
//! the models by `cargo xtask install`), loaded once per process by `ort`, and one session per
//! model. A session runs one input at a time (`ort` needs it exclusively), so each sits behind
//! a lock; its own threads do the parallel work.

use crate::error::OcrError;
use ort::environment::Environment;
use ort::session::Session;
use ort::session::builder::GraphOptimizationLevel;
use ort::value::Tensor;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

/// The library's file in the models folder.
pub(crate) const LIBRARY: &str = "libonnxruntime.so";

/// The process's one environment (onnxruntime allows one), from the first library loaded.
static ENVIRONMENT: OnceLock<Result<Environment, String>> = OnceLock::new();

fn environment(library: &Path) -> Result<&'static Environment, OcrError> {
    ENVIRONMENT
        .get_or_init(|| {
            ort::init_from(library)
                .map_err(|e| format!("{}: {e}", library.display()))?
                .with_name("pp-ocr")
                .build()
                .map_err(|e| format!("{}: {e}", library.display()))
        })
        .as_ref()
        .map_err(|e| OcrError::Load(e.clone()))
}

/// Threads per run: `REIMBURSE_OCR_THREADS`, else the machine's cores.
pub(crate) fn threads() -> usize {
    std::env::var("REIMBURSE_OCR_THREADS")
        .ok()
        .and_then(|t| t.parse().ok())
        .filter(|&t| t > 0)
        .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
        .unwrap_or(1)
}

/// An input of four dimensions (batch, channel, height, width), row-major.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Input {
    pub shape: [usize; 4],
    pub data: Vec<f32>,
}

impl Input {
    pub(crate) fn zeros(shape: [usize; 4]) -> Self {
        Self {
            shape,
            data: vec![0.0; shape.iter().product()],
        }
    }

    /// Puts `image` (no larger than the input) at batch index `n`, top left, its three
    /// channels scaled to [-1, 1], as both PP-OCR models were trained.
    pub(crate) fn put_image(&mut self, n: usize, image: &image::RgbImage) {
        let [_, channels, h, w] = self.shape;
        for (x, y, p) in image.enumerate_pixels() {
            for c in 0..3 {
                let at = ((n * channels + c) * h + y as usize) * w + x as usize;
                self.data[at] = f32::from(p[c]) / 127.5 - 1.0;
            }
        }
    }
}

/// A model's first output: its shape and values, row-major.
#[derive(Debug)]
pub(crate) struct Output {
    pub shape: Vec<usize>,
    pub data: Vec<f32>,
}

/// One loaded model.
#[derive(Debug)]
pub(crate) struct Net {
    session: Mutex<Session>,
}

impl Net {
    /// Loads `model` with onnxruntime from `library`.
    pub(crate) fn load(library: &Path, model: &Path) -> Result<Self, OcrError> {
        let env = environment(library)?;
        let failed = |e: ort::Error| OcrError::Load(format!("{}: {e}", model.display()));
        let session = Session::builder(env)
            .map_err(failed)?
            .with_optimization_level(GraphOptimizationLevel::Level3)
            .map_err(|e| failed(e.into()))?
            .with_intra_threads(threads())
            .map_err(|e| failed(e.into()))?
            // A waiting thread sleeps instead of spinning: the service does other work too.
            .with_intra_op_spinning(false)
            .map_err(|e| failed(e.into()))?
            .commit_from_file(model)
            .map_err(failed)?;
        Ok(Self {
            session: Mutex::new(session),
        })
    }

    /// Runs `input` through the model.
    pub(crate) fn run(&self, input: Input) -> Result<Output, OcrError> {
        let failed = |e: ort::Error| OcrError::Run(e.to_string());
        let tensor = Tensor::from_array((input.shape, input.data)).map_err(failed)?;
        let mut session = self
            .session
            .lock()
            .map_err(|_| OcrError::Run("a previous run panicked".to_owned()))?;
        let outputs = session.run(ort::inputs![tensor]).map_err(failed)?;
        let (shape, data) = outputs[0].try_extract_tensor::<f32>().map_err(failed)?;
        Ok(Output {
            shape: shape
                .iter()
                .map(|&d| usize::try_from(d).unwrap_or(0))
                .collect(),
            data: data.to_vec(),
        })
    }
}
