//! The one place where errors become HTTP responses: status code and `{error: string}`.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use domain::FileKind;
use session_store::{JobStartError, StoreError};

/// An error answered to a client. The message is user-facing text (Chinese, as the interface's
/// own messages are); details that help an operator go to the tracing log instead.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 404: no session has this id (or it is malformed).
    #[error("会话不存在")]
    SessionNotFound,
    /// 404: the session has no such file.
    #[error("文件不存在")]
    FileNotFound,
    /// 400: an upload without a file.
    #[error("未选择文件")]
    NoFileChosen,
    /// 400: a file name with a separator, a leading dot or a control character.
    #[error("文件名不合法")]
    BadFileName,
    /// 400: an upload whose extension is none the service reads (the name).
    #[error(
        "不支持的文件类型：{0}（支持 PDF、OFD、XML 电子发票以及 PNG、JPG、JPEG、BMP、WEBP 图片）"
    )]
    UnsupportedType(String),
    /// 400: an upload whose bytes are not what its extension says (the name, the kind).
    #[error("文件内容与扩展名不符：{0} 不是有效的{1}文件")]
    ContentMismatch(String, &'static str),
    /// 400: an empty upload.
    #[error("文件为空")]
    EmptyFile,
    /// 413: an upload over the limit (in MiB).
    #[error("文件超过大小上限（{0} MiB）")]
    TooLarge(u64),
    /// 404: the session has no invoice table yet.
    #[error("没有可读取的发票表格，请先处理发票")]
    NoTable,
    /// 500: the invoice table could not be read (why).
    #[error("读取表格失败：{0}")]
    TableRead(String),
    /// 409: a job of the session is running.
    #[error("该会话已有任务正在运行，请等待其完成")]
    Busy,
    /// 400: a malformed request, with the reason.
    #[error("{0}")]
    BadRequest(String),
    /// 404: no endpoint at this path.
    #[error("接口不存在")]
    NoSuchEndpoint,
    /// 404: the session's agent never ran.
    #[error("未找到 Agent 状态")]
    NoAgentState,
    /// 400: a text supplement with no text.
    #[error("请输入补充信息")]
    EmptySupplement,
    /// 409: the agent's state (named) does not allow the request.
    #[error("Agent 当前状态为 {0}，不能进行此操作")]
    AgentWrongState(String),
    /// 421: a Host header that is no IP address, localhost or allowed name (the name).
    #[error(
        "不接受的主机名「{0}」：请用 IP 地址或 localhost 访问，或把该名称加入配置 [server] allowed_hosts"
    )]
    HostNotAllowed(String),
    /// 403: a state-changing request from another site.
    #[error("拒绝跨站请求：请从本服务自己的页面操作")]
    CrossSite,
    /// 429: the session has as many open streams as allowed (the limit).
    #[error("该会话打开的日志流过多（上限 {0} 个），请关闭多余的页面")]
    TooManyStreams(usize),
    /// 429: the address is sending as many bodies at once as allowed (the limit).
    #[error("同一地址同时进行的上传过多（上限 {0} 个），请等待其他上传完成")]
    TooManyUploads(usize),
    /// 413: a request body over the limit (in MiB).
    #[error("请求体过大（上限 {0} MiB）")]
    BodyTooLarge(usize),
    /// 408: a body that sent nothing for this many seconds.
    #[error("请求体接收超时：{0} 秒内未收到数据")]
    BodyTimeout(u64),
    /// 408: a body not complete within its deadline (seconds, at the minimum rate in KiB/s).
    #[error("请求体接收超时：未能在 {0} 秒内传完（平均速度须不低于 {1} KiB/s）")]
    BodyDeadline(u64, u64),
    /// The store's own message: it names the file, never where the data dir lives.
    #[error("{0}")]
    DiskFull(String),
    /// A person's answer to a portal's question the bot is not (or no longer) waiting for.
    #[error("{0}")]
    Challenge(pipeline::AnswerError),
    /// The claims ledger's own message (a refused void, a malformed filter, no such claim).
    #[error("{0}")]
    Ledger(ledger::LedgerError),
    /// The service runs without a ledger (an embedder's choice).
    #[error("本服务未启用报销台账")]
    NoLedger,
    /// Sign-in is on and the request names no signed-in user.
    #[error("请先登录")]
    NotSignedIn,
    /// A wrong username or password (never which of the two).
    #[error("用户名或密码错误")]
    BadCredentials,
    /// Too many failed sign-ins for the account or the address.
    #[error("登录失败次数过多，请 {0} 秒后再试")]
    SignInThrottled(u64),
    /// Signed in, but the role does not allow it; or a header from a peer not trusted.
    #[error("{0}")]
    Forbidden(String),
    /// The phone's upload link is past its time.
    #[error("上传链接已过期，请在电脑上刷新二维码")]
    UploadLinkExpired,
    /// 500: anything else; the detail goes to the log, never to the client.
    #[error("服务器内部错误")]
    Internal(String),
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::SessionNotFound
            | Self::FileNotFound
            | Self::NoTable
            | Self::NoSuchEndpoint
            | Self::NoAgentState => StatusCode::NOT_FOUND,
            Self::EmptySupplement => StatusCode::BAD_REQUEST,
            Self::AgentWrongState(_) => StatusCode::CONFLICT,
            Self::NoFileChosen
            | Self::BadFileName
            | Self::UnsupportedType(_)
            | Self::ContentMismatch(..)
            | Self::EmptyFile
            | Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::TooLarge(_) | Self::BodyTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::HostNotAllowed(_) => StatusCode::MISDIRECTED_REQUEST,
            Self::CrossSite => StatusCode::FORBIDDEN,
            Self::TooManyStreams(_) | Self::TooManyUploads(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::BodyTimeout(_) | Self::BodyDeadline(..) => StatusCode::REQUEST_TIMEOUT,
            Self::Busy => StatusCode::CONFLICT,
            Self::Challenge(pipeline::AnswerError::Empty) => StatusCode::BAD_REQUEST,
            Self::Challenge(_) => StatusCode::CONFLICT,
            Self::Ledger(error) => match error {
                ledger::LedgerError::NotFound | ledger::LedgerError::NoSuchUser(_) => {
                    StatusCode::NOT_FOUND
                }
                ledger::LedgerError::Invalid(_) => StatusCode::BAD_REQUEST,
                ledger::LedgerError::UserExists(_) => StatusCode::CONFLICT,
                ledger::LedgerError::UserDisabled(_) => StatusCode::FORBIDDEN,
                ledger::LedgerError::EmptyReason | ledger::LedgerError::InvalidFilter(_) => {
                    StatusCode::BAD_REQUEST
                }
                ledger::LedgerError::NotAccepted
                | ledger::LedgerError::NotPending(_)
                | ledger::LedgerError::AlreadyClaimed(_) => StatusCode::CONFLICT,
                _ => StatusCode::SERVICE_UNAVAILABLE,
            },
            Self::NoLedger => StatusCode::NOT_FOUND,
            Self::NotSignedIn | Self::BadCredentials => StatusCode::UNAUTHORIZED,
            Self::SignInThrottled(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Forbidden(_) | Self::UploadLinkExpired => StatusCode::FORBIDDEN,
            Self::DiskFull(_) => StatusCode::INSUFFICIENT_STORAGE,
            Self::TableRead(_) | Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let Self::Internal(detail) = self {
            tracing::error!("internal error: {detail}");
        }
        let mut response = HttpResponse::build(self.status_code());
        if let Self::SignInThrottled(seconds) = self {
            response.insert_header((actix_web::http::header::RETRY_AFTER, seconds.to_string()));
        }
        response.json(serde_json::json!({"error": self.to_string()}))
    }
}

/// The `{error}` text of a response whose handler gave none (actix's own refusals, the front
/// door's): by status, in the interface's language.
pub(crate) fn status_message(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "请求格式错误",
        403 => "拒绝访问",
        404 => "接口不存在",
        405 => "不支持该请求方法",
        408 => "请求超时",
        411 => "请求须带 Content-Length（不支持分块传输的请求体）",
        413 => "请求体过大",
        414 => "请求地址过长",
        415 => "不支持的请求内容类型",
        429 => "请求过于频繁",
        431 => "请求头过大",
        500..=599 => "服务器内部错误",
        _ => "请求失败",
    }
}

impl From<ledger::LedgerError> for ApiError {
    fn from(error: ledger::LedgerError) -> Self {
        Self::Ledger(error)
    }
}

impl From<pipeline::AnswerError> for ApiError {
    fn from(error: pipeline::AnswerError) -> Self {
        Self::Challenge(error)
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::SessionNotFound => Self::SessionNotFound,
            StoreError::FileNotFound(_) => Self::FileNotFound,
            StoreError::BadFileName(_) => Self::BadFileName,
            StoreError::UnsupportedType(name) => Self::UnsupportedType(name),
            StoreError::ContentMismatch(name) => {
                // Latin words take spaces around them in Chinese text, Chinese words none.
                let kind = match FileKind::from_name(&name) {
                    Some(FileKind::Pdf) => " PDF ",
                    Some(FileKind::Xml) => " XML 电子发票",
                    Some(FileKind::Ofd) => " OFD 电子发票",
                    Some(FileKind::Image) | None => "图片",
                };
                Self::ContentMismatch(name, kind)
            }
            StoreError::EmptyFile => Self::EmptyFile,
            StoreError::TooLarge { limit } => Self::TooLarge(limit.div_ceil(1024 * 1024)),
            StoreError::Csv { file, message } => Self::TableRead(format!("{file}: {message}")),
            full @ StoreError::DiskFull { .. } => Self::DiskFull(full.to_string()),
            other => Self::Internal(other.to_string()),
        }
    }
}

impl From<JobStartError> for ApiError {
    fn from(error: JobStartError) -> Self {
        match error {
            JobStartError::Busy => Self::Busy,
            JobStartError::Store(store) => store.into(),
        }
    }
}

impl From<actix_web::error::BlockingError> for ApiError {
    fn from(error: actix_web::error::BlockingError) -> Self {
        Self::Internal(error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interface_messages_are_exact() {
        assert_eq!(ApiError::NoFileChosen.to_string(), "未选择文件");
        assert_eq!(ApiError::FileNotFound.to_string(), "文件不存在");
        assert_eq!(ApiError::NoAgentState.to_string(), "未找到 Agent 状态");
        assert_eq!(ApiError::NoAgentState.status_code(), StatusCode::NOT_FOUND);
        assert_eq!(ApiError::EmptySupplement.to_string(), "请输入补充信息");
        assert_eq!(
            ApiError::EmptySupplement.status_code(),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(ApiError::FileNotFound.status_code(), StatusCode::NOT_FOUND);
        assert_eq!(
            ApiError::TooLarge(50).status_code(),
            StatusCode::PAYLOAD_TOO_LARGE
        );
    }

    #[test]
    fn a_full_disk_is_said_plainly() {
        let error = ApiError::from(StoreError::DiskFull {
            path: "/data/sessions/x/invoice_summary.csv".into(),
        });
        assert_eq!(error.status_code(), StatusCode::INSUFFICIENT_STORAGE);
        let text = error.to_string();
        assert!(text.starts_with("磁盘空间不足"), "{text}");
        assert!(
            text.contains("invoice_summary.csv") && !text.contains("/data"),
            "{text}"
        );
    }

    #[test]
    fn internal_details_stay_out_of_the_body() {
        let error = ApiError::Internal("/secret/path".into());
        assert_eq!(error.to_string(), "服务器内部错误");
    }
}
