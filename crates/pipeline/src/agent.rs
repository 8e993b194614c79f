//! The agent flow on a session: `agent::AgentIo` over the session's files, this crate's
//! extraction and submission, and the language model when one is configured. The four entry
//! points are the four agent endpoints' jobs; each returns the `done` result.

use crate::document::{DocumentSettings, load_records, regenerate_document};
use crate::package_step::{print_after_submission, with_package};
use crate::process::process;
use crate::recognise::ScreenshotSettings;
use crate::submit::{FinanceSettings, keyed_rows, submit};
use agent::{
    AgentIo, AnyMachine, Claim, ClaimBuilder, ClaimRow, Extraction, JUDGE_PROMPT, Judgement,
    Machine, NextRound, Source, Step, Submitted, TravelApplication, UserInput, judgement_schema,
    parse_text, run_round, state, submit_ready,
};
use domain::{AgentSessionState, ConfigField, Event, InvoiceKind, SessionConfig, Today};
use llm::{ChatRequest, Client};
use serde_json::{Value, json};
use session_store::{CsvTable, SUMMARY_CSV, Session};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::SystemTime;

/// The agent's state object in the session.
pub const AGENT_STATE_FILE: &str = "agent_state.json";
/// The travel application the agent gathers (see docs/agent.md).
pub const TRAVEL_APPLICATIONS_FILE: &str = "travel_applications.json";

/// What the agent's jobs need of the service.
#[derive(Debug, Clone)]
pub struct AgentSettings {
    /// The outbound-stock document and the printed claim, as for [`process`].
    pub documents: DocumentSettings,
    /// How payment screenshots are read; its language model also judges and reads text
    /// supplements.
    pub screenshots: ScreenshotSettings,
    /// The finance system the agent submits to.
    pub finance: FinanceSettings,
}

impl AgentSettings {
    fn llm(&self) -> Option<&Arc<Client>> {
        self.screenshots.llm.as_ref()
    }
}

/// The saved agent state, if the session has one.
pub fn read_agent_state(session: &Session) -> Option<AgentSessionState> {
    session
        .read_json(AGENT_STATE_FILE)
        .ok()
        .flatten()
        .and_then(|value| serde_json::from_value(value).ok())
}

struct SessionIo<'a> {
    session: &'a Session,
    config: SessionConfig,
    settings: &'a AgentSettings,
}

impl AgentIo for SessionIo<'_> {
    fn record(&mut self, state: &AgentSessionState, events: &[Event]) {
        // Reserved: the state is how a client learns the agent's outcome, full disk or not.
        if let Err(error) = self.session.write_json_reserved(AGENT_STATE_FILE, state) {
            let _ = self
                .session
                .log("ERROR", "agent", &format!("无法保存 Agent 状态：{error}"));
        }
        for event in events {
            let _ = self.session.emit(event);
        }
    }

    fn log(&mut self, level: &str, message: &str) {
        let _ = self.session.log(level, "agent", message);
    }

    fn extract(&mut self) -> Result<Extraction, String> {
        let outcome = process(
            self.session,
            &self.config,
            &self.settings.documents,
            &self.settings.screenshots,
        );
        if outcome.result["ok"] != true {
            return Err(outcome.result["error"]
                .as_str()
                .unwrap_or("提取失败")
                .to_owned());
        }
        Ok(self.claim())
    }

    fn current(&mut self) -> Result<Extraction, String> {
        Ok(self.claim())
    }

    fn save_rows(&mut self, rows: &[ClaimRow]) -> Result<(), String> {
        write_rows(self.session, rows, &self.config, &self.settings.documents)
    }

    fn save_application(&mut self, trip: &TravelApplication) -> Result<(), String> {
        self.session
            .write_json(TRAVEL_APPLICATIONS_FILE, trip)
            .map_err(|e| e.to_string())
    }

    fn model_judgement(
        &mut self,
        claim: &Claim,
        rules: &Judgement,
        previous: Option<&Value>,
    ) -> Option<Result<Judgement, String>> {
        let client = self.settings.llm()?;
        let input = json!({
            "invoices": claim.rows.iter().map(|r| &r.cells).collect::<Vec<_>>(),
            "claim_type": claim.kind().as_str(),
            "trip": claim.trip,
            "materials": claim.materials,
            "rule_findings": rules,
            "previous_round": previous,
        });
        let request = ChatRequest::text(format!("{JUDGE_PROMPT}\n\n{input}"))
            .with_json_schema(judgement_schema())
            .with_temperature(0.0);
        let session = self.session;
        let mut sink = |event: &Event| {
            let _ = session.emit(event);
        };
        Some(
            client
                .chat(request, &mut sink)
                .map_err(|e| e.to_string())
                .and_then(|response| {
                    response
                        .json
                        .and_then(|value| serde_json::from_value(value).ok())
                        .ok_or_else(|| "模型没有给出有效的 JSON 判断".to_owned())
                }),
        )
    }

    fn submit(&mut self) -> Submitted {
        let mut result = submit(self.session, &self.settings.finance);
        // The printed claim again, now with the claim number.
        print_after_submission(self.session, &self.settings.documents, &mut result);
        Submitted {
            submit_ok: result["submit_ok"] == true,
            submit_error: result["submit_error"].as_str().map(str::to_owned),
            claim_no: result["claim_no"].as_str().map(str::to_owned),
        }
    }
}

impl SessionIo<'_> {
    /// The claim from the table `/api/data` shows and the extraction's records.
    fn claim(&self) -> Extraction {
        let table = self
            .session
            .table_file_name()
            .ok()
            .flatten()
            .and_then(|name| self.session.read_table(&name).ok());
        let records = load_records(self.session);
        let mut builder = ClaimBuilder::new(self.config.clone(), Today::from(SystemTime::now()));
        let mut entries = Vec::new();
        for cells in table.iter().flat_map(keyed_rows) {
            let number = cells.get("发票号码").cloned().unwrap_or_default();
            let stored = records.iter().find(|s| s.record.invoice_number == number);
            entries.push(crate::ledger_step::entry(self.session, &cells, stored));
            let kind = stored.map_or_else(
                || {
                    let cell = |k: &str| cells.get(k).map(String::as_str).unwrap_or_default();
                    classify::classify(&crate::document::row_as_record(
                        cell("项目名称"),
                        cell("销售方名称"),
                    ))
                    .kind
                },
                |s| s.kind,
            );
            builder.row(cells, kind, stored.map(|s| &s.record));
        }
        if let Some(ledger) = &self.settings.finance.ledger {
            let notes = crate::ledger_step::notes(self.session, ledger, &entries);
            for (row, notes) in builder.rows_mut().iter_mut().zip(notes) {
                row.ledger = notes;
            }
        }
        builder.build()
    }
}

/// Writes rows back to the table `/api/data` shows and regenerates the document from it.
fn write_rows(
    session: &Session,
    rows: &[ClaimRow],
    config: &SessionConfig,
    documents: &DocumentSettings,
) -> Result<(), String> {
    let name = session
        .table_file_name()
        .map_err(|e| e.to_string())?
        .unwrap_or_else(|| SUMMARY_CSV.to_owned());
    let extra = session
        .read_table(&name)
        .map(|t| t.extra_fields().to_vec())
        .unwrap_or_default();
    let keyed: Vec<std::collections::HashMap<String, String>> = rows
        .iter()
        .map(|r| r.cells.clone().into_iter().collect())
        .collect();
    let table = CsvTable::from_keyed_rows(&name, &extra, &keyed);
    session.write_table(&table).map_err(|e| e.to_string())?;
    let _ = regenerate_document(session, &table, config, documents);
    Ok(())
}

/// The agent in whatever state the session's file holds; a state with work in flight that no
/// job runs any more (the service stopped) is taken as failed.
fn load(session: &Session) -> Option<AnyMachine> {
    read_agent_state(session).map(|state| AnyMachine::load(state).interrupted())
}

/// Settles the saved state of a session whose job a crash or restart cut off: a state with
/// work in flight (extracting, ready, submitting) becomes `error` with the restart message,
/// so `/api/agent/state` tells the truth. True when the state was changed.
pub fn recover_agent_state(session: &Session) -> Result<bool, session_store::StoreError> {
    let Some(state) = read_agent_state(session) else {
        return Ok(false);
    };
    let settled = AnyMachine::load(state.clone()).interrupted();
    if settled.data() == &state {
        return Ok(false);
    }
    session.write_json_reserved(AGENT_STATE_FILE, settled.data())?;
    Ok(true)
}

/// `/api/agent/process`: a fresh run (a new agent state, keeping what the user supplied
/// before) through its first round.
pub fn agent_process(session: &Session, config: &SessionConfig, settings: &AgentSettings) -> Value {
    let idle = match load(session) {
        Some(AnyMachine::Done(done)) => done.restart(),
        Some(AnyMachine::Error(failed)) => failed.restart(),
        Some(AnyMachine::AwaitingSupplement(waiting)) => waiting.restart(),
        Some(AnyMachine::Idle(idle)) => idle,
        // A state with work in flight cannot be here (`interrupted` made it an error, and the
        // job runner allows one job per session); start afresh.
        Some(_) | None => Machine::create(session.id().as_str()),
    };
    let mut io = SessionIo {
        session,
        config: config.clone(),
        settings,
    };
    let _ = session.log("INFO", "agent", "开始 Agent 流程");
    let mut result = run_round(idle.start(), &mut io, Source::Extract);
    with_package(session, &mut result);
    result
}

/// Why an agent request cannot go on in the current state (for the HTTP layer's 404/409).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentRefusal {
    /// The session's agent never ran (`未找到 Agent 状态`, a 404).
    NoState,
    /// The agent is in this state (its wire name), which does not allow the request (a 409).
    WrongState(String),
}

/// Whether a supplement (files or text) may start now.
pub fn can_supplement(session: &Session) -> Result<(), AgentRefusal> {
    match load(session) {
        None => Err(AgentRefusal::NoState),
        Some(AnyMachine::AwaitingSupplement(_)) => Ok(()),
        Some(other) => Err(AgentRefusal::WrongState(
            other.data().state.as_str().to_owned(),
        )),
    }
}

/// Whether a force submit may start now.
pub fn can_force_submit(session: &Session) -> Result<(), AgentRefusal> {
    match load(session) {
        None => Err(AgentRefusal::NoState),
        Some(AnyMachine::AwaitingSupplement(_) | AnyMachine::Error(_)) => Ok(()),
        Some(other) => Err(AgentRefusal::WrongState(
            other.data().state.as_str().to_owned(),
        )),
    }
}

fn awaiting(session: &Session) -> Option<Machine<state::AwaitingSupplement>> {
    match load(session) {
        Some(AnyMachine::AwaitingSupplement(machine)) => Some(machine),
        _ => None,
    }
}

fn not_waiting() -> Value {
    json!({"ok": false, "error": "Agent 当前不在等待补充信息的状态"})
}

/// Runs the round a supplement started, or reports the round limit.
fn next_round(next: NextRound, io: &mut SessionIo<'_>, source: Source) -> Value {
    match next {
        NextRound::Started(step) => {
            let mut result = run_round(step, io, source);
            with_package(io.session, &mut result);
            result
        }
        NextRound::LimitReached(Step { machine, events }) => {
            io.record(machine.data(), &events);
            json!({"ok": false, "error": machine.data().error_message})
        }
    }
}

/// Materials a file supplement answers: by the file's name when it says (`水单`, `清单`),
/// else those the last request asked for (the user was asked for them and sent files).
fn materials_of(files: &[String], state: &AgentSessionState) -> Vec<String> {
    let mut named: Vec<String> = Vec::new();
    for file in files {
        if file.contains("水单") {
            named.push("住宿水单".to_owned());
        }
        if file.contains("清单") {
            named.push("销货清单".to_owned());
        }
    }
    if !named.is_empty() {
        return named;
    }
    let asked = state
        .validation_reports
        .last()
        .and_then(|r| r["judgement"]["missing_materials"].as_array())
        .map(|list| list.iter().filter_map(Value::as_str).collect::<Vec<_>>())
        .unwrap_or_default();
    ["住宿水单", "销货清单"]
        .iter()
        .filter(|m| asked.iter().any(|text| text.contains(*m)))
        .map(|m| (*m).to_owned())
        .collect()
}

/// `/api/agent/supplement`: the named files are recorded and everything is extracted again.
pub fn agent_supplement_files(
    session: &Session,
    files: &[String],
    config: &SessionConfig,
    settings: &AgentSettings,
) -> Value {
    let Some(mut machine) = awaiting(session) else {
        return not_waiting();
    };
    let mut user = UserInput::of(machine.data());
    for material in materials_of(files, machine.data()) {
        if !user.materials.contains(&material) {
            user.materials.push(material);
        }
    }
    let mut info = machine.data().extracted_info.clone();
    info["user"] = json!(user);
    {
        let mut data = machine.data_mut();
        data.set_extracted_info(info);
        data.push_user_supplement(
            json!({"kind": "files", "files": files, "materials": user.materials}),
        );
    }
    let mut io = SessionIo {
        session,
        config: config.clone(),
        settings,
    };
    next_round(machine.supplement_files(files), &mut io, Source::Extract)
}

/// `/api/agent/user-supplement`: the text's fields are merged into the trip, the configuration
/// and the table, then the claim is validated again.
pub fn agent_user_supplement(
    session: &Session,
    text: &str,
    config: &SessionConfig,
    settings: &AgentSettings,
) -> Value {
    let Some(mut machine) = awaiting(session) else {
        return not_waiting();
    };
    let purpose_wanted = machine.data().invoice_type == InvoiceKind::Travel.as_str();
    let updates = read_supplement(session, text, purpose_wanted, settings);
    let mut user = UserInput::of(machine.data());
    user.trip.extend(updates.trip.clone());
    let mut config = config.clone();
    for (name, value) in &updates.config {
        if let Some(field) = ConfigField::ALL.iter().find(|f| f.name() == name) {
            config.set(*field, value.clone());
        }
    }
    if let Err(error) = session.write_config(&config) {
        let _ = session.log("ERROR", "agent", &format!("无法保存配置：{error}"));
    }
    if !updates.cells.is_empty() {
        apply_cells(session, &updates.cells, &config, &settings.documents);
    }
    let mut info = machine.data().extracted_info.clone();
    info["user"] = json!(user);
    {
        let mut data = machine.data_mut();
        data.set_extracted_info(info);
        data.push_user_supplement(json!({"kind": "text", "text": text, "fields": updates}));
    }
    let _ = session.log(
        "INFO",
        "agent",
        &format!(
            "收到补充信息：{}",
            updates
                .trip
                .keys()
                .chain(updates.config.keys())
                .chain(updates.cells.keys())
                .cloned()
                .collect::<Vec<_>>()
                .join("、")
        ),
    );
    let mut io = SessionIo {
        session,
        config,
        settings,
    };
    next_round(machine.supplement_text(), &mut io, Source::Current)
}

/// The fields of a text supplement: by the model when one is configured (falling back to the
/// key table when it fails or finds nothing), else by the key table.
fn read_supplement(
    session: &Session,
    text: &str,
    purpose_wanted: bool,
    settings: &AgentSettings,
) -> agent::TextUpdates {
    if let Some(client) = settings.llm() {
        let request = ChatRequest::text(format!("{}\n\n{text}", agent::SUPPLEMENT_PROMPT))
            .with_json_schema(agent::supplement_schema())
            .with_temperature(0.0);
        let mut sink = |event: &Event| {
            let _ = session.emit(event);
        };
        match client.chat(request, &mut sink) {
            Ok(response) => {
                let updates = response
                    .json
                    .map(|answer| agent::updates_from_answer(&answer))
                    .unwrap_or_default();
                if !updates.is_empty() {
                    return updates;
                }
            }
            Err(error) => {
                let _ = session.log(
                    "WARN",
                    "agent",
                    &format!("语言模型未能读取补充信息（{error}），改按关键词读取"),
                );
            }
        }
    }
    parse_text(text, purpose_wanted)
}

/// Sets columns the user supplied: 人员姓名 in every row, others where the row has none.
fn apply_cells(
    session: &Session,
    cells: &BTreeMap<String, String>,
    config: &SessionConfig,
    documents: &DocumentSettings,
) {
    let Some(table) = session
        .table_file_name()
        .ok()
        .flatten()
        .and_then(|name| session.read_table(&name).ok())
    else {
        return;
    };
    let rows: Vec<ClaimRow> = keyed_rows(&table)
        .into_iter()
        .map(|mut row| {
            for (column, value) in cells {
                let empty = row.get(column).is_none_or(|v| v.trim().is_empty());
                if column == "人员姓名" || empty {
                    row.insert(column.clone(), value.clone());
                }
            }
            ClaimRow {
                cells: row,
                ..ClaimRow::default()
            }
        })
        .collect();
    if let Err(error) = write_rows(session, &rows, config, documents) {
        let _ = session.log("ERROR", "agent", &format!("无法更新表格：{error}"));
    }
}

/// `/api/agent/force-submit`: validation skipped, the table submitted as it is.
pub fn agent_force_submit(
    session: &Session,
    config: &SessionConfig,
    settings: &AgentSettings,
) -> Value {
    let step = match load(session) {
        Some(AnyMachine::AwaitingSupplement(machine)) => machine.force_submit(),
        Some(AnyMachine::Error(machine)) => machine.force_submit(),
        _ => {
            return json!({"ok": false, "submit_ok": false, "submit_error": "Agent 当前状态不能强制提交"});
        }
    };
    let mut io = SessionIo {
        session,
        config: config.clone(),
        settings,
    };
    let mut result = submit_ready(step, &mut io, None);
    with_package(session, &mut result);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn materials_follow_file_names_then_the_request() {
        let mut state = AgentSessionState::new("s");
        assert_eq!(
            materials_of(&["酒店水单.jpg".to_owned()], &state),
            ["住宿水单"]
        );
        state.validation_reports.push(json!({"judgement": {"missing_materials": ["第 1 行的发票注明「详见销货清单」，请上传销货清单"]}}));
        assert_eq!(materials_of(&["scan.pdf".to_owned()], &state), ["销货清单"]);
    }
}
