//! Checking a flow file on its own, before any claim is at hand (`reimburse flow check`): the
//! file parses (a misspelt key, an unknown action), both kinds of claim have their flow, and
//! every template renders against sample data of the shape the service provides (an unknown
//! variable or filter, an empty selector), each problem with its line in the file.

use crate::flow::{Action, FlowFile, FlowStep};
use crate::scope::Scope;
use crate::submission::{ClaimKind, Submission, SubmissionFiles};
use crate::template::FlowTemplate;
use crate::validate::{SAMPLE_ANSWER, step_problems};
use domain::{Password, SessionConfig};
use std::collections::BTreeMap;
use std::path::Path;

/// The `claim.*` keys the service gives a flow besides `kind`, `row_count` and `today` (not a
/// department: a flow names its own, e.g. `{{claim.department | default('…')}}`).
pub const SERVICE_CLAIM_KEYS: [&str; 5] = [
    "purpose",
    "origin",
    "destination",
    "depart_date",
    "return_date",
];

/// One thing wrong with a flow file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlowProblem {
    /// 1-based line in the file, when it can be told.
    pub line: Option<usize>,
    /// What is wrong, in Chinese, for the person editing the file.
    pub message: String,
}

impl std::fmt::Display for FlowProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "第 {line} 行：{}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Every problem of the flow file `text`; empty when it is fine. `sample_files` is an existing
/// file standing in for the invoices and the document the service would upload.
pub fn check_flow(text: &str, sample_files: &Path) -> Vec<FlowProblem> {
    let flow: FlowFile = match toml::from_str(text) {
        Ok(flow) => flow,
        Err(error) => {
            return vec![FlowProblem {
                line: error.span().map(|span| line_of(text, span.start)),
                message: error.message().trim().to_owned(),
            }];
        }
    };
    let mut problems = Vec::new();
    for kind in [ClaimKind::General, ClaimKind::Travel] {
        let Some(steps) = flow.steps(kind) else {
            problems.push(FlowProblem {
                line: None,
                message: format!("没有{}流程（[flows.{}]）", kind.label(), kind.key()),
            });
            continue;
        };
        let submission = sample_submission(kind, sample_files);
        let scope = Scope::new(&submission, &flow.portal.name, "http://portal.example");
        let mut from = 0;
        for step in steps {
            check_step(
                text,
                &mut from,
                step,
                &scope,
                false,
                &submission,
                &mut problems,
            );
        }
    }
    problems.dedup();
    problems
}

/// The problems of `step` (of each step it nests), `in_row` when it runs inside
/// `repeat_for_each_row`.
fn check_step(
    text: &str,
    from: &mut usize,
    step: &FlowStep,
    scope: &Scope<'_>,
    in_row: bool,
    submission: &Submission,
    problems: &mut Vec<FlowProblem>,
) {
    if let Action::RepeatForEachRow { steps } = &step.action {
        // The sample claim has one row.
        for row in submission.rows.iter().take(1) {
            let row_scope = (*scope).with_row(0, row);
            for nested in steps {
                check_step(text, from, nested, &row_scope, true, submission, problems);
            }
        }
        return;
    }
    if let Action::AskPerson { steps, .. } = &step.action {
        own_problems(text, from, step, scope, false, problems);
        let answered = (*scope).with_answer(SAMPLE_ANSWER);
        for nested in steps {
            check_step(text, from, nested, &answered, false, submission, problems);
        }
        return;
    }
    own_problems(text, from, step, scope, in_row, problems);
}

/// The problems of `step`'s own templates, each with its line.
fn own_problems(
    text: &str,
    from: &mut usize,
    step: &FlowStep,
    scope: &Scope<'_>,
    in_row: bool,
    problems: &mut Vec<FlowProblem>,
) {
    // Every template's line, in file order, so a problem names the line of its own step.
    let lines: Vec<(&FlowTemplate, Option<usize>)> = step
        .action
        .templates()
        .into_iter()
        .map(|t| (t, find_line(text, from, t.source())))
        .collect();
    for (template, reason) in step_problems(step, scope, in_row) {
        let line = template
            .and_then(|t| lines.iter().find(|(u, _)| std::ptr::eq(*u, t)))
            .or(lines.first())
            .and_then(|(_, line)| *line);
        problems.push(FlowProblem {
            line,
            message: format!("{}：{reason}", step.label()),
        });
    }
}

/// The line of the next occurrence of `needle` at or after `from` (moved past it), else of any.
fn find_line(text: &str, from: &mut usize, needle: &str) -> Option<usize> {
    let at = text
        .get(*from..)
        .and_then(|rest| rest.find(needle))
        .map(|i| i + *from)
        .or_else(|| text.find(needle))?;
    *from = at + needle.len();
    Some(line_of(text, at))
}

fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(0, |head| head.matches('\n').count())
        + 1
}

/// A claim of `kind` with every value the service can give a flow filled in (one invoice row,
/// `sample_files` as every file): what `reimburse flow check` renders and `flow try` enters.
pub fn sample_submission(kind: ClaimKind, sample_files: &Path) -> Submission {
    let config = SessionConfig {
        username: "100001".into(),
        password: Password::new("sample-password"),
        default_name: "张三".into(),
        default_card_no: "6222020000001234".into(),
        default_person_id: "P001".into(),
        consumable_storage: "实验楼 301".into(),
    };
    let mut submission = Submission::new(kind, config);
    let row: BTreeMap<String, String> = [
        ("序号", "1"),
        ("发票号码", "25442000000116575693"),
        ("开票日期", "2025/03/11"),
        ("项目名称", "*文具*中性笔"),
        ("规格型号", "0.5mm"),
        ("价税合计", "100.00"),
        ("销售方名称", "示例文具店"),
        ("人员姓名", "张三"),
        ("刷卡日期", "2025/03/11"),
        ("公务卡号", "6222020000001234"),
        ("刷卡金额", "100.00"),
        ("备注", ""),
        ("工号", "100001"),
        ("kind", kind.key()),
        ("expense_type", "other"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    submission.rows.push(row);
    submission.files = SubmissionFiles {
        invoices: vec![sample_files.to_path_buf()],
        outbound_doc: Some(sample_files.to_path_buf()),
    };
    for key in SERVICE_CLAIM_KEYS {
        let value = if key.ends_with("date") {
            "2025/03/11"
        } else {
            "示例"
        };
        submission.extra.insert(key.to_owned(), value.to_owned());
    }
    submission
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;

    fn problems(text: &str) -> Vec<FlowProblem> {
        let file = tempfile::NamedTempFile::new().unwrap();
        check_flow(text, file.path())
    }

    #[test]
    fn the_shipped_flows_are_clean() {
        let text = include_str!("../../../flows/demo-portal.toml");
        assert_eq!(problems(text), []);
        let text = include_str!("../../../flows/campus-portal.toml");
        assert_eq!(problems(text), []);
    }

    #[test]
    fn a_misspelt_key_is_named_with_its_line() {
        let text =
            "[portal]\nname = \"x\"\n\n[[flows.general]]\naction = \"click\"\nselecter = \"#a\"\n";
        let found = problems(text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].message.contains("selecter"), "{found:?}");
        assert!(matches!(found[0].line, Some(4..=6)), "{found:?}");
    }

    #[test]
    fn an_unknown_variable_and_a_missing_flow_are_named() {
        let text = "[portal]\nname = \"x\"\n\n[[flows.general]]\naction = \"fill\"\nselector = \"#a\"\nvalue = \"{{claim.purpos}}\"\n";
        let found = problems(text);
        let unknown = found
            .iter()
            .find(|p| p.message.contains("claim.purpos"))
            .unwrap();
        assert_eq!(unknown.line, Some(7));
        assert!(
            found
                .iter()
                .any(|p| p.line.is_none() && p.message.contains("[flows.travel]")),
            "{found:?}"
        );
    }
}
