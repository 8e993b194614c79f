//! Errors of the portal and how each becomes an HTML page (or a redirect to the login page).

use crate::pages::layout;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, ResponseError};

/// Something went wrong that is not a validation message on a form.
#[derive(Debug, thiserror::Error)]
pub enum PortalError {
    /// No valid session cookie: answered with a redirect to the login page.
    #[error("请先登录")]
    LoginRequired,
    /// 404: no claim of the account's has this number.
    #[error("报销单不存在")]
    ClaimNotFound,
    /// 400: a submission the server could not read as a form (the reason).
    #[error("提交格式错误：{0}")]
    Malformed(String),
    /// 500: no random bytes for a session token (the reason).
    #[error("生成会话标识失败：{0}")]
    Random(String),
    /// 500: the claims file could not be read at start (the reason).
    #[error("读取报销记录失败：{0}")]
    Load(String),
    /// 500: the claims file could not be written.
    #[error("保存报销记录失败：{0}")]
    Persist(#[from] std::io::Error),
}

impl ResponseError for PortalError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::LoginRequired => StatusCode::SEE_OTHER,
            Self::ClaimNotFound => StatusCode::NOT_FOUND,
            Self::Malformed(_) => StatusCode::BAD_REQUEST,
            Self::Random(_) | Self::Load(_) | Self::Persist(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let Self::LoginRequired = self {
            return HttpResponse::SeeOther()
                .insert_header((header::LOCATION, "/login"))
                .finish();
        }
        if self.status_code().is_server_error() {
            tracing::error!(error = %self, "demo portal error");
        }
        layout::html_response(self.status_code(), layout::error_page(&self.to_string()))
    }
}
