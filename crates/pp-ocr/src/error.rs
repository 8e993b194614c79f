//! What can go wrong loading or running the models.

/// The models are missing or unreadable, or a run failed.
#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    /// A model file or the library is not where it was looked for (the path, or what was
    /// searched).
    #[error("OCR 模型缺失：{0}（请运行 cargo xtask install）")]
    Missing(String),
    /// A file is there but could not be loaded (not a model, another onnxruntime version).
    #[error("OCR 模型无法加载：{0}")]
    Load(String),
    /// A model run failed or gave output of an unexpected shape.
    #[error("OCR 运行失败：{0}")]
    Run(String),
}
