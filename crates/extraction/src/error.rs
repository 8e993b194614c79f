//! Why a document could not be turned into an invoice record. Messages are shown to users.

/// Extraction failure. The `Display` text is Chinese because the UI shows it as is.
///
/// New kinds of failure may be added, so a `match` needs a `_` arm.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExtractError {
    /// The document was read but does not look like an invoice we know.
    #[error("无法识别为发票：{0}")]
    NotAnInvoice(String),
    /// The PDF could not be read (the parser's own message, for support).
    #[error("无法读取文件内容：{0}")]
    Unreadable(String),
    /// The PDF needs a password.
    #[error("文件已加密，无法读取，请上传未加密的发票")]
    Encrypted,
    /// The bytes are damaged or not in the format their name or header claims.
    #[error("文件已损坏或格式不正确：{0}")]
    Malformed(String),
    /// Neither PDF, OFD nor XML.
    #[error("不支持的文件格式：{0}")]
    Unsupported(String),
    /// The document needs support this build leaves out: a cargo feature of this crate is
    /// off (`ofd` for OFD files, `xml` for XML files, `ocr` for a PDF without readable text).
    #[error("本程序编译时未包含{what}的功能（reimburse-extraction 的 `{feature}` feature）")]
    NotCompiledIn {
        /// What it would take, in the words of the message, e.g. `读取 OFD 发票`.
        what: &'static str,
        /// The feature that brings it, e.g. `ofd`.
        feature: &'static str,
    },
}

impl From<pdf_text::Error> for ExtractError {
    fn from(e: pdf_text::Error) -> Self {
        match e {
            pdf_text::Error::Encrypted => Self::Encrypted,
            pdf_text::Error::NotPdf => Self::Malformed("不是 PDF 文件".to_owned()),
            pdf_text::Error::Malformed(m) => Self::Unreadable(m),
            other => Self::Unreadable(other.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_for_users() {
        let e = ExtractError::NotAnInvoice("未找到发票号码".into());
        assert_eq!(e.to_string(), "无法识别为发票：未找到发票号码");
        assert_eq!(
            ExtractError::from(pdf_text::Error::Encrypted),
            ExtractError::Encrypted
        );
        assert!(matches!(
            ExtractError::from(pdf_text::Error::NotPdf),
            ExtractError::Malformed(_)
        ));
        let e = ExtractError::NotCompiledIn {
            what: "读取 OFD 发票",
            feature: "ofd",
        };
        assert_eq!(
            e.to_string(),
            "本程序编译时未包含读取 OFD 发票的功能（reimburse-extraction 的 `ofd` feature）"
        );
    }
}
