//! Why no package could be made, in the user's words.

/// A failure of the whole package (a single bad attachment is replaced by its card instead).
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    /// An institution's template file could not be read.
    #[error("无法读取报销材料模板 {path}：{message}")]
    Template {
        /// The template's path.
        path: String,
        /// Why it could not be read.
        message: String,
    },
    /// The template does not compile (Typst's diagnostics, with lines).
    #[error("报销材料模板有误：{0}")]
    Compile(String),
    /// The laid-out document could not be written as PDF.
    #[error("报销材料导出 PDF 失败：{0}")]
    Export(String),
    /// The machine has no CJK font to set the claim in.
    #[error("本机没有可用的中文字体（需要 fonts-noto-cjk，请运行 cargo xtask install）")]
    NoFonts,
    /// Typst panicked; the panic was caught and its message kept.
    #[error("生成报销材料时内部出错：{0}")]
    Panicked(String),
    /// The preview could not be drawn (pdftoppm missing or failing).
    #[error("生成预览失败：{0}")]
    Preview(String),
}
