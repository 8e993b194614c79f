//! The agent endpoints (14–18): state, process, supplement by files, supplement by text, force
//! submit. Each check that can refuse at once does (404 `未找到 Agent 状态`, 400
//! `请输入补充信息`, 409 for a state that does not allow the request); the work runs as a job
//! whose `done` result the stream delivers.

use super::process::{current_config, prepare_run};
use crate::access::{Action, Caller, defaults_for};
use crate::{ApiError, AppState};
use actix_web::{HttpResponse, web};
use domain::{AgentSessionState, SessionConfig, validate_stored_name};
use pipeline::{AgentRefusal, AgentSettings};
use serde_json::Value;
use session_store::Session;

fn settings(state: &AppState) -> AgentSettings {
    AgentSettings {
        documents: state.documents.clone(),
        screenshots: state.screenshots.clone(),
        finance: state.finance.clone(),
    }
}

fn started() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({"status": "started"}))
}

fn refused(refusal: AgentRefusal) -> ApiError {
    match refusal {
        AgentRefusal::NoState => ApiError::NoAgentState,
        AgentRefusal::WrongState(state) => ApiError::AgentWrongState(state),
    }
}

async fn config_of(
    state: &AppState,
    caller: &Caller,
    session: &Session,
) -> Result<SessionConfig, ApiError> {
    let defaults = defaults_for(state, caller).await;
    let session = session.clone();
    Ok(web::block(move || current_config(&session, defaults)).await?)
}

/// GET /api/agent/state: the saved state, or the idle state a session's agent starts in.
pub(crate) async fn read(
    state: web::Data<AppState>,
    session_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let agent = {
        let session = session.clone();
        web::block(move || pipeline::read_agent_state(&session)).await?
    };
    let agent = agent.unwrap_or_else(|| AgentSessionState::new(session.id().as_str()));
    Ok(HttpResponse::Ok().json(agent))
}

/// POST /api/agent/process: the configuration written, then a fresh run.
pub(crate) async fn process(
    state: web::Data<AppState>,
    caller: Caller,
    session_id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let (session, config) = prepare_run(&state, &caller, &session_id, &body, "agent").await?;
    let settings = settings(&state);
    state.jobs.start(session, "agent", move |session| {
        pipeline::agent_process(session, &config, &settings)
    })?;
    Ok(started())
}

/// Refuses a request the agent's state does not allow (404 without a state, 409 in a state that
/// does not allow it, 409 while a job runs, whose state is in flight).
async fn check_state(
    state: &AppState,
    session: &Session,
    allowed: fn(&Session) -> Result<(), AgentRefusal>,
) -> Result<(), ApiError> {
    if state.jobs.is_busy(session.id()) {
        return Err(ApiError::Busy);
    }
    let session = session.clone();
    web::block(move || allowed(&session))
        .await?
        .map_err(refused)
}

/// Starts an agent job with the session's configuration.
async fn start_job(
    state: &AppState,
    caller: &Caller,
    session: Session,
    work: impl FnOnce(&Session, &SessionConfig, &AgentSettings) -> Value + Send + 'static,
) -> Result<HttpResponse, ApiError> {
    let config = config_of(state, caller, &session).await?;
    let settings = settings(state);
    state.jobs.start(session, "agent", move |session| {
        work(session, &config, &settings)
    })?;
    Ok(started())
}

/// The string list `files` of a supplement body, each naming a file of the session.
fn supplement_files(body: &[u8], session: &Session) -> Result<Vec<String>, ApiError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(format!("请求体不是有效的 JSON：{e}")))?;
    let files = value["files"]
        .as_array()
        .ok_or_else(|| ApiError::BadRequest("files 必须是文件名数组".into()))?;
    let mut names = Vec::new();
    for file in files {
        let name = file
            .as_str()
            .ok_or_else(|| ApiError::BadRequest("files 中的每一项必须是文件名字符串".into()))?;
        validate_stored_name(name).map_err(|_| ApiError::BadFileName)?;
        session
            .existing_file(name)
            .map_err(|_| ApiError::BadRequest(format!("补充文件不存在，请先上传：{name}")))?;
        names.push(name.to_owned());
    }
    if names.is_empty() {
        return Err(ApiError::BadRequest("请选择要补充的文件".into()));
    }
    Ok(names)
}

/// POST /api/agent/supplement: `{files}` already uploaded; a new round over every file.
pub(crate) async fn supplement(
    state: web::Data<AppState>,
    caller: Caller,
    session_id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    check_state(&state, &session, pipeline::can_supplement).await?;
    let files = {
        let session = session.clone();
        web::block(move || supplement_files(&body, &session)).await??
    };
    start_job(
        &state,
        &caller,
        session,
        move |session, config, settings| {
            pipeline::agent_supplement_files(session, &files, config, settings)
        },
    )
    .await
}

/// POST /api/agent/user-supplement: `{text}`; its fields merged, then validated again.
pub(crate) async fn user_supplement(
    state: web::Data<AppState>,
    caller: Caller,
    session_id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    let value: Value = if body.iter().all(u8::is_ascii_whitespace) {
        Value::Null
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::BadRequest(format!("请求体不是有效的 JSON：{e}")))?
    };
    let text = match &value["text"] {
        Value::String(text) if !text.trim().is_empty() => text.clone(),
        Value::String(_) | Value::Null => return Err(ApiError::EmptySupplement),
        _ => return Err(ApiError::BadRequest("text 必须是字符串".into())),
    };
    if text.chars().count() > MAX_SUPPLEMENT_CHARS {
        return Err(ApiError::BadRequest(format!(
            "补充信息超过 {MAX_SUPPLEMENT_CHARS} 个字符"
        )));
    }
    check_state(&state, &session, pipeline::can_supplement).await?;
    start_job(
        &state,
        &caller,
        session,
        move |session, config, settings| {
            pipeline::agent_user_supplement(session, &text, config, settings)
        },
    )
    .await
}

/// Longest text supplement.
const MAX_SUPPLEMENT_CHARS: usize = 4_000;

/// POST /api/agent/force-submit: ready without validation, then the submission.
pub(crate) async fn force_submit(
    state: web::Data<AppState>,
    caller: Caller,
    session_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let session = state.store.session(&session_id)?;
    check_state(&state, &session, pipeline::can_force_submit).await?;
    let id = session.id().as_str().to_owned();
    let response = start_job(&state, &caller, session, pipeline::agent_force_submit).await?;
    caller
        .record(&state, Action::SubmitRequested, &id, "force".into())
        .await;
    Ok(response)
}
