//! POST /api/process: save the configuration, then extract and classify in a background job.

use crate::access::{Action, Caller, defaults_for, remember_defaults};
use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};
use domain::{ConfigField, SessionConfig};
use serde_json::{Map, Value};
use session_store::Session;

pub(crate) async fn start(
    state: web::Data<AppState>,
    caller: Caller,
    session_id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (session, config) = prepare_run(&state, &caller, &session_id, &body, "process").await?;
    let documents = state.documents.clone();
    let screenshots = state.screenshots.clone();
    state.jobs.start(session, "process", move |session| {
        pipeline::process(session, &config, &documents, &screenshots).result
    })?;
    Ok(HttpResponse::Ok().json(serde_json::json!({"status": "started"})))
}

/// What both processing endpoints do before their job: the session (not busy), its
/// configuration written from the body, and the start in the audit trail (`kind`).
pub(crate) async fn prepare_run(
    state: &AppState,
    caller: &Caller,
    session_id: &str,
    body: &[u8],
    kind: &str,
) -> Result<(Session, SessionConfig), ApiError> {
    let session = state.store.session(session_id)?;
    if state.jobs.is_busy(session.id()) {
        return Err(ApiError::Busy);
    }
    let config = write_config_from(state, caller, &session, body).await?;
    let id = session.id().as_str();
    caller
        .record(state, Action::ProcessStarted, id, kind.into())
        .await;
    Ok((session, config))
}

/// The processing endpoints' configuration: the session's (or the caller's defaults) with the
/// body's fields set, written to config.json as the interface requires. A change is audited
/// by field name (never a value) and kept as the caller's defaults for their next session.
pub(crate) async fn write_config_from(
    state: &AppState,
    caller: &Caller,
    session: &Session,
    body: &[u8],
) -> Result<SessionConfig, ApiError> {
    let updates = config_updates(body)?;
    let changed: Vec<&str> = updates.iter().map(|(field, _)| field.name()).collect();
    let changed = changed.join(",");
    let defaults = defaults_for(state, caller).await;
    let id = session.id().as_str().to_owned();
    let session = session.clone();
    let config = web::block(move || {
        let mut config = current_config(&session, defaults);
        for (field, value) in updates {
            config.set(field, value);
        }
        session.write_config(&config).map(|()| config)
    })
    .await??;
    if !changed.is_empty() {
        caller
            .record(state, Action::ConfigChanged, &id, changed)
            .await;
        remember_defaults(state, caller, &config).await;
    }
    Ok(config)
}

/// The fields a request sets. The body is optional (no body, or `{}`, changes nothing); every
/// field is an optional string, and `null` counts as absent.
pub(crate) fn config_updates(body: &[u8]) -> Result<Vec<(ConfigField, String)>, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    let map: Map<String, Value> = serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(format!("请求体不是有效的 JSON 对象：{e}")))?;
    let mut updates = Vec::new();
    for field in ConfigField::ALL {
        match map.get(field.name()) {
            None | Some(Value::Null) => {}
            Some(Value::String(value)) => updates.push((field, value.clone())),
            Some(_) => {
                return Err(ApiError::BadRequest(format!(
                    "{} 必须是字符串",
                    field.name()
                )));
            }
        }
    }
    Ok(updates)
}

/// The session's config.json, else the project-wide defaults. A config.json whose password
/// cannot be decrypted (the data dir's key was replaced) keeps its other fields and loses only
/// the password, which the user is asked for again.
pub(crate) fn current_config(session: &Session, defaults: SessionConfig) -> SessionConfig {
    match session.read_config() {
        Ok(Some(config)) => config,
        Ok(None) => defaults,
        Err(error) => {
            tracing::warn!(session = %session.id(), "config.json unreadable, password dropped: {error}");
            session
                .read_public_config()
                .ok()
                .flatten()
                .unwrap_or(defaults)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn updates_from_optional_string_fields() {
        assert!(config_updates(b"").unwrap().is_empty());
        assert!(config_updates(b"  \n").unwrap().is_empty());
        let updates =
            config_updates(br#"{"username":"1","consumable_storage":null,"x":1}"#).unwrap();
        assert_eq!(updates, vec![(ConfigField::Username, "1".to_owned())]);
        assert!(config_updates(br#"{"password":5}"#).is_err());
        assert!(config_updates(b"[1]").is_err());
        assert!(config_updates(b"{oops").is_err());
    }
}
