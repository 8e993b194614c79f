//! Why no package could be made, in the user's words.

/// A failure of the whole package (a single bad attachment is replaced by its card instead).
#[derive(Debug, thiserror::Error)]
pub enum PrintError {
    #[error("无法读取报销材料模板 {path}：{message}")]
    Template { path: String, message: String },
    #[error("报销材料模板有误：{0}")]
    Compile(String),
    #[error("报销材料导出 PDF 失败：{0}")]
    Export(String),
    #[error("本机没有可用的中文字体（需要 fonts-noto-cjk，请运行 cargo xtask install）")]
    NoFonts,
    #[error("生成报销材料时内部出错：{0}")]
    Panicked(String),
    #[error("生成预览失败：{0}")]
    Preview(String),
}
