//! What can go wrong reading a page.

/// A page could not be rendered or read; the message says what to install where that helps.
#[derive(Debug, thiserror::Error)]
pub enum PageOcrError {
    /// pdftoppm is missing or could not render the page.
    #[error("无法渲染 PDF 页面（需要 poppler-utils：cargo xtask install）：{0}")]
    Render(String),
    /// Rendering took longer than the deadline (in seconds).
    #[error("渲染页面超时（{0} 秒）")]
    Timeout(u64),
    /// The PP-OCR models are missing or failed to read.
    #[error("OCR 失败（需要 OCR 模型：cargo xtask install）：{0}")]
    Ocr(String),
}
