//! Validating an expense claim and the agent flow that drives it, as pure logic: no file,
//! network or clock (the caller hands them in).
//!
//! Start from [`ClaimBuilder`]: add the invoices `reimburse-extraction` gives (with the class
//! `reimburse-classify` gives), [`build`](ClaimBuilder::build) it and
//! [`validate`](Extraction::validate) it against a [`RuleSet`] ([`RuleSet::builtin`] is the
//! service's table, `rules/default.toml`). The [`Validation`] holds each finding ([`Issue`],
//! naming the rule that made it), the corrections made, and the [`Judgement`]: `can_submit`
//! with what is missing, in the clerk's words.
//!
//! ```
//! use reimburse_agent::{ClaimBuilder, InvoiceKind, InvoiceRecord, RuleSet, SessionConfig, Today};
//!
//! let mut record = InvoiceRecord::default();
//! record.invoice_number = "25432000000022014229".into();
//! record.invoice_date = "2025-2-19".into(); // corrected to 2025/02/19 by validation
//! record.total_with_tax = "146.00".into();
//! record.seller.name = "某某餐饮店".into();
//! let config = SessionConfig { default_name: "张三".into(), ..SessionConfig::default() };
//! let mut builder = ClaimBuilder::new(config, Today::from_date("2026/11/29").unwrap());
//! builder.invoice(&record, InvoiceKind::General);
//! let mut claim = builder.build();
//! let validation = claim.validate(RuleSet::builtin());
//! assert_eq!(claim.claim.rows[0].row().invoice_date, "2025/02/19");
//! assert!(!validation.judgement.can_submit);
//! assert!(validation.issues.iter().any(|i| i.rule == "finance-username"));
//! ```
//!
//! The service runs the same validation inside a round of the interface's agent flow:
//! [`Machine`] (the seven states as types; an illegal transition does not compile),
//! [`run_round`] over the [`AgentIo`] trait, the model's prompt and schema ([`JUDGE_PROMPT`],
//! [`merge_model`]: a model may add an issue, never wave one away), text supplements
//! ([`parse_text`]) and the travel application ([`TravelApplication`]).

#![warn(missing_docs)]

mod application;
mod builder;
mod claim;
mod correct;
mod flow;
mod judge;
mod machine;
mod rules;
mod supplement;
mod validate;

pub use application::{HotelStay, TRIP_FIELDS, Ticket, TravelApplication};
pub use builder::ClaimBuilder;
pub use claim::{Claim, ClaimRow, LedgerFinding, LedgerNote, Review};
pub use correct::{Correction, SecondSources, correct};
/// The domain types a claim is built from, so a program needs no second dependency for them.
pub use domain::{InvoiceKind, InvoiceRecord, InvoiceRow, SessionConfig, Today};
pub use flow::{AgentIo, Source, Submitted, UserInput, run_round, submit_ready};
pub use judge::{JUDGE_PROMPT, Judgement, judge_by_rules, judgement_schema, merge_model};
pub use machine::{AnyMachine, DataMut, Machine, NextRound, Request, Step, state};
pub use rules::{AppliesTo, Check, Issue, ReportAs, Rule, RuleSet, RulesError, check};
pub use supplement::{
    SUPPLEMENT_PROMPT, TextUpdates, parse_text, supplement_schema, updates_from_answer,
};
pub use validate::{Attempt, Extraction, MAX_ATTEMPTS, Validation};
