//! Why a document could not be turned into an invoice record. Messages are shown to users.

/// Extraction failure. The `Display` text is Chinese because the UI shows it as is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
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
    }
}
