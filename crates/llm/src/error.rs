//! `LlmError`: what can go wrong in a call, with user-facing Chinese messages.
//!
//! No variant carries a URL, a header, a request body or a provider's raw error text, so a
//! `Display` or `Debug` of any error can never contain the API key or a query string.

/// A failed language-model call. `Display` is meant for the end user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// The configuration or the request cannot work (the reason is written by this crate).
    #[error("语言模型配置无效：{reason}")]
    Config {
        /// What is wrong, in Chinese.
        reason: String,
    },
    /// Connection refused, DNS failure, TLS failure and the like.
    #[error("无法连接语言模型服务")]
    Connect,
    /// The idle or the total timeout struck.
    #[error("语言模型请求超时")]
    Timeout,
    /// HTTP 401 or 403.
    #[error("语言模型鉴权失败（HTTP {status}），请检查 API Key 配置")]
    Auth {
        /// The HTTP status.
        status: u16,
    },
    /// HTTP 429 after every retry.
    #[error("语言模型服务繁忙（HTTP 429），请稍后再试")]
    RateLimited,
    /// Any other non-success status.
    #[error("语言模型服务错误（HTTP {status}）")]
    Http {
        /// The HTTP status.
        status: u16,
    },
    /// The connection broke in the middle of the streamed answer.
    #[error("语言模型的回答在传输中断开")]
    Interrupted,
    /// The provider reported an error inside the stream.
    #[error("语言模型服务在回答过程中报告了错误")]
    Provider,
    /// The stream did not follow the chat-completions format.
    #[error("语言模型返回了无法识别的数据")]
    Protocol,
    /// The stream ended without any answer text.
    #[error("语言模型没有返回任何内容")]
    EmptyAnswer,
    /// The answer was not JSON, or not JSON of the requested schema, even after the
    /// corrective retry. `reason` is the last validation error (for logs; not displayed).
    #[error("语言模型返回了无效的 JSON")]
    InvalidJson {
        /// The last validation error.
        reason: String,
    },
    /// The client's runtime thread is gone; only a bug or a failed thread start gets here.
    #[error("语言模型客户端内部错误")]
    Internal,
}

impl LlmError {
    /// Whether another attempt may succeed (429, 5xx, network trouble, stalls, cut streams).
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Connect | Self::Timeout | Self::RateLimited | Self::Interrupted => true,
            Self::Provider => true,
            Self::Http { status } => *status == 408 || *status >= 500,
            Self::Config { .. }
            | Self::Auth { .. }
            | Self::Protocol
            | Self::EmptyAnswer
            | Self::InvalidJson { .. }
            | Self::Internal => false,
        }
    }

    /// The error for a non-success HTTP status.
    pub(crate) fn from_status(status: u16) -> Self {
        match status {
            401 | 403 => Self::Auth { status },
            429 => Self::RateLimited,
            _ => Self::Http { status },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_chinese_and_status_specific() {
        assert_eq!(LlmError::Timeout.to_string(), "语言模型请求超时");
        assert_eq!(
            LlmError::from_status(503).to_string(),
            "语言模型服务错误（HTTP 503）"
        );
        assert_eq!(
            LlmError::InvalidJson { reason: "x".into() }.to_string(),
            "语言模型返回了无效的 JSON"
        );
        assert!(LlmError::from_status(401).to_string().contains("401"));
    }

    #[test]
    fn retry_classification() {
        assert!(LlmError::from_status(429).is_retryable());
        assert!(LlmError::from_status(500).is_retryable());
        assert!(LlmError::from_status(503).is_retryable());
        assert!(LlmError::from_status(408).is_retryable());
        assert!(!LlmError::from_status(400).is_retryable());
        assert!(!LlmError::from_status(401).is_retryable());
        assert!(!LlmError::from_status(404).is_retryable());
        assert!(LlmError::Connect.is_retryable());
        assert!(LlmError::Interrupted.is_retryable());
        assert!(!LlmError::Protocol.is_retryable());
    }
}
