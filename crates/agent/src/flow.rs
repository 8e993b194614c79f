//! A round of the agent flow, with the IO handed in (`AgentIo`): extract, validate and correct
//! (at most three attempts, each reported as `agent_extract_status`), judge, then submit or ask
//! for a supplement. Every transition is recorded (state saved, events appended) before the
//! next step, so a client following the stream sees the interface's event order.

use crate::TravelApplication;
use crate::claim::{Claim, ClaimRow};
use crate::correct::Correction;
use crate::judge::{Judgement, merge_model};
use crate::machine::{Machine, Request, Step, state};
use crate::rules::{Issue, RuleSet};
use crate::validate::Extraction;
use domain::{AgentSessionState, Event};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A submission's outcome.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Submitted {
    /// Whether the finance system accepted the claim.
    pub submit_ok: bool,
    /// Why it did not, in the user's words.
    pub submit_error: Option<String>,
    /// The claim number the finance system gave, when it showed one.
    pub claim_no: Option<String>,
}

/// What the user supplied so far, kept in `extracted_info.user` across rounds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UserInput {
    /// Trip fields by Chinese name.
    #[serde(default)]
    pub trip: BTreeMap<String, String>,
    /// Materials supplied (`住宿水单`, `销货清单`).
    #[serde(default)]
    pub materials: Vec<String>,
}

impl UserInput {
    /// The user input stored in a state object.
    pub fn of(state: &AgentSessionState) -> Self {
        serde_json::from_value(state.extracted_info["user"].clone()).unwrap_or_default()
    }
}

/// The session around the agent.
pub trait AgentIo {
    /// Saves the state object (atomically) and appends the events to the agent log.
    fn record(&mut self, state: &AgentSessionState, events: &[Event]);
    /// A line for session.log (module `agent`).
    fn log(&mut self, level: &str, message: &str);
    /// Extracts every invoice of the session (unchanged files from the cache) into a claim.
    fn extract(&mut self) -> Result<Extraction, String>;
    /// The claim as the table stands now, without extracting again (after a text supplement).
    fn current(&mut self) -> Result<Extraction, String>;
    /// Writes corrected rows back to the invoice table.
    fn save_rows(&mut self, rows: &[ClaimRow]) -> Result<(), String>;
    /// Writes travel_applications.json.
    fn save_application(&mut self, trip: &TravelApplication) -> Result<(), String>;
    /// The model's judgement given the claim, the rules' judgement and the previous round's
    /// report; None without a model, Err when it failed (the rules then decide).
    fn model_judgement(
        &mut self,
        claim: &Claim,
        rules: &Judgement,
        previous: Option<&Value>,
    ) -> Option<Result<Judgement, String>>;
    /// Submits the table to the finance system.
    fn submit(&mut self) -> Submitted;
}

fn record<S>(io: &mut dyn AgentIo, step: Step<S>) -> Machine<S> {
    io.record(step.machine.data(), &step.events);
    step.machine
}

/// The `done` result of a failed round.
fn failure(message: &str) -> Value {
    json!({"ok": false, "error": message})
}

/// Where a round's claim comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Every invoice extracted again (a new process, a supplement by files).
    Extract,
    /// The table as it stands (a supplement by text: "the agent validation runs again").
    Current,
}

/// Runs the round a transition into `extracting` began, to its end; returns the `done` result.
pub fn run_round(step: Step<state::Extracting>, io: &mut dyn AgentIo, source: Source) -> Value {
    let mut machine = record(io, step);
    let round = machine.round();
    let extracted = match source {
        Source::Extract => io.extract(),
        Source::Current => io.current(),
    };
    let extraction = match extracted {
        Ok(extraction) if !extraction.claim.rows.is_empty() => extraction,
        Ok(_) => return fail(machine, io, "没有提取到发票数据，请上传发票后重试"),
        Err(message) => return fail(machine, io, &format!("提取失败：{message}")),
    };
    let user = UserInput::of(machine.data());
    let mut extraction = extraction;
    let claim = &mut extraction.claim;
    claim.trip = std::mem::take(&mut claim.trip).merged_with(&user.trip);
    for material in &user.materials {
        if !claim.materials.contains(material) {
            claim.materials.push(material.clone());
        }
    }
    let (issues, attempts, corrections, rules) =
        validate_and_correct(&mut machine, io, &mut extraction);
    let claim = extraction.claim;
    if let Err(error) = io.save_application(&claim.trip) {
        io.log("WARN", &format!("无法写入出差申请信息：{error}"));
    }
    let previous = machine.data().validation_reports.last().cloned();
    let judgement = match io.model_judgement(&claim, &rules, previous.as_ref()) {
        None => rules,
        Some(Ok(model)) => merge_model(&rules, &model),
        Some(Err(error)) => {
            io.log(
                "WARN",
                &format!("语言模型判断失败（{error}），改由规则判断"),
            );
            rules
        }
    };
    {
        let mut data = machine.data_mut();
        data.set_invoice_type(claim.kind().as_str());
        data.set_extracted_info(json!({
            "rows": claim.rows,
            "trip": claim.trip,
            "materials": claim.materials,
            "user": user,
        }));
        data.push_validation_report(json!({
            "round": round,
            "attempts": attempts,
            "issues": issues,
            "corrections": corrections,
            "judgement": judgement,
        }));
    }
    // Worth a look, never a stop: said on the stream either way.
    for notice in &judgement.notices {
        io.log("WARN", &format!("请留意：{notice}"));
    }
    if judgement.can_submit {
        let message = format!("第 {round} 轮校验通过，信息完整，自动提交");
        submit_ready(machine.ready(&message), io, Some(&message))
    } else {
        let request = Request {
            missing_fields: judgement.missing_fields,
            missing_materials: judgement.missing_materials,
            semantic_issues: judgement.semantic_issues,
            suggestion: judgement.suggestion,
        };
        waiting(machine.request_supplement(request), io)
    }
}

fn fail(machine: Machine<state::Extracting>, io: &mut dyn AgentIo, message: &str) -> Value {
    io.log("ERROR", message);
    record(io, machine.fail(message));
    failure(message)
}

fn waiting(step: Step<state::AwaitingSupplement>, io: &mut dyn AgentIo) -> Value {
    let machine = record(io, step);
    json!({
        "ok": true,
        "agent_ready": false,
        "agent_state": "awaiting_supplement",
        "round": machine.data().rounds,
        "waiting_for_supplement": true,
    })
}

/// Validates the claim as [`Extraction::validate`] does, reporting each attempt as
/// `agent_extract_status` and saving corrected rows; returns the last findings, the attempts'
/// summaries, every correction made and the rules' judgement.
fn validate_and_correct(
    machine: &mut Machine<state::Extracting>,
    io: &mut dyn AgentIo,
    extraction: &mut Extraction,
) -> (Vec<Issue>, Vec<Value>, Vec<Correction>, Judgement) {
    let round = machine.round();
    let validation = extraction.validate(RuleSet::builtin());
    for attempt in &validation.attempts {
        let n = attempt.attempt;
        let message = match attempt.state {
            "passed" => format!("第 {n} 次校验通过"),
            "issues" => format!("第 {n} 次校验发现 {} 个问题，无法自动更正", attempt.issues),
            _ => format!(
                "第 {n} 次校验发现 {} 个问题，已自动更正 {} 处",
                attempt.issues, attempt.corrections
            ),
        };
        let event = Event::AgentExtractStatus {
            state: attempt.state.to_owned(),
            round,
            attempt: n,
            message: message.clone(),
        };
        io.record(machine.data(), &[event]);
        io.log("INFO", &message);
    }
    if !validation.corrections.is_empty()
        && let Err(error) = io.save_rows(&extraction.claim.rows)
    {
        io.log("WARN", &format!("无法保存更正后的表格：{error}"));
    }
    let attempts = validation
        .attempts
        .iter()
        .map(|a| json!({"attempt": a.attempt, "state": a.state, "issues": a.issues, "corrections": a.corrections}))
        .collect();
    (
        validation.issues,
        attempts,
        validation.corrections,
        validation.judgement,
    )
}

/// ready → submitting → done: submits and returns the `done` result. `round_message` is the
/// agent's own (automatic submission after a round); None for a force submit.
pub fn submit_ready(
    step: Step<state::Ready>,
    io: &mut dyn AgentIo,
    round_message: Option<&str>,
) -> Value {
    let machine = record(io, step);
    let machine = record(io, machine.begin_submission());
    let round = machine.data().rounds;
    let submitted = io.submit();
    record(io, machine.finish(submitted.submit_error.as_deref()));
    let mut result = match round_message {
        Some(message) => json!({
            "ok": true,
            "agent_ready": true,
            "submit_ok": submitted.submit_ok,
            "round": round,
            "message": message,
        }),
        None => json!({
            "ok": true,
            "submit_ok": submitted.submit_ok,
            "submit_error": submitted.submit_error,
        }),
    };
    if let Some(object) = result.as_object_mut() {
        if let Some(error) = &submitted.submit_error {
            object.insert("submit_error".into(), json!(error));
        }
        if let Some(claim_no) = &submitted.claim_no {
            object.insert("claim_no".into(), json!(claim_no));
        }
    }
    result
}
