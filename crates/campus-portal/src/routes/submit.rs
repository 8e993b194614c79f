//! Posting a claim form: read, validate, file. Every answer is JSON the page acts on:
//! `{"success":true,"billNo":…,"message":"提交成功，单据号：…"}` or
//! `{"success":false,"message":…}`, the message being what the page `alert`s.

use actix_multipart::Multipart;
use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::json;

use crate::claims::Claim;
use crate::config::Account;
use crate::form::{self, PostedForm};
use crate::routes::reply::current_user;
use crate::state::AppState;
use crate::validate;

type Validator = fn(&PostedForm, &Account, &AppState) -> Result<Claim, String>;

/// `POST /claim/daily/submit`.
pub(crate) async fn daily(
    req: HttpRequest,
    state: web::Data<AppState>,
    payload: Multipart,
) -> HttpResponse {
    submit(&req, &state, payload, validate::daily).await
}

/// `POST /claim/travel/submit`.
pub(crate) async fn travel(
    req: HttpRequest,
    state: web::Data<AppState>,
    payload: Multipart,
) -> HttpResponse {
    submit(&req, &state, payload, validate::travel).await
}

async fn submit(
    req: &HttpRequest,
    state: &AppState,
    payload: Multipart,
    validator: Validator,
) -> HttpResponse {
    let Some(user) = current_user(req, state) else {
        return HttpResponse::Unauthorized()
            .json(json!({"success": false, "message": "登录已超时，请重新登录"}));
    };
    let posted = match form::read(payload).await {
        Ok(posted) => posted,
        Err(error) => return refusal(&error.to_string()),
    };
    let filed = validator(&posted, user, state).and_then(|claim| state.claims().file(claim));
    match filed {
        Ok(number) => {
            tracing::info!(claim = %number, staff_no = %user.staff_no, "claim filed");
            HttpResponse::Ok().json(json!({
                "success": true,
                "billNo": number,
                "message": format!("提交成功，单据号：{number}"),
            }))
        }
        Err(message) => refusal(&message),
    }
}

/// A refusal: HTTP 200 with `success: false`, as such systems answer a business error.
fn refusal(message: &str) -> HttpResponse {
    HttpResponse::Ok().json(json!({"success": false, "message": message}))
}
