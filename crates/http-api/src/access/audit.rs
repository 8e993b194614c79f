//! The audit trail: what the HTTP shell records, in the ledger's database, with user, address
//! and time. Never a password: details are claim numbers, reasons and field names.

use crate::AppState;
use actix_web::web;

/// What happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    SignIn,
    SignInFailed,
    SignOut,
    SessionCreated,
    ProcessStarted,
    SubmitRequested,
    ClaimVoided,
    ConfigChanged,
}

impl Action {
    /// The word stored (and filtered on): the ledger's own `claim_accepted` is of this kind.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Action::SignIn => "sign_in",
            Action::SignInFailed => "sign_in_failed",
            Action::SignOut => "sign_out",
            Action::SessionCreated => "session_created",
            Action::ProcessStarted => "process_started",
            Action::SubmitRequested => "submit_requested",
            Action::ClaimVoided => "claim_voided",
            Action::ConfigChanged => "config_changed",
        }
    }
}

impl super::Caller {
    /// Appends what this caller did to the trail.
    pub(crate) async fn record(
        &self,
        state: &AppState,
        action: Action,
        session_id: &str,
        detail: String,
    ) {
        record(
            state,
            self.username(),
            &self.address,
            action,
            session_id,
            detail,
        )
        .await;
    }
}

/// Appends one line to the trail. A trail that cannot be written is logged, not shown to the
/// user: the act itself already happened.
pub(crate) async fn record(
    state: &AppState,
    username: &str,
    address: &str,
    action: Action,
    session_id: &str,
    detail: String,
) {
    let Some(ledger) = state.finance.ledger.clone() else {
        return;
    };
    let entry = ledger::AuditEntry {
        username: username.to_owned(),
        address: address.to_owned(),
        action: action.as_str().to_owned(),
        session_id: session_id.to_owned(),
        detail,
    };
    match web::block(move || ledger.record(&entry)).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => tracing::error!("audit trail not written: {error}"),
        Err(error) => tracing::error!("audit trail not written: {error}"),
    }
}
