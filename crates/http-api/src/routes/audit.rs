//! The audit trail for finance users (our addition, docs/api.md): `GET /api/audit` with
//! filters and `GET /api/audit/export.csv`.

use crate::access::Caller;
use crate::{ApiError, AppState};
use actix_web::http::header::{
    Charset, ContentDisposition, DispositionParam, DispositionType, ExtendedValue,
};
use actix_web::{HttpResponse, web};
use ledger::AuditFilter;
use serde::Deserialize;
use serde_json::json;

/// The query: every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Query {
    user: String,
    action: String,
    session: String,
    from: String,
    to: String,
    limit: Option<u32>,
    offset: u32,
}

impl Query {
    fn filter(&self) -> AuditFilter {
        let given = |v: &str| Some(v.trim().to_owned()).filter(|v| !v.is_empty());
        AuditFilter {
            username: given(&self.user),
            action: given(&self.action),
            session_id: given(&self.session),
            from: given(&self.from),
            to: given(&self.to),
            limit: Some(self.limit.unwrap_or(200).min(1000)),
            offset: self.offset,
        }
    }
}

/// Only the `finance` role reads the trail.
pub(crate) fn finance_only(caller: &Caller) -> Result<(), ApiError> {
    if caller.identity.finance {
        Ok(())
    } else {
        Err(ApiError::Forbidden("只有财务人员可以查看".into()))
    }
}

/// `GET /api/audit`: `{"entries": [...]}`, newest first.
pub(crate) async fn list(
    state: web::Data<AppState>,
    caller: Caller,
    query: web::Query<Query>,
) -> Result<HttpResponse, ApiError> {
    finance_only(&caller)?;
    let ledger = state.finance.ledger.clone().ok_or(ApiError::NoLedger)?;
    let filter = query.filter();
    let entries = web::block(move || ledger.audit_log(&filter)).await??;
    Ok(HttpResponse::Ok().json(json!({ "entries": entries })))
}

/// `GET /api/audit/export.csv`: the filtered trail, whole.
pub(crate) async fn export(
    state: web::Data<AppState>,
    caller: Caller,
    query: web::Query<Query>,
) -> Result<HttpResponse, ApiError> {
    finance_only(&caller)?;
    let ledger = state.finance.ledger.clone().ok_or(ApiError::NoLedger)?;
    let mut filter = query.filter();
    filter.limit = None;
    let bytes = web::block(move || ledger.export_audit_csv(&filter)).await??;
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::FilenameExt(ExtendedValue {
                charset: Charset::Ext("UTF-8".into()),
                language_tag: None,
                value: "审计日志.csv".as_bytes().to_vec(),
            })],
        })
        .body(bytes))
}
