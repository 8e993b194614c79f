//! The agent flow of reimburse as pure logic: the state machine of the interface's seven
//! states (`machine`), validation rules as data (`rules`, `rules/default.toml`), corrections
//! between attempts (`correct`), the completeness judgement (`judge`), text supplements
//! (`supplement`), the travel application (`application`) and the round that ties them
//! together over an IO trait (`flow`). No file, network or clock: the caller hands them in.

mod application;
mod claim;
mod correct;
mod flow;
mod judge;
mod machine;
mod rules;
mod supplement;

pub use application::{HotelStay, TRIP_FIELDS, Ticket, TravelApplication};
pub use claim::{Claim, ClaimRow, LedgerFinding, LedgerNote, Review};
pub use correct::{Correction, SecondSources, correct};
pub use flow::{
    AgentIo, Extraction, MAX_ATTEMPTS, Source, Submitted, UserInput, run_round, submit_ready,
};
pub use judge::{JUDGE_PROMPT, Judgement, judge_by_rules, judgement_schema, merge_model};
pub use machine::{AnyMachine, DataMut, Machine, NextRound, Request, Step, state};
pub use rules::{AppliesTo, Check, Issue, ReportAs, Rule, RuleSet, RulesError, check};
pub use supplement::{
    SUPPLEMENT_PROMPT, TextUpdates, parse_text, supplement_schema, updates_from_answer,
};
