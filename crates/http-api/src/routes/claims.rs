//! The history of claims, from the claims ledger (our addition to the interface, see
//! docs/api.md): the list with filters, one claim with its invoices, voiding with a reason,
//! and the ledger exported as CSV and as an Excel workbook. A `staff` user sees only their own
//! claims; a `finance` user (and everyone with sign-in off) sees all and may void.

use crate::access::{Action, Caller};
use crate::{ApiError, AppState};
use actix_web::http::header::{ContentDisposition, DispositionParam, DispositionType};
use actix_web::{HttpResponse, web};
use ledger::{ClaimFilter, ClaimId, ClaimStatus, ClaimSummary, Ledger};
use serde::Deserialize;
use serde_json::{Value, json};

/// The list's query: every field optional.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Query {
    staff_no: String,
    kind: String,
    from: String,
    to: String,
    /// Part of a claim number, claimant, seller or invoice number.
    q: String,
    status: String,
    limit: Option<u32>,
    offset: u32,
}

impl Query {
    /// The filter, narrowed to the caller's own claims unless they are a finance user.
    fn filter_for(&self, caller: &Caller) -> Result<ClaimFilter, ApiError> {
        let mut filter = self.filter()?;
        if !caller.identity.finance {
            filter.owner = Some(caller.username().to_owned());
        }
        Ok(filter)
    }

    fn filter(&self) -> Result<ClaimFilter, ApiError> {
        let given = |v: &str| Some(v.trim().to_owned()).filter(|v| !v.is_empty());
        let status = match given(&self.status) {
            None => None,
            Some(word) => Some(ClaimStatus::parse(&word).ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "未知的状态「{word}」（pending、accepted、released、voided）"
                ))
            })?),
        };
        Ok(ClaimFilter {
            staff_no: given(&self.staff_no),
            kind: given(&self.kind),
            from: given(&self.from),
            to: given(&self.to),
            text: given(&self.q),
            status,
            limit: Some(self.limit.unwrap_or(200).min(1000)),
            offset: self.offset,
            owner: None,
        })
    }
}

fn ledger(state: &AppState) -> Result<Ledger, ApiError> {
    state.finance.ledger.clone().ok_or(ApiError::NoLedger)
}

/// A summary as the page shows it: the total also in yuan.
fn shown(summary: &ClaimSummary) -> Value {
    let mut value = serde_json::to_value(summary).unwrap_or(Value::Null);
    value["total"] = json!(domain::format_cents(summary.total_cents));
    value["status_label"] = json!(summary.status.label());
    value
}

/// `GET /api/claims`: `{"claims": [...]}`, newest first.
pub(crate) async fn list(
    state: web::Data<AppState>,
    caller: Caller,
    query: web::Query<Query>,
) -> Result<HttpResponse, ApiError> {
    let ledger = ledger(&state)?;
    let filter = query.filter_for(&caller)?;
    let claims = web::block(move || ledger.claims(&filter)).await??;
    let claims: Vec<Value> = claims.iter().map(shown).collect();
    Ok(HttpResponse::Ok().json(json!({ "claims": claims })))
}

/// `GET /api/claims/<id>`: the claim with its invoices, how it ended, and where its session's
/// files are.
pub(crate) async fn detail(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let ledger = ledger(&state)?;
    let id = ClaimId(*id);
    // Another's claim is as unknown to a staff user as a claim that does not exist.
    let detail = web::block(move || ledger.claim(id))
        .await??
        .filter(|detail| caller.identity.finance || detail.summary.owner == caller.username())
        .ok_or(ledger::LedgerError::NotFound)?;
    let session = &detail.summary.session_id;
    let session_exists = state.store.session(session).is_ok();
    let mut value = serde_json::to_value(&detail).unwrap_or(Value::Null);
    value["summary"] = shown(&detail.summary);
    value["files_url"] = if session_exists {
        json!(format!("/api/files/{session}"))
    } else {
        Value::Null
    };
    Ok(HttpResponse::Ok().json(value))
}

#[derive(Debug, Deserialize)]
pub(crate) struct VoidBody {
    #[serde(default)]
    reason: String,
    /// Who voids it (until sign-in exists, what the person typed).
    #[serde(default)]
    by: String,
}

/// `POST /api/claims/<id>/void` `{reason, by?}`: the claim's invoices become claimable again
/// (an accepted claim is voided; one a crash left pending is released).
pub(crate) async fn void(
    state: web::Data<AppState>,
    caller: Caller,
    id: web::Path<i64>,
    body: web::Json<VoidBody>,
) -> Result<HttpResponse, ApiError> {
    if !caller.identity.finance {
        return Err(ApiError::Forbidden("只有财务人员可以作废报销单".into()));
    }
    let ledger = ledger(&state)?;
    let id = ClaimId(*id);
    let VoidBody { reason, by } = body.into_inner();
    let audited = format!("报销单 {}：{}", id.0, reason.trim());
    // Signed in, the voider is who signed in, not what they typed.
    let by = if caller.is_signed_in() {
        caller.identity.display_name.clone()
    } else if by.trim().is_empty() {
        "（未署名）".to_owned()
    } else {
        by.trim().to_owned()
    };
    web::block(move || match ledger.void(id, reason.trim(), &by) {
        // A claim a crash left 提交中 after its final submit: the person checked the portal and
        // found nothing filed, so its invoices are released with the reason.
        Err(ledger::LedgerError::NotAccepted)
            if ledger
                .claim(id)?
                .is_some_and(|c| c.summary.status == ClaimStatus::Pending) =>
        {
            ledger.release(id, &format!("{}（{by}）", reason.trim()))
        }
        other => other,
    })
    .await??;
    caller
        .record(&state, Action::ClaimVoided, "", audited)
        .await;
    Ok(HttpResponse::Ok().json(json!({"ok": true})))
}

/// `GET /api/claims/export.csv` and `.xlsx`: the filtered ledger, one line per invoice.
pub(crate) async fn export(
    state: web::Data<AppState>,
    caller: Caller,
    format: web::Path<String>,
    query: web::Query<Query>,
) -> Result<HttpResponse, ApiError> {
    let ledger = ledger(&state)?;
    let mut filter = query.filter_for(&caller)?;
    filter.limit = None;
    let (content_type, xlsx) = match format.as_str() {
        "csv" => ("text/csv; charset=utf-8", false),
        "xlsx" => (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            true,
        ),
        _ => return Err(ApiError::NoSuchEndpoint),
    };
    let bytes = web::block(move || {
        if xlsx {
            ledger.export_xlsx(&filter)
        } else {
            ledger.export_csv(&filter)
        }
    })
    .await??;
    let name = format!("报销台账.{format}");
    Ok(HttpResponse::Ok()
        .content_type(content_type)
        .insert_header(ContentDisposition {
            disposition: DispositionType::Attachment,
            parameters: vec![DispositionParam::FilenameExt(
                actix_web::http::header::ExtendedValue {
                    charset: actix_web::http::header::Charset::Ext("UTF-8".into()),
                    language_tag: None,
                    value: name.into_bytes(),
                },
            )],
        })
        .body(bytes))
}
