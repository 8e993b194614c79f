//! Validation rules as data (`rules/default.toml`): each rule is one check of a fixed set of
//! kinds, with the field or material it concerns, the rows it applies to, where its findings
//! are reported and the clerk's message. Every finding names the rule that made it.

use crate::claim::{Claim, ClaimRow, LedgerFinding};
use domain::{ConfigField, InvoiceKind, parse_cents, parse_civil_date};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

const BUILTIN: &str = include_str!("../rules/default.toml");

/// Where a finding is listed in the judgement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportAs {
    /// A field the claim lacks: listed in `missing_fields`, stops the submission.
    MissingField,
    /// A material the claim lacks: listed in `missing_materials`, stops the submission.
    MissingMaterial,
    /// A contradiction: listed in `semantic_issues`, stops the submission.
    SemanticIssue,
    /// Worth a look but not blocking: listed, never stops the automatic submission.
    Notice,
}

/// Which rows (or claims) a rule applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AppliesTo {
    /// Every row (every claim).
    All,
    /// Travel rows (a travel claim).
    Travel,
    /// General rows (a general claim).
    General,
}

impl AppliesTo {
    fn covers(self, kind: InvoiceKind) -> bool {
        match self {
            Self::All => true,
            Self::Travel => kind == InvoiceKind::Travel,
            Self::General => kind == InvoiceKind::General,
        }
    }
}

/// The kinds of check, with their parameters.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "check", rename_all = "snake_case")]
pub enum Check {
    /// The row's cell is not empty.
    Required {
        /// The column checked.
        field: String,
    },
    /// A non-empty cell is 8 or 20 digits (the old and the 数电 invoice numbers).
    InvoiceNumber {
        /// The column checked.
        field: String,
    },
    /// A non-empty cell is a real `YYYY/MM/DD` date, not after today.
    Date {
        /// The column checked.
        field: String,
    },
    /// A non-empty cell is an amount with two decimals.
    Amount {
        /// The column checked.
        field: String,
    },
    /// 刷卡金额 equals 价税合计, or the sum of the rows paid by the same card payment (same
    /// 刷卡日期, 公务卡号 and 刷卡金额).
    CardAmountMatches {
        /// The column checked.
        field: String,
    },
    /// 刷卡日期 lies from `days_before` before to `days_after` after 开票日期.
    CardDateWindow {
        /// The column checked.
        field: String,
        /// Days the payment may precede the invoice.
        days_before: i64,
        /// Days the payment may follow the invoice.
        days_after: i64,
    },
    /// A row with 刷卡日期 or 刷卡金额 has a card number.
    CardNumberWhenPaidByCard {
        /// The column checked.
        field: String,
    },
    /// No two rows share the cell's non-empty value.
    Unique {
        /// The column checked.
        field: String,
    },
    /// A row whose `fields` contain any of `contains` needs `material`.
    MaterialWhenContains {
        /// The columns looked in.
        fields: Vec<String>,
        /// The texts that call for the material (`详见销货清单`, …).
        contains: Vec<String>,
        /// The material then needed (`销货清单`, …).
        material: String,
    },
    /// A ticket's passenger is the row's 人员姓名.
    PassengerIsClaimant {
        /// The column checked.
        field: String,
    },
    /// A cell extraction flagged still holds the value it read (an edited cell was checked).
    ExtractionReview {
        /// The column checked.
        field: String,
    },
    /// The trip field is filled (claim-level).
    TripField {
        /// The trip field, by its Chinese name (one of [`TRIP_FIELDS`](crate::TRIP_FIELDS)).
        field: String,
    },
    /// The trip's `field` (返回日期) is not before its `after` (出发日期), when both are dates.
    TripDatesInOrder {
        /// The later trip field.
        field: String,
        /// The earlier trip field.
        after: String,
    },
    /// The configuration field is filled (claim-level).
    ConfigField {
        /// The configuration field checked.
        field: ConfigField,
    },
    /// The claims ledger reported `finding` for the row's invoice; `{other}` is its detail.
    Ledger {
        /// The column the finding is reported on.
        field: String,
        /// The finding asked about.
        finding: LedgerFinding,
    },
}

/// One rule of the table.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Rule {
    /// Names the rule in its findings (`invoice-number-required`); unique in a table.
    pub id: String,
    /// What it checks.
    #[serde(flatten)]
    pub check: Check,
    /// The rows (or claims) it checks.
    pub applies_to: AppliesTo,
    /// Where its findings are listed.
    pub report_as: ReportAs,
    /// The clerk's message, with placeholders `{row}`, `{field}`, `{value}`, `{other}`,
    /// `{days}` and `{material}`.
    pub message: String,
}

/// A finding of a rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Issue {
    /// The rule that found it.
    pub rule: String,
    /// Where it is listed in the judgement.
    pub report_as: ReportAs,
    /// The field or material it concerns.
    pub field: String,
    /// 1-based row, for row checks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// The rule's message with its placeholders filled in.
    pub message: String,
}

#[derive(Debug, Deserialize)]
struct RulesFile {
    rule: Vec<Rule>,
}

/// Why a rules file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    /// The text is not a valid rules table (the TOML parser's words).
    #[error("规则文件无法解析：{0}")]
    Parse(String),
    /// Two rules share this id.
    #[error("规则 id 重复：{0}")]
    DuplicateId(String),
}

/// A table of rules.
#[derive(Debug, Clone)]
pub struct RuleSet {
    rules: Vec<Rule>,
}

/// What a message's placeholders stand for.
#[derive(Default)]
struct Values<'a> {
    row: Option<usize>,
    field: &'a str,
    value: &'a str,
    other: String,
    days: String,
    material: &'a str,
}

impl Rule {
    fn issue(&self, values: &Values<'_>) -> Issue {
        let message = self
            .message
            .replace(
                "{row}",
                &values.row.map(|r| r.to_string()).unwrap_or_default(),
            )
            .replace("{field}", values.field)
            .replace("{value}", values.value)
            .replace("{other}", &values.other)
            .replace("{days}", &values.days)
            .replace("{material}", values.material);
        Issue {
            rule: self.id.clone(),
            report_as: self.report_as,
            field: if values.material.is_empty() {
                values.field.to_owned()
            } else {
                values.material.to_owned()
            },
            row: values.row,
            message,
        }
    }
}

impl RuleSet {
    /// The rules shipped with the crate.
    pub fn builtin() -> &'static RuleSet {
        static RULES: OnceLock<RuleSet> = OnceLock::new();
        RULES.get_or_init(|| {
            // The builtin table is checked by a test; an error here would be a build defect.
            RuleSet::parse(BUILTIN).unwrap_or(RuleSet { rules: Vec::new() })
        })
    }

    /// Reads a rules table in the TOML form of `rules/default.toml` (`[[rule]]` entries).
    pub fn parse(text: &str) -> Result<Self, RulesError> {
        let file: RulesFile = toml::from_str(text).map_err(|e| RulesError::Parse(e.to_string()))?;
        let mut seen = std::collections::HashSet::new();
        for rule in &file.rule {
            if !seen.insert(rule.id.clone()) {
                return Err(RulesError::DuplicateId(rule.id.clone()));
            }
        }
        Ok(Self { rules: file.rule })
    }

    /// The rules, in table order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// Every finding of every rule over the claim, in rule order then row order.
    pub fn validate(&self, claim: &Claim) -> Vec<Issue> {
        self.rules
            .iter()
            .flat_map(|rule| check(rule, claim))
            .collect()
    }
}

/// The findings of one rule.
pub fn check(rule: &Rule, claim: &Claim) -> Vec<Issue> {
    let claim_kind = claim.kind();
    match &rule.check {
        Check::TripField { field } => {
            let missing =
                rule.applies_to.covers(claim_kind) && claim.trip.field(field).trim().is_empty();
            (missing && !claim.rows.is_empty())
                .then(|| {
                    rule.issue(&Values {
                        field,
                        ..Values::default()
                    })
                })
                .into_iter()
                .collect()
        }
        Check::TripDatesInOrder { field, after } => {
            let end = parse_civil_date(claim.trip.field(field));
            let start = parse_civil_date(claim.trip.field(after));
            let wrong = rule.applies_to.covers(claim_kind)
                && matches!((start, end), (Some(s), Some(e)) if e < s);
            wrong
                .then(|| {
                    rule.issue(&Values {
                        field,
                        value: claim.trip.field(field),
                        other: claim.trip.field(after).to_owned(),
                        ..Values::default()
                    })
                })
                .into_iter()
                .collect()
        }
        Check::ConfigField { field } => {
            let missing = rule.applies_to.covers(claim_kind) && !claim.config.is_set(*field);
            missing
                .then(|| {
                    rule.issue(&Values {
                        field: field.name(),
                        ..Values::default()
                    })
                })
                .into_iter()
                .collect()
        }
        _ => claim
            .rows
            .iter()
            .enumerate()
            .filter(|(_, row)| rule.applies_to.covers(row.kind))
            .filter_map(|(index, row)| check_row(rule, claim, index, row))
            .collect(),
    }
}

fn check_row(rule: &Rule, claim: &Claim, index: usize, row: &ClaimRow) -> Option<Issue> {
    fn at(index: usize, field: &str) -> Values<'_> {
        Values {
            row: Some(index + 1),
            ..Values::default()
        }
        .named(field)
    }
    let values = |field| at(index, field);
    match &rule.check {
        Check::Required { field } => row
            .cell(field)
            .trim()
            .is_empty()
            .then(|| rule.issue(&values(field).with_value(""))),
        Check::InvoiceNumber { field } => {
            let value = row.cell(field).trim();
            let ok = value.is_empty()
                || ((value.len() == 8 || value.len() == 20)
                    && value.bytes().all(|b| b.is_ascii_digit()));
            (!ok).then(|| rule.issue(&values(field).with_value(value)))
        }
        Check::Date { field } => {
            let value = row.cell(field).trim();
            let ok = value.is_empty()
                || is_slash_date(value)
                    && parse_civil_date(value).is_some_and(|d| d <= claim.today.days());
            (!ok).then(|| rule.issue(&values(field).with_value(value)))
        }
        Check::Amount { field } => {
            let value = row.cell(field).trim();
            let ok = value.is_empty() || is_two_decimals(value);
            (!ok).then(|| rule.issue(&values(field).with_value(value)))
        }
        Check::CardAmountMatches { field } => card_amount(rule, claim, index, row, field),
        Check::CardDateWindow {
            field,
            days_before,
            days_after,
        } => {
            let paid = parse_civil_date(row.cell(field))?;
            let issued = parse_civil_date(row.cell("开票日期"))?;
            let ok = paid >= issued - days_before && paid <= issued + days_after;
            (!ok).then(|| {
                rule.issue(
                    &values(field)
                        .with_value(row.cell(field))
                        .with_other(row.cell("开票日期").to_owned()),
                )
            })
        }
        Check::CardNumberWhenPaidByCard { field } => {
            let paid =
                !row.cell("刷卡日期").trim().is_empty() || !row.cell("刷卡金额").trim().is_empty();
            (paid && row.cell(field).trim().is_empty())
                .then(|| rule.issue(&values(field).with_value("")))
        }
        Check::Unique { field } => {
            let value = row.cell(field).trim();
            if value.is_empty() {
                return None;
            }
            let first = claim
                .rows
                .iter()
                .position(|r| r.cell(field).trim() == value)?;
            (first < index).then(|| {
                rule.issue(
                    &values(field)
                        .with_value(value)
                        .with_other((first + 1).to_string()),
                )
            })
        }
        Check::MaterialWhenContains {
            fields,
            contains,
            material,
        } => {
            let needs = fields
                .iter()
                .any(|f| contains.iter().any(|c| row.cell(f).contains(c.as_str())));
            (needs && !claim.materials.iter().any(|m| m == material)).then(|| {
                let mut v = values("").with_value("");
                v.material = material;
                rule.issue(&v)
            })
        }
        Check::PassengerIsClaimant { field } => {
            let passenger = row.passenger.trim();
            let claimant = row.cell(field).trim();
            let differs = !passenger.is_empty() && !claimant.is_empty() && passenger != claimant;
            differs.then(|| {
                rule.issue(
                    &values(field)
                        .with_value(passenger)
                        .with_other(claimant.to_owned()),
                )
            })
        }
        Check::ExtractionReview { field } => {
            let review = row.review.get(field)?;
            (row.cell(field).trim() == review.value.trim()).then(|| {
                rule.issue(
                    &values(field)
                        .with_value(row.cell(field))
                        .with_other(review.reason.clone()),
                )
            })
        }
        Check::Ledger { field, finding } => {
            let note = row.ledger.iter().find(|n| n.finding == *finding)?;
            Some(
                rule.issue(
                    &values(field)
                        .with_value(row.cell(field))
                        .with_other(note.detail.clone()),
                ),
            )
        }
        Check::TripField { .. } | Check::TripDatesInOrder { .. } | Check::ConfigField { .. } => {
            None
        }
    }
}

impl<'a> Values<'a> {
    fn named(mut self, field: &'a str) -> Self {
        self.field = field;
        self
    }
    fn with_value(mut self, value: &'a str) -> Self {
        self.value = value;
        self
    }
    fn with_other(mut self, other: String) -> Self {
        self.other = other;
        self
    }
}

/// `YYYY/MM/DD` exactly (the interface's form; other forms are corrected, not accepted).
fn is_slash_date(value: &str) -> bool {
    let bytes = value.as_bytes();
    bytes.len() == 10
        && bytes.get(4) == Some(&b'/')
        && bytes.get(7) == Some(&b'/')
        && bytes
            .iter()
            .enumerate()
            .all(|(i, b)| i == 4 || i == 7 || b.is_ascii_digit())
}

fn is_two_decimals(value: &str) -> bool {
    let digits = value.strip_prefix('-').unwrap_or(value);
    let Some((whole, fraction)) = digits.split_once('.') else {
        return false;
    };
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && fraction.len() == 2
        && fraction.bytes().all(|b| b.is_ascii_digit())
}

fn card_amount(
    rule: &Rule,
    claim: &Claim,
    index: usize,
    row: &ClaimRow,
    field: &str,
) -> Option<Issue> {
    let paid = parse_cents(row.cell(field))?;
    let total = parse_cents(row.cell("价税合计"))?;
    if paid == total {
        return None;
    }
    // One card payment can cover several invoices: the rows with the same payment add up.
    let key = |r: &ClaimRow| {
        (
            r.cell("刷卡日期").to_owned(),
            r.cell("公务卡号").to_owned(),
            r.cell(field).to_owned(),
        )
    };
    let mine = key(row);
    let group: Vec<&ClaimRow> = claim.rows.iter().filter(|r| key(r) == mine).collect();
    let sum: Option<i64> = group.iter().map(|r| parse_cents(r.cell("价税合计"))).sum();
    if group.len() > 1 && sum == Some(paid) {
        return None;
    }
    let mut values = Values {
        row: Some(index + 1),
        ..Values::default()
    }
    .named(field)
    .with_value(row.cell(field));
    values.other = row.cell("价税合计").to_owned();
    Some(rule.issue(&values))
}
