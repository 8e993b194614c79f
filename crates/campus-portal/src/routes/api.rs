//! The JSON endpoints: the department list the forms load by XHR, and every claim for tests.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::json;

use crate::routes::reply::current_user;
use crate::state::AppState;

/// `GET /api/departments`: `{"code":0,"msg":"成功","data":[{"code","name"}…]}` after the
/// configured delay (the select stays empty until then); `code` 401 without a login.
pub(crate) async fn departments(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if current_user(&req, &state).is_none() {
        return HttpResponse::Unauthorized()
            .json(json!({"code": 401, "msg": "登录已超时，请重新登录", "data": []}));
    }
    actix_web::rt::time::sleep(state.config.departments_delay).await;
    let data: Vec<_> = state
        .config
        .departments
        .iter()
        .map(|d| json!({"code": d.code, "name": d.name}))
        .collect();
    HttpResponse::Ok().json(json!({"code": 0, "msg": "成功", "data": data}))
}

/// `GET /api/claims`: every filed claim, oldest first, for tests to check what was submitted.
pub(crate) async fn claims(state: web::Data<AppState>) -> HttpResponse {
    let all = state.claims().all().to_vec();
    HttpResponse::Ok().json(all)
}
