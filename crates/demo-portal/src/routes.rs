//! The route table and the handlers of the pages that only show something (GET).

use crate::api;
use crate::auth::{self, User, current_user};
use crate::error::PortalError;
use crate::hooks::Page;
use crate::model::{GeneralForm, TravelForm};
use crate::pages::{claims, general, home, layout, travel};
use crate::state::PortalState;
use crate::submit;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

/// Largest login form body.
const LOGIN_FORM_LIMIT: usize = 16 * 1024;

/// Registers every route of the portal and its state on an actix `App` (or scope):
/// `App::new().configure(|cfg| reimburse_demo_portal::configure(cfg, state.clone()))`.
pub fn configure(cfg: &mut web::ServiceConfig, state: web::Data<PortalState>) {
    cfg.app_data(state)
        .app_data(web::FormConfig::default().limit(LOGIN_FORM_LIMIT))
        .route("/", web::get().to(root))
        .route("/login", web::get().to(auth::login_page))
        .route("/login", web::post().to(auth::login_submit))
        .route("/logout", web::get().to(auth::logout))
        .route("/logout", web::post().to(auth::logout))
        .route("/portal/home", web::get().to(home_page))
        .route("/portal/frame/welcome", web::get().to(welcome))
        .route("/portal/frame/general", web::get().to(general_form))
        .route("/portal/frame/general", web::post().to(submit::general))
        .route("/portal/frame/travel", web::get().to(travel_form))
        .route("/portal/frame/travel", web::post().to(submit::travel))
        .route("/portal/frame/claims", web::get().to(claims_list))
        .route("/portal/frame/claims/{claim_no}", web::get().to(claim_page))
        .configure(api::configure);
}

/// The page for a path that does not exist.
pub(crate) async fn not_found() -> HttpResponse {
    layout::html_response(StatusCode::NOT_FOUND, layout::error_page("页面不存在"))
}

fn redirect(to: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, to))
        .finish()
}

fn ok(html: String) -> HttpResponse {
    layout::html_response(StatusCode::OK, html)
}

/// GET /: home when logged in, otherwise the login page.
async fn root(req: HttpRequest, state: web::Data<PortalState>) -> HttpResponse {
    match current_user(&req, &state) {
        Some(_) => redirect("/portal/home"),
        None => redirect("/login"),
    }
}

async fn home_page(state: web::Data<PortalState>, user: User) -> HttpResponse {
    state.pause(Page::Home).await;
    ok(home::render(&user))
}

async fn welcome(user: User) -> HttpResponse {
    ok(home::welcome(&user))
}

/// GET /portal/frame/general: an empty form with 报销人 and 工号 of the logged-in user.
async fn general_form(state: web::Data<PortalState>, user: User) -> HttpResponse {
    state.pause(Page::GeneralForm).await;
    let form = GeneralForm {
        claimant: user.display_name,
        employee_no: user.employee_no,
        ..GeneralForm::default()
    };
    ok(general::render(&form, &[], &state.config.departments))
}

/// GET /portal/frame/travel: an empty form with 出差人 and 工号 of the logged-in user.
async fn travel_form(state: web::Data<PortalState>, user: User) -> HttpResponse {
    state.pause(Page::TravelForm).await;
    let form = TravelForm {
        claimant: user.display_name,
        employee_no: user.employee_no,
        ..TravelForm::default()
    };
    ok(travel::render(&form, &[]))
}

async fn claims_list(state: web::Data<PortalState>, user: User) -> HttpResponse {
    state.pause(Page::ClaimsList).await;
    ok(claims::list(&state.claims_of(&user.employee_no)))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ClaimQuery {
    /// Set by the redirect after a successful submission.
    submitted: Option<String>,
}

/// GET /portal/frame/claims/{claim_no}: one of the user's own claims.
async fn claim_page(
    state: web::Data<PortalState>,
    user: User,
    claim_no: web::Path<String>,
    query: web::Query<ClaimQuery>,
) -> Result<HttpResponse, PortalError> {
    state.pause(Page::Confirmation).await;
    let claim = state
        .claim(&claim_no)
        .filter(|c| c.submitted_by == user.employee_no)
        .ok_or(PortalError::ClaimNotFound)?;
    Ok(ok(claims::detail(&claim, query.submitted.is_some())))
}
