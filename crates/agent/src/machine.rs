//! The agent's seven states and exactly the interface's transitions, as types: a
//! `Machine<S>` in state `S` has a method for each transition out of `S` and no other, so an
//! illegal transition does not compile. Every transition hands back the new machine with the
//! events it causes; the caller ([`crate::AgentIo::record`]) saves `agent_state.json` and
//! appends the events.
//!
//! Beyond the interface's table (docs/interface-choices.md): `done` and `error` restart to
//! `idle` when a new process begins (a fresh run), and `error` may be force-submitted, as the
//! interface's prose says force submit is "for when validation did not pass or an error
//! occurred".
//!
//! No other transition can be written. Each of these fails to compile:
//!
//! ```compile_fail,E0599
//! // idle cannot be force-submitted or supplemented
//! reimburse_agent::Machine::create("s").force_submit();
//! ```
//! ```compile_fail,E0599
//! reimburse_agent::Machine::create("s").supplement_text();
//! ```
//! ```compile_fail,E0599
//! // extracting cannot be submitted, supplemented or restarted
//! let extracting = reimburse_agent::Machine::create("s").start().machine;
//! extracting.begin_submission();
//! ```
//! ```compile_fail,E0599
//! let extracting = reimburse_agent::Machine::create("s").start().machine;
//! extracting.supplement_files(&[]);
//! ```
//! ```compile_fail,E0599
//! let extracting = reimburse_agent::Machine::create("s").start().machine;
//! extracting.restart();
//! ```
//! ```compile_fail,E0599
//! // ready can only begin the submission
//! let step = reimburse_agent::Machine::create("s").start().machine.ready("");
//! step.machine.force_submit();
//! ```
//! ```compile_fail,E0599
//! let step = reimburse_agent::Machine::create("s").start().machine.ready("");
//! step.machine.finish(None);
//! ```
//! ```compile_fail,E0599
//! // submitting only finishes
//! let step = reimburse_agent::Machine::create("s").start().machine.ready("");
//! step.machine.begin_submission().machine.fail("x");
//! ```
//! ```compile_fail,E0599
//! // done only restarts
//! let step = reimburse_agent::Machine::create("s").start().machine.ready("");
//! step.machine.begin_submission().machine.finish(None).machine.force_submit();
//! ```
//! ```compile_fail,E0599
//! // awaiting_supplement cannot submit without force
//! let step = reimburse_agent::Machine::create("s").start().machine
//!     .request_supplement(reimburse_agent::Request::default());
//! step.machine.begin_submission();
//! ```
//! ```compile_fail,E0616
//! // the state field cannot be set by hand
//! let mut idle = reimburse_agent::Machine::create("s");
//! idle.data_mut().0.state = Default::default();
//! ```

use domain::{AgentSessionState, AgentState, Event};
use std::marker::PhantomData;

/// Typestate markers, one per agent state.
pub mod state {
    /// `idle`: no run has started.
    #[derive(Debug)]
    pub struct Idle;
    /// `extracting`: a round extracts and validates.
    #[derive(Debug)]
    pub struct Extracting;
    /// `awaiting_supplement`: waiting for the user after a judgement that did not pass.
    #[derive(Debug)]
    pub struct AwaitingSupplement;
    /// `ready`: submission follows.
    #[derive(Debug)]
    pub struct Ready;
    /// `submitting`: the claim is going to the finance system.
    #[derive(Debug)]
    pub struct Submitting;
    /// `done`: submission ended, either way.
    #[derive(Debug)]
    pub struct Done;
    /// `error`: the run failed.
    #[derive(Debug)]
    pub struct Failed;
}

use state::{AwaitingSupplement, Done, Extracting, Failed, Idle, Ready, Submitting};

/// The agent of one session in state `S`, carrying the state object the interface reports.
#[derive(Debug)]
pub struct Machine<S> {
    data: AgentSessionState,
    _state: PhantomData<S>,
}

/// A transition's result: the machine in its new state and the events it emitted, in order.
#[derive(Debug)]
pub struct Step<S> {
    /// The machine in its new state.
    pub machine: Machine<S>,
    /// The events the transition emitted, to append to the agent log.
    pub events: Vec<Event>,
}

impl<S> Machine<S> {
    fn to<T>(mut self, state: AgentState) -> Machine<T> {
        self.data.state = state;
        Machine {
            data: self.data,
            _state: PhantomData,
        }
    }

    /// The state object (what agent_state.json holds).
    pub fn data(&self) -> &AgentSessionState {
        &self.data
    }

    /// The state object, to record extraction, reports and supplements; the `state` field is
    /// the machine's own and changes only by a transition.
    pub fn data_mut(&mut self) -> DataMut<'_> {
        DataMut(&mut self.data)
    }
}

/// Mutable access to everything but the state itself.
#[derive(Debug)]
pub struct DataMut<'a>(&'a mut AgentSessionState);

impl DataMut<'_> {
    /// Sets `invoice_type` (`travel` or `general`).
    pub fn set_invoice_type(&mut self, kind: &str) {
        kind.clone_into(&mut self.0.invoice_type);
    }
    /// Replaces `extracted_info`, what the round extracted.
    pub fn set_extracted_info(&mut self, info: serde_json::Value) {
        self.0.extracted_info = info;
    }
    /// Adds a round's report to `validation_reports`.
    pub fn push_validation_report(&mut self, report: serde_json::Value) {
        self.0.validation_reports.push(report);
    }
    /// Adds what the user supplied to `user_supplements`.
    pub fn push_user_supplement(&mut self, supplement: serde_json::Value) {
        self.0.user_supplements.push(supplement);
    }
}

fn step<S>(machine: Machine<S>, events: Vec<Event>) -> Step<S> {
    Step { machine, events }
}

impl Machine<Idle> {
    /// `(start)` → idle: the session's agent state is created.
    pub fn create(session_id: &str) -> Self {
        Machine {
            data: AgentSessionState::new(session_id),
            _state: PhantomData,
        }
    }

    /// idle → extracting: processing starts (`/api/agent/process`); round 1.
    pub fn start(mut self) -> Step<Extracting> {
        self.data.rounds = 1;
        self.data.error_message.clear();
        let machine: Machine<Extracting> = self.to(AgentState::Extracting);
        let event = machine.state_change(0, "开始第 1 轮：提取发票并校验");
        step(machine, vec![event])
    }
}

/// What the judgement asks of the user when it does not pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Request {
    /// Fields the claim lacks.
    pub missing_fields: Vec<String>,
    /// Materials the claim lacks.
    pub missing_materials: Vec<String>,
    /// Contradictions found in what was given.
    pub semantic_issues: Vec<String>,
    /// What the user should do, in one sentence.
    pub suggestion: String,
}

impl Machine<Extracting> {
    fn state_change(&self, attempt: u32, message: &str) -> Event {
        Event::AgentStateChange {
            state: self.data.state,
            round: self.data.rounds,
            attempt,
            message: message.to_owned(),
        }
    }

    /// The round now running.
    pub fn round(&self) -> u32 {
        self.data.rounds
    }

    /// extracting → ready (`can_submit` true): `agent_ready`; the caller then submits.
    pub fn ready(self, message: &str) -> Step<Ready> {
        let round = self.data.rounds;
        let machine: Machine<Ready> = self.to(AgentState::Ready);
        let events = vec![
            Event::AgentStateChange {
                state: AgentState::Ready,
                round,
                attempt: 0,
                message: message.to_owned(),
            },
            Event::AgentReady {
                round,
                message: message.to_owned(),
            },
        ];
        step(machine, events)
    }

    /// extracting → awaiting_supplement (`can_submit` false): `agent_request_supplement`.
    pub fn request_supplement(self, request: Request) -> Step<AwaitingSupplement> {
        let round = self.data.rounds;
        let machine: Machine<AwaitingSupplement> = self.to(AgentState::AwaitingSupplement);
        let events = vec![
            Event::AgentStateChange {
                state: AgentState::AwaitingSupplement,
                round,
                attempt: 0,
                message: request.suggestion.clone(),
            },
            Event::AgentRequestSupplement {
                round,
                missing_fields: request.missing_fields,
                missing_materials: request.missing_materials,
                semantic_issues: request.semantic_issues,
                suggestion: request.suggestion,
            },
        ];
        step(machine, events)
    }

    /// extracting → error on an exception: `agent_error`.
    pub fn fail(mut self, message: &str) -> Step<Failed> {
        message.clone_into(&mut self.data.error_message);
        let machine: Machine<Failed> = self.to(AgentState::Error);
        let events = vec![Event::AgentError {
            message: message.to_owned(),
        }];
        step(machine, events)
    }
}

/// What a supplement leads to: the next round, or the round limit (extracting → error).
#[derive(Debug)]
pub enum NextRound {
    /// The next round began; run it with [`run_round`](crate::run_round).
    Started(Step<Extracting>),
    /// The round limit was reached: the run failed with `agent_max_rounds`.
    LimitReached(Step<Failed>),
}

impl Machine<AwaitingSupplement> {
    /// A new round would pass the limit: extracting → error with `agent_max_rounds` (the
    /// round is entered and refused at once, as the interface's table has it).
    fn next_round(self, message: &str, mut events: Vec<Event>) -> NextRound {
        if self.data.rounds >= self.data.max_rounds {
            let text = format!(
                "已达到最大轮数（{} 轮），请检查补充的信息后强制提交或重新开始",
                self.data.max_rounds
            );
            let mut failed = self.to::<Extracting>(AgentState::Extracting);
            failed.data.error_message.clone_from(&text);
            let machine: Machine<Failed> = failed.to(AgentState::Error);
            events.push(Event::AgentMaxRounds { message: text });
            return NextRound::LimitReached(step(machine, events));
        }
        let mut machine: Machine<Extracting> = self.to(AgentState::Extracting);
        machine.data.rounds += 1;
        let round = machine.data.rounds;
        events.push(machine.state_change(0, &format!("开始第 {round} 轮：{message}")));
        NextRound::Started(step(machine, events))
    }

    /// awaiting_supplement → extracting by files (`/api/agent/supplement`):
    /// `agent_supplement_received`, then the next round (or the round limit).
    pub fn supplement_files(self, files: &[String]) -> NextRound {
        let received = Event::AgentSupplementReceived {
            files: files.to_vec(),
        };
        self.next_round("收到补充文件，重新提取全部发票", vec![received])
    }

    /// awaiting_supplement → extracting by text (`/api/agent/user-supplement`).
    pub fn supplement_text(self) -> NextRound {
        self.next_round("收到补充信息，重新校验", Vec::new())
    }

    /// awaiting_supplement → idle: a new `/api/agent/process` abandons the wait and starts a
    /// fresh run.
    pub fn restart(self) -> Machine<Idle> {
        restart(self)
    }

    /// awaiting_supplement → ready by force submit: `agent_force_submit`; validation skipped.
    pub fn force_submit(self) -> Step<Ready> {
        force(self)
    }
}

fn force<S>(machine: Machine<S>) -> Step<Ready> {
    let machine: Machine<Ready> = machine.to(AgentState::Ready);
    let events = vec![Event::AgentForceSubmit {
        message: "用户选择强制提交，跳过校验".to_owned(),
    }];
    step(machine, events)
}

impl Machine<Ready> {
    /// ready → submitting.
    pub fn begin_submission(self) -> Step<Submitting> {
        let round = self.data.rounds;
        let machine: Machine<Submitting> = self.to(AgentState::Submitting);
        let events = vec![Event::AgentStateChange {
            state: AgentState::Submitting,
            round,
            attempt: 0,
            message: "正在提交到财务系统".to_owned(),
        }];
        step(machine, events)
    }
}

impl Machine<Submitting> {
    /// submitting → done when the submission completes, whatever its outcome (the `done` SSE
    /// event carries it); a failure's message is kept in `error_message`.
    pub fn finish(mut self, submit_error: Option<&str>) -> Step<Done> {
        let round = self.data.rounds;
        self.data.error_message = submit_error.unwrap_or_default().to_owned();
        let message = match submit_error {
            None => "提交完成".to_owned(),
            Some(error) => format!("提交失败：{error}"),
        };
        let machine: Machine<Done> = self.to(AgentState::Done);
        let events = vec![Event::AgentStateChange {
            state: AgentState::Done,
            round,
            attempt: 0,
            message,
        }];
        step(machine, events)
    }
}

impl Machine<Done> {
    /// done → idle: a new process starts a fresh run (rounds from 0, reports kept).
    pub fn restart(self) -> Machine<Idle> {
        restart(self)
    }
}

impl Machine<Failed> {
    /// error → idle: a new process starts a fresh run.
    pub fn restart(self) -> Machine<Idle> {
        restart(self)
    }

    /// error → ready by force submit (the interface's prose: "for when … an error occurred").
    pub fn force_submit(self) -> Step<Ready> {
        force(self)
    }
}

fn restart<S>(mut machine: Machine<S>) -> Machine<Idle> {
    machine.data.rounds = 0;
    machine.data.error_message.clear();
    machine.to(AgentState::Idle)
}

/// A machine loaded from agent_state.json, in whichever state it was saved.
#[derive(Debug)]
pub enum AnyMachine {
    /// Saved in `idle`.
    Idle(Machine<Idle>),
    /// Saved in `extracting`.
    Extracting(Machine<Extracting>),
    /// Saved in `awaiting_supplement`.
    AwaitingSupplement(Machine<AwaitingSupplement>),
    /// Saved in `ready`.
    Ready(Machine<Ready>),
    /// Saved in `submitting`.
    Submitting(Machine<Submitting>),
    /// Saved in `done`.
    Done(Machine<Done>),
    /// Saved in `error`.
    Error(Machine<Failed>),
}

impl AnyMachine {
    /// The machine a saved state object stands for.
    pub fn load(data: AgentSessionState) -> Self {
        fn machine<S>(data: AgentSessionState) -> Machine<S> {
            Machine {
                data,
                _state: PhantomData,
            }
        }
        match data.state {
            AgentState::Idle => Self::Idle(machine(data)),
            AgentState::Extracting => Self::Extracting(machine(data)),
            AgentState::AwaitingSupplement => Self::AwaitingSupplement(machine(data)),
            AgentState::Ready => Self::Ready(machine(data)),
            AgentState::Submitting => Self::Submitting(machine(data)),
            AgentState::Done => Self::Done(machine(data)),
            AgentState::Error => Self::Error(machine(data)),
        }
    }

    /// The state object, whatever the state.
    pub fn data(&self) -> &AgentSessionState {
        match self {
            Self::Idle(m) => m.data(),
            Self::Extracting(m) => m.data(),
            Self::AwaitingSupplement(m) => m.data(),
            Self::Ready(m) => m.data(),
            Self::Submitting(m) => m.data(),
            Self::Done(m) => m.data(),
            Self::Error(m) => m.data(),
        }
    }

    /// A machine cut off in a state with work in flight (the service stopped during a round
    /// or a submission) is taken as failed, with that said in `error_message`.
    pub fn interrupted(self) -> Self {
        match self {
            Self::Extracting(m) => Self::Error(interrupt(m)),
            Self::Ready(m) => Self::Error(interrupt(m)),
            Self::Submitting(m) => Self::Error(interrupt(m)),
            other => other,
        }
    }
}

fn interrupt<S>(mut machine: Machine<S>) -> Machine<Failed> {
    machine.data.error_message = "服务已重启，上次任务被中断，请重新开始".to_owned();
    machine.to(AgentState::Error)
}
