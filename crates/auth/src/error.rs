//! The crate's error type.

/// What can go wrong deciding who is asking.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// The operating system gave no random bytes.
    #[error("无法取得随机数：{0}")]
    Random(String),
    /// The password hasher refused its input (a password longer than the KDF accepts).
    #[error("无法计算密码摘要：{0}")]
    Hash(String),
    /// A trusted-proxy entry that is neither an address nor a network.
    #[error("代理地址无效：{0}")]
    BadProxy(String),
    /// A mode name other than none, proxy or local.
    #[error("未知的登录方式：{0}（可选 none、proxy、local）")]
    BadMode(String),
}
