//! POST of the two claim forms: read, validate, store, then redirect to the confirmation, or show
//! the form again with the messages.

use crate::auth::User;
use crate::clock;
use crate::error::PortalError;
use crate::form_fields;
use crate::hooks::Page;
use crate::model::ClaimDetails;
use crate::pages::{general, layout, travel};
use crate::state::{Accepted, Draft, PortalState};
use crate::upload::{self, Limits, Received};
use crate::validate::{
    self, ATTACHMENT_FILES, INVOICE_FILES, OUTBOUND_FILE, format_cents, parse_cents,
};
use actix_multipart::Multipart;
use actix_web::http::{StatusCode, header};
use actix_web::{HttpResponse, web};

/// POST /portal/frame/general.
pub(crate) async fn general(
    state: web::Data<PortalState>,
    user: User,
    mut payload: Multipart,
) -> Result<HttpResponse, PortalError> {
    state.pause(Page::Submit).await;
    let received = upload::receive(&mut payload, limits(&state)).await?;
    let (form, sent) = form_fields::general(&received);
    let departments = &state.config.departments;
    let errors = errors_or_else(&state, &received, || {
        validate::general(&form, sent, &received.files, departments)
    });
    let show_again = |errors: &[String]| general::render(&form, errors, departments);
    if !errors.is_empty() {
        return Ok(refused(show_again(&errors)));
    }
    let total = total(form.rows.iter().map(|r| r.amount.as_str()));
    let files = [INVOICE_FILES, OUTBOUND_FILE];
    let details = ClaimDetails::General(form.clone());
    store(&state, &user, details, total, &received, &files, show_again)
}

/// POST /portal/frame/travel.
pub(crate) async fn travel(
    state: web::Data<PortalState>,
    user: User,
    mut payload: Multipart,
) -> Result<HttpResponse, PortalError> {
    state.pause(Page::Submit).await;
    let received = upload::receive(&mut payload, limits(&state)).await?;
    let (form, sent) = form_fields::travel(&received);
    let errors = errors_or_else(&state, &received, || {
        validate::travel(&form, sent, &received.files)
    });
    let show_again = |errors: &[String]| travel::render(&form, errors);
    if !errors.is_empty() {
        return Ok(refused(show_again(&errors)));
    }
    let total = total(form.rows.iter().map(|r| r.amount.as_str()));
    let details = ClaimDetails::Travel(form.clone());
    store(
        &state,
        &user,
        details,
        total,
        &received,
        &[ATTACHMENT_FILES],
        show_again,
    )
}

fn limits(state: &PortalState) -> Limits {
    Limits {
        file_bytes: state.config.max_file_bytes,
        request_bytes: state.config.max_request_bytes,
    }
}

/// The messages that refuse a submission: the reject-all hook's alone when it is set, else the
/// problems met while reading it followed by the validation's.
fn errors_or_else(
    state: &PortalState,
    received: &Received,
    validate: impl FnOnce() -> Vec<String>,
) -> Vec<String> {
    if let Some(message) = state.hooks().reject_all_with {
        return vec![message];
    }
    let mut errors = received.problems.clone();
    errors.extend(validate());
    errors
}

/// The sum of validated amounts.
fn total<'a>(amounts: impl Iterator<Item = &'a str>) -> String {
    format_cents(amounts.filter_map(|a| parse_cents(a).ok()).sum())
}

fn refused(html: String) -> HttpResponse {
    layout::html_response(StatusCode::UNPROCESSABLE_ENTITY, html)
}

/// Stores the claim and redirects to its confirmation page, or shows the form again when an
/// invoice was claimed before.
fn store(
    state: &PortalState,
    user: &User,
    details: ClaimDetails,
    total: String,
    received: &Received,
    file_fields: &[&str],
    show_again: impl FnOnce(&[String]) -> String,
) -> Result<HttpResponse, PortalError> {
    let attachments = received
        .files
        .iter()
        .filter(|f| file_fields.contains(&f.field.as_str()))
        .map(upload::ReceivedFile::attachment)
        .collect();
    let draft = Draft {
        submitted_by: user.employee_no.clone(),
        details,
        total,
        attachments,
    };
    match state.accept(draft, &clock::now())? {
        Accepted::Stored(claim) => {
            tracing::info!(claim_no = %claim.claim_no, by = %claim.submitted_by, "demo portal: claim accepted");
            Ok(HttpResponse::SeeOther()
                .insert_header((
                    header::LOCATION,
                    format!("/portal/frame/claims/{}?submitted=1", claim.claim_no),
                ))
                .finish())
        }
        Accepted::Duplicates(messages) => Ok(refused(show_again(&messages))),
    }
}
