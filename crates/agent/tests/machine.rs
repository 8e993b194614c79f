//! Every transition of the interface's table (and the documented ones beyond it), with the
//! events each emits. That no other transition exists is shown by the `compile_fail` examples
//! in src/machine.rs, which `cargo test` compiles and expects to fail.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use domain::{AgentState, Event, MAX_ROUNDS};
use reimburse_agent::{AnyMachine, Machine, NextRound, Request, Step, state};

fn types(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

fn extracting() -> Machine<state::Extracting> {
    Machine::create("s").start().machine
}

fn awaiting() -> Machine<state::AwaitingSupplement> {
    extracting()
        .request_supplement(Request {
            missing_fields: vec!["请填写出差事由".into()],
            suggestion: "请补充".into(),
            ..Request::default()
        })
        .machine
}

fn started(next: NextRound) -> Step<state::Extracting> {
    match next {
        NextRound::Started(step) => step,
        NextRound::LimitReached(_) => panic!("limit"),
    }
}

fn ready() -> Machine<state::Ready> {
    extracting().ready("ok").machine
}

#[test]
fn start_creates_idle_with_five_rounds() {
    let idle = Machine::create("s");
    assert_eq!(idle.data().state, AgentState::Idle);
    assert_eq!(idle.data().max_rounds, MAX_ROUNDS);
    assert_eq!(idle.data().rounds, 0);
}

#[test]
fn idle_to_extracting_emits_a_state_change() {
    let step = Machine::create("s").start();
    assert_eq!(step.machine.data().state, AgentState::Extracting);
    assert_eq!(step.machine.data().rounds, 1);
    assert_eq!(types(&step.events), ["agent_state_change"]);
}

#[test]
fn extracting_to_ready_emits_agent_ready() {
    let step = extracting().ready("完整");
    assert_eq!(step.machine.data().state, AgentState::Ready);
    assert_eq!(types(&step.events), ["agent_state_change", "agent_ready"]);
}

#[test]
fn extracting_to_awaiting_supplement_emits_the_request() {
    let step = extracting().request_supplement(Request {
        missing_materials: vec!["住宿水单".into()],
        ..Request::default()
    });
    assert_eq!(step.machine.data().state, AgentState::AwaitingSupplement);
    assert_eq!(
        types(&step.events),
        ["agent_state_change", "agent_request_supplement"]
    );
    let request = serde_json::to_value(&step.events[1]).unwrap();
    assert_eq!(request["missing_materials"][0], "住宿水单");
}

#[test]
fn extracting_to_error_on_an_exception_emits_agent_error() {
    let step = extracting().fail("没有发票");
    assert_eq!(step.machine.data().state, AgentState::Error);
    assert_eq!(step.machine.data().error_message, "没有发票");
    assert_eq!(types(&step.events), ["agent_error"]);
}

#[test]
fn ready_to_submitting_to_done() {
    let submitting = ready().begin_submission();
    assert_eq!(submitting.machine.data().state, AgentState::Submitting);
    let done = submitting.machine.finish(Some("密码错误"));
    assert_eq!(done.machine.data().state, AgentState::Done);
    assert_eq!(done.machine.data().error_message, "密码错误");
    assert_eq!(types(&done.events), ["agent_state_change"]);
}

#[test]
fn supplements_start_the_next_round() {
    let step = started(awaiting().supplement_files(&["水单.jpg".to_owned()]));
    assert_eq!(step.machine.data().state, AgentState::Extracting);
    assert_eq!(step.machine.data().rounds, 2);
    assert_eq!(
        types(&step.events),
        ["agent_supplement_received", "agent_state_change"]
    );
    let step = started(awaiting().supplement_text());
    assert_eq!(step.machine.data().rounds, 2);
    assert_eq!(types(&step.events), ["agent_state_change"]);
}

#[test]
fn force_submit_from_awaiting_supplement_and_from_error() {
    let step = awaiting().force_submit();
    assert_eq!(step.machine.data().state, AgentState::Ready);
    assert_eq!(types(&step.events), ["agent_force_submit"]);
    let step = extracting().fail("x").machine.force_submit();
    assert_eq!(step.machine.data().state, AgentState::Ready);
}

#[test]
fn the_round_limit_ends_in_error_with_agent_max_rounds() {
    let mut machine = awaiting();
    for round in 2..=MAX_ROUNDS {
        let step = started(machine.supplement_text());
        assert_eq!(step.machine.data().rounds, round);
        machine = step.machine.request_supplement(Request::default()).machine;
    }
    let NextRound::LimitReached(failed) = machine.supplement_files(&[]) else {
        panic!("past the limit")
    };
    assert_eq!(failed.machine.data().state, AgentState::Error);
    assert_eq!(failed.machine.data().rounds, MAX_ROUNDS);
    assert_eq!(
        types(&failed.events),
        ["agent_supplement_received", "agent_max_rounds"]
    );
}

#[test]
fn done_error_and_a_wait_restart_to_a_fresh_idle() {
    let done = ready()
        .begin_submission()
        .machine
        .finish(None)
        .machine
        .restart();
    assert_eq!(
        (done.data().state, done.data().rounds),
        (AgentState::Idle, 0)
    );
    let waiting = awaiting().restart();
    assert_eq!(
        (waiting.data().state, waiting.data().rounds),
        (AgentState::Idle, 0)
    );
    let failed = extracting().fail("x").machine.restart();
    assert_eq!(failed.data().state, AgentState::Idle);
    assert_eq!(failed.data().error_message, "");
}

#[test]
fn a_saved_state_loads_as_its_machine_and_a_cut_off_one_as_error() {
    let saved = awaiting().data().clone();
    let json = serde_json::to_value(&saved).unwrap();
    let loaded = AnyMachine::load(serde_json::from_value(json).unwrap());
    assert!(matches!(loaded, AnyMachine::AwaitingSupplement(_)));
    let cut = AnyMachine::load(extracting().data().clone()).interrupted();
    assert!(matches!(cut, AnyMachine::Error(_)));
    assert!(cut.data().error_message.contains("中断"));
}
