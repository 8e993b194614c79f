//! `DocError`: every way producing the outbound-stock document can fail. The Display texts are
//! shown to users as `doc_error`, so they are Chinese and name what to fix.

use std::path::PathBuf;

/// An error of document generation. `Display` is the user-facing message.
#[derive(Debug, thiserror::Error)]
pub enum DocError {
    /// The template file is not there.
    #[error("模板文件不存在：{}", path.display())]
    TemplateMissing {
        /// The path given.
        path: PathBuf,
    },

    /// The template file exists but could not be read.
    #[error("无法读取模板文件 {}：{source}", path.display())]
    TemplateRead {
        /// The path given.
        path: PathBuf,
        /// The operating system's error.
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
        /// The item's name.
        name: String,
        /// The amount as given.
        value: String,
    },

    /// The total does not fit the range handled (10^16 yuan).
    #[error("合计金额过大，无法计算")]
    TotalTooLarge,

    /// No LibreOffice (or no Writer component) on this machine.
    #[error("未安装 LibreOffice（{0}），无法生成 .doc 文件")]
    LibreOfficeMissing(String),

    /// LibreOffice ran but did not produce the document.
    #[error("文档转换失败：{}", without_file_urls(.0))]
    ConversionFailed(String),

    /// LibreOffice did not finish in time and was killed.
    #[error("文档转换超时（超过 {seconds} 秒），已终止 LibreOffice 进程")]
    ConversionTimeout {
        /// The timeout that passed.
        seconds: u64,
    },

    /// Writing a result file failed.
    #[error("{}", write_failure(path, source))]
    Write {
        /// The file that was being written.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },

    /// Scratch files or processes for the conversion could not be set up.
    #[error("无法准备文档转换（{what}）：{source}")]
    Setup {
        /// What was being set up.
        what: &'static str,
        /// The operating system's error.
        source: std::io::Error,
    },
}

/// `text` with each `file://` URL (LibreOffice names files by them, percent-encoded, so no
/// path filter downstream recognises them) cut to the file's own name.
fn without_file_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("file://") {
        out.push_str(&rest[..start]);
        let url = &rest[start..];
        let end = url
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ')' | '）' | ',' | '，'))
            .unwrap_or(url.len());
        let last = url[..end].rsplit('/').next().unwrap_or_default();
        out.push_str(&percent_decoded(last));
        rest = &url[end..];
    }
    out.push_str(rest);
    out
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A failed write, named by the file alone; a full disk said plainly.
fn write_failure(path: &std::path::Path, source: &std::io::Error) -> String {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    if domain::is_disk_full(source) {
        domain::disk_full_message(&name)
    } else {
        format!("写入文件失败（{name}）：{source}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_become_file_names() {
        let error = DocError::ConversionFailed(
            "Could not save file:///data/tmp/docgen-1/%E5%87%BA%E5%BA%93%E5%8D%95.doc (io)".into(),
        );
        assert_eq!(
            error.to_string(),
            "文档转换失败：Could not save 出库单.doc (io)"
        );
    }

    #[test]
    fn a_full_disk_names_the_file_only() {
        let error = DocError::Write {
            path: "/data/sessions/x/易耗品、出库单.doc".into(),
            source: std::io::Error::from(std::io::ErrorKind::StorageFull),
        };
        assert_eq!(
            error.to_string(),
            "磁盘空间不足，无法写入 易耗品、出库单.doc：请清理数据目录所在的磁盘后重试"
        );
    }
}
