//! What can go wrong loading or running the models.

/// The models are missing or unreadable, or a run failed.
#[derive(Debug, thiserror::Error)]
pub enum OcrError {
    #[error("OCR 模型缺失：{0}（请运行 cargo xtask install）")]
    Missing(String),
    #[error("OCR 模型无法加载：{0}")]
    Load(String),
    #[error("OCR 运行失败：{0}")]
    Run(String),
}
