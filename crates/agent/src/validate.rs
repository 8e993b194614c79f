//! Validating a claim as the agent does in a round, without the round's IO: the rules, then
//! corrections of what can be put right and the rules again (at most [`MAX_ATTEMPTS`] times),
//! then the judgement the remaining findings give.

use crate::claim::Claim;
use crate::correct::{Correction, SecondSources, correct};
use crate::judge::{Judgement, judge_by_rules};
use crate::rules::{Issue, RuleSet};
use serde::Serialize;

/// Validate-and-correct attempts within one round (the interface's limit).
pub const MAX_ATTEMPTS: u32 = 3;

/// A claim with the second readings of its cells (QR code, embedded XML) that corrections may
/// use; what [`crate::ClaimBuilder::build`] gives and an agent round validates.
#[derive(Debug, Clone)]
pub struct Extraction {
    /// The claim.
    pub claim: Claim,
    /// Second readings of cells per row (QR code, embedded XML), for corrections.
    pub second: SecondSources,
}

/// One validation attempt: how many findings and how many corrections followed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Attempt {
    /// 1-based.
    pub attempt: u32,
    /// `passed`, `issues` (none could be corrected) or `corrected`.
    pub state: &'static str,
    /// Findings of this attempt.
    pub issues: usize,
    /// Corrections made after it.
    pub corrections: usize,
}

/// What validating a claim found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validation {
    /// The findings that remain after the corrections, in rule order then row order.
    pub issues: Vec<Issue>,
    /// Each attempt, in order.
    pub attempts: Vec<Attempt>,
    /// Every correction made to the claim's rows.
    pub corrections: Vec<Correction>,
    /// The rules' judgement of the remaining findings (`can_submit` and what is missing).
    pub judgement: Judgement,
}

impl Extraction {
    /// Validates the claim with `rules`, correcting its rows in place where a finding can be
    /// put right, exactly as an agent round does before it asks the user or submits.
    pub fn validate(&mut self, rules: &RuleSet) -> Validation {
        let mut attempts = Vec::new();
        let mut all = Vec::new();
        let mut issues = rules.validate(&self.claim);
        for attempt in 1..=MAX_ATTEMPTS {
            let corrections = if issues.is_empty() {
                Vec::new()
            } else {
                correct(&mut self.claim.rows, &self.second)
            };
            let state = match (issues.is_empty(), corrections.is_empty()) {
                (true, _) => "passed",
                (false, true) => "issues",
                (false, false) => "corrected",
            };
            attempts.push(Attempt {
                attempt,
                state,
                issues: issues.len(),
                corrections: corrections.len(),
            });
            if corrections.is_empty() {
                break;
            }
            all.extend(corrections);
            issues = rules.validate(&self.claim);
        }
        let judgement = judge_by_rules(&issues);
        Validation {
            issues,
            attempts,
            corrections: all,
            judgement,
        }
    }
}
