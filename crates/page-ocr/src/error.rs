//! What can go wrong reading a page.

/// A page could not be rendered or read; the message says what to install where that helps.
#[derive(Debug, thiserror::Error)]
pub enum PageOcrError {
    #[error("无法渲染 PDF 页面（需要 poppler-utils：cargo xtask install）：{0}")]
    Render(String),
    #[error("渲染页面超时（{0} 秒）")]
    Timeout(u64),
    #[error("OCR 失败（需要 OCR 模型：cargo xtask install）：{0}")]
    Ocr(String),
}
