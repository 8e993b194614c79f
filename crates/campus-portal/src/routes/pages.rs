//! The pages behind login: the frame and what opens inside it. Without a logged-in session the
//! frame sends the browser to the login page, and a page inside the frame says the login timed
//! out, as real systems do when a session expires under an open frame.

use actix_web::{HttpRequest, HttpResponse, web};

use crate::config::Account;
use crate::pages;
use crate::routes::reply::{current_user, html, redirect};
use crate::state::AppState;

/// `GET /main`.
pub(crate) async fn frame(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    match current_user(&req, &state) {
        Some(user) => html(pages::frame(user), None),
        None => redirect("/"),
    }
}

/// `GET /home`.
pub(crate) async fn home(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    inner(&req, &state, pages::home)
}

/// `GET /claim/daily`.
pub(crate) async fn daily(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    inner(&req, &state, pages::daily)
}

/// `GET /claim/travel`.
pub(crate) async fn travel(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    inner(&req, &state, pages::travel)
}

/// `GET /claims/mine`.
pub(crate) async fn mine(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    inner(&req, &state, |user| {
        let claims = state.claims().of(&user.staff_no);
        pages::mine(&claims)
    })
}

fn inner(
    req: &HttpRequest,
    state: &AppState,
    render: impl FnOnce(&Account) -> String,
) -> HttpResponse {
    match current_user(req, state) {
        Some(user) => html(render(user), None),
        None => html(pages::expired(), None),
    }
}
