//! `DocError`: every way producing the outbound-stock document can fail. The Display texts are
//! shown to users as `doc_error`, so they are Chinese and name what to fix.

use std::path::PathBuf;

/// An error of document generation. `Display` is the user-facing message.
#[derive(Debug, thiserror::Error)]
pub enum DocError {
    /// The template file is not there.
    #[error("模板文件不存在：{}", path.display())]
    TemplateMissing { path: PathBuf },

    /// The template file exists but could not be read.
    #[error("无法读取模板文件 {}：{source}", path.display())]
    TemplateRead {
        path: PathBuf,
        source: std::io::Error,
    },

    /// The template is not a Word .docx (zip with word/document.xml and well-formed XML).
    #[error("模板不是有效的 Word 文档（.docx）：{0}")]
    TemplateInvalid(String),

    /// No table row of the template holds an item placeholder.
    #[error(
        "模板中没有物品行：请在表格的一行中写入 {{{{名称}}}}、{{{{数量}}}}、{{{{金额}}}} 等物品占位符，该行会按物品逐行复制"
    )]
    NoItemRow,

    /// Item placeholders sit in more than one table row.
    #[error("模板中有 {0} 行含物品占位符，只能有一行物品行（该行会按物品逐行复制）")]
    SeveralItemRows(usize),

    /// An item's amount is not a decimal number of yuan with at most two decimals.
    #[error("第 {index} 项物品（{name}）的金额无法识别：“{value}”")]
    BadAmount {
        /// 1-based position of the item.
        index: usize,
        name: String,
        value: String,
    },

    /// The total does not fit the range handled (10^16 yuan).
    #[error("合计金额过大，无法计算")]
    TotalTooLarge,

    /// No LibreOffice (or no Writer component) on this machine.
    #[error("未安装 LibreOffice（{0}），无法生成 .doc 文件")]
    LibreOfficeMissing(String),

    /// LibreOffice ran but did not produce the document.
    #[error("文档转换失败：{0}")]
    ConversionFailed(String),

    /// LibreOffice did not finish in time and was killed.
    #[error("文档转换超时（超过 {seconds} 秒），已终止 LibreOffice 进程")]
    ConversionTimeout { seconds: u64 },

    /// Writing a result file failed.
    #[error("写入文件失败（{}）：{source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },

    /// Scratch files or processes for the conversion could not be set up.
    #[error("无法准备文档转换（{what}）：{source}")]
    Setup {
        what: &'static str,
        source: std::io::Error,
    },
}
