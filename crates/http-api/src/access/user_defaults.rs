//! Each signed-in user's saved configuration: what a new session of theirs starts from, in
//! place of the project-wide one (which stays for `mode = none`). Kept in the ledger's
//! database with the password sealed under the data dir's key, as in config.json.

use super::Caller;
use crate::AppState;
use actix_web::web;
use domain::SessionConfig;

/// The configuration a session of this caller falls back to when it has none of its own.
pub(crate) async fn defaults_for(state: &AppState, caller: &Caller) -> SessionConfig {
    if !caller.is_signed_in() {
        return SessionConfig::clone(&state.defaults);
    }
    let (Some(ledger), store) = (state.finance.ledger.clone(), state.store.clone()) else {
        return SessionConfig::default();
    };
    let username = caller.username().to_owned();
    let loaded = web::block(move || {
        let sealed = ledger.user_defaults(&username).ok().flatten()?;
        match store.open_config(&sealed) {
            Ok(config) => Some(config),
            Err(error) => {
                tracing::warn!(user = %username, "saved defaults unreadable: {error}");
                None
            }
        }
    })
    .await;
    loaded.ok().flatten().unwrap_or_default()
}

/// Keeps `config` as the caller's defaults for their next sessions.
pub(crate) async fn remember_defaults(state: &AppState, caller: &Caller, config: &SessionConfig) {
    if !caller.is_signed_in() {
        return;
    }
    let Some(ledger) = state.finance.ledger.clone() else {
        return;
    };
    let sealed = match state.store.seal_config(config) {
        Ok(sealed) => sealed,
        Err(error) => {
            tracing::warn!("defaults not saved: {error}");
            return;
        }
    };
    let username = caller.username().to_owned();
    match web::block(move || ledger.set_user_defaults(&username, &sealed)).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => tracing::warn!("defaults not saved: {error}"),
        Err(error) => tracing::warn!("defaults not saved: {error}"),
    }
}
