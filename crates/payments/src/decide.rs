//! One table of decisions: for each field, the rules that may fill it, most trusted first.
//! The first rule with a candidate decides, if its candidates agree; rules listed as
//! `agree` must then not contradict it. A field that is not clear stays empty.

use crate::readers::{Candidate, Field};

/// How one field is decided: a row of [`DECISIONS`].
#[derive(Debug)]
pub struct Decision {
    /// The field decided.
    pub field: Field,
    /// Rules in order of trust.
    pub order: &'static [&'static str],
    /// Rules that must agree with the deciding one, else the field stays empty.
    pub agree: &'static [&'static str],
}

/// The table of decisions, one row per field: the rules (readers, by name) that may fill it,
/// most trusted first. The first rule with a candidate decides when its candidates agree; the
/// rules in `agree` must not contradict it; otherwise the field stays empty.
pub const DECISIONS: &[Decision] = &[
    Decision {
        field: Field::Amount,
        order: &["paid-amount label", "headline amount", "slip amount in RMB"],
        agree: &["paid-amount label", "headline amount", "slip amount in RMB"],
    },
    Decision {
        field: Field::Date,
        order: &[
            "payment-time label",
            "refund-time label",
            "slip date or time line",
        ],
        agree: &[],
    },
    Decision {
        field: Field::Time,
        order: &[
            "payment-time label",
            "refund-time label",
            "slip date or time line",
        ],
        agree: &[],
    },
    Decision {
        field: Field::CardLast4,
        order: &["card label", "card number line", "bank card tail number"],
        agree: &["card label", "card number line", "bank card tail number"],
    },
    Decision {
        field: Field::CardNumber,
        order: &["card label", "card number line"],
        agree: &[],
    },
    Decision {
        field: Field::CardBank,
        order: &[
            "card label",
            "issuer label",
            "card number line",
            "bank card tail number",
            "bank named in the title",
        ],
        agree: &[],
    },
    Decision {
        field: Field::Merchant,
        order: &["merchant label", "headline name"],
        agree: &[],
    },
    Decision {
        field: Field::OrderNo,
        order: &["order-number label", "slip reference number"],
        agree: &[],
    },
    Decision {
        field: Field::Status,
        order: &["status label", "status line", "slip or bank record"],
        agree: &[],
    },
];

/// What a decision gave: the value (empty when unclear) and the rule that decided, or why
/// nothing did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decided {
    /// The field.
    pub field: Field,
    /// The value, as it goes into the record; empty when no rule read one or they disagreed.
    pub value: String,
    /// The deciding rule (`headline amount`), or why nothing was decided
    /// (`unclear: headline amount read 58.00 / 68.00`); empty when no rule read anything.
    pub rule: String,
}

/// The distinct values one rule proposes for a field.
fn values<'a>(cands: &'a [Candidate], field: Field, rule: &str) -> Vec<&'a str> {
    let mut v: Vec<&str> = cands
        .iter()
        .filter(|c| c.field == field && c.rule == rule)
        .map(|c| c.value.as_str())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Applies `d` to the page's candidates.
pub fn decide(d: &Decision, cands: &[Candidate]) -> Decided {
    let empty = |rule: String| Decided {
        field: d.field,
        value: String::new(),
        rule,
    };
    let Some((rule, found)) = d
        .order
        .iter()
        .map(|r| (*r, values(cands, d.field, r)))
        .find(|(_, v)| !v.is_empty())
    else {
        return empty(String::new());
    };
    if found.len() > 1 {
        return empty(format!("unclear: {rule} read {}", found.join(" / ")));
    }
    let value = found[0];
    for other in d.agree.iter().filter(|r| **r != rule) {
        let theirs = values(cands, d.field, other);
        if theirs.iter().any(|v| *v != value) {
            return empty(format!(
                "unclear: {rule} read {value}, {other} read {}",
                theirs.join(" / ")
            ));
        }
    }
    Decided {
        field: d.field,
        value: value.to_owned(),
        rule: rule.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(field: Field, value: &str, rule: &'static str) -> Candidate {
        Candidate {
            field,
            value: value.to_owned(),
            rule,
        }
    }

    fn amount() -> &'static Decision {
        DECISIONS
            .iter()
            .find(|d| d.field == Field::Amount)
            .expect("amount decision")
    }

    #[test]
    fn the_first_rule_with_a_candidate_decides() {
        let got = decide(amount(), &[c(Field::Amount, "58.00", "headline amount")]);
        assert_eq!(
            (got.value.as_str(), got.rule.as_str()),
            ("58.00", "headline amount")
        );
    }

    #[test]
    fn disagreeing_candidates_leave_the_field_empty() {
        let got = decide(
            amount(),
            &[
                c(Field::Amount, "58.00", "paid-amount label"),
                c(Field::Amount, "68.00", "headline amount"),
            ],
        );
        assert_eq!(got.value, "");
        assert!(got.rule.starts_with("unclear"), "{}", got.rule);
        let got = decide(
            amount(),
            &[
                c(Field::Amount, "58.00", "paid-amount label"),
                c(Field::Amount, "5.80", "paid-amount label"),
            ],
        );
        assert_eq!(got.value, "");
    }

    #[test]
    fn every_rule_a_decision_names_is_a_reader() {
        for d in DECISIONS {
            for rule in d.order.iter().chain(d.agree) {
                assert!(
                    crate::readers::READERS.iter().any(|r| r.rule == *rule),
                    "{rule} is no reader"
                );
            }
        }
    }
}
