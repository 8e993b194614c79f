//! The stylesheet and scripts, embedded in the binary: the portal loads nothing from elsewhere.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

/// `GET /static/{name}`.
pub(crate) async fn asset(name: web::Path<String>) -> HttpResponse {
    let (body, content_type) = match name.as_str() {
        "portal.css" => (
            include_str!("../../assets/portal.css"),
            "text/css; charset=utf-8",
        ),
        "login.js" => (include_str!("../../assets/login.js"), JS),
        "datepicker.js" => (include_str!("../../assets/datepicker.js"), JS),
        "claim-form.js" => (include_str!("../../assets/claim-form.js"), JS),
        _ => return HttpResponse::NotFound().finish(),
    };
    HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

const JS: &str = "text/javascript; charset=utf-8";
