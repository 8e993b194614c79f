//! Checks a flow against one submission before any browser starts: every variable defined,
//! every filter applicable, every selector well-formed, every file there.

use crate::error::{ErrorKind, StepPosition, SubmitError};
use crate::flow::{Action, FlowFile, FlowStep, join_url};
use crate::scope::Scope;
use crate::selector::Selector;
use crate::submission::Submission;
use crate::template::{FlowTemplate, Lookup};
use std::path::Path;

/// What stands for the person's answer when a flow is checked before anyone is asked.
pub(crate) const SAMPLE_ANSWER: &str = "0000";

/// At most this many problems are spelled out; the rest are counted.
const MAX_LISTED: usize = 8;

/// The base URL relative `open` URLs are joined to: the override, else the flow's `base_url`
/// rendered with the submission's variables, else empty.
pub fn resolve_base_url(
    flow: &FlowFile,
    submission: &Submission,
    override_url: Option<&str>,
) -> Result<String, SubmitError> {
    if let Some(url) = override_url {
        return Ok(url.trim().to_owned());
    }
    let Some(template) = &flow.portal.base_url else {
        return Ok(String::new());
    };
    let scope = Scope::new(submission, &flow.portal.name, "");
    template.render(&scope).map(|r| r.text).map_err(|e| {
        SubmitError::general(
            ErrorKind::InvalidFlow,
            format!("流程校验失败（未启动浏览器）：[portal] base_url：{e}"),
        )
    })
}

/// Checks the steps for the submission's kind; lists every problem found.
pub fn validate(
    flow: &FlowFile,
    submission: &Submission,
    base_url: &str,
) -> Result<(), SubmitError> {
    let kind = submission.kind;
    let Some(steps) = flow.steps(kind) else {
        return Err(SubmitError::general(
            ErrorKind::InvalidFlow,
            format!(
                "流程文件「{}」没有{}流程（[flows.{}]）",
                flow.portal.name,
                kind.label(),
                kind.key()
            ),
        ));
    };
    let scope = Scope::new(submission, &flow.portal.name, base_url);
    let mut problems = Problems::default();
    for (i, step) in steps.iter().enumerate() {
        let position = StepPosition::top(i + 1);
        match &step.action {
            Action::RepeatForEachRow { steps: nested } => {
                if submission.rows.is_empty() {
                    problems.add(position, step, "没有任何发票行可录入".to_owned());
                }
                for (r, row) in submission.rows.iter().enumerate() {
                    let row_scope = scope.with_row(r, row);
                    for (n, nested_step) in nested.iter().enumerate() {
                        check_step(
                            nested_step,
                            position.nested(n + 1, r),
                            &row_scope,
                            true,
                            &mut problems,
                        );
                    }
                }
            }
            Action::AskPerson { steps: nested, .. } => {
                check_step(step, position, &scope, false, &mut problems);
                let answered = scope.with_answer(SAMPLE_ANSWER);
                for (n, nested_step) in nested.iter().enumerate() {
                    check_step(
                        nested_step,
                        position.inside(n + 1),
                        &answered,
                        false,
                        &mut problems,
                    );
                }
            }
            _ => check_step(step, position, &scope, false, &mut problems),
        }
    }
    problems.into_result()
}

fn check_step(
    step: &FlowStep,
    position: StepPosition,
    scope: &Scope<'_>,
    in_row: bool,
    problems: &mut Problems,
) {
    for (_, reason) in step_problems(step, scope, in_row) {
        problems.add(position, step, reason);
    }
}

/// What is wrong with `step` under `scope`, each with the template it concerns where one does:
/// a `row.*` variable outside `repeat_for_each_row` or a template that does not render (the
/// first of these ends the list), an empty selector, a relative URL without a base, an upload
/// without files or with a path that is not an existing absolute file.
pub(crate) fn step_problems<'t>(
    step: &'t FlowStep,
    scope: &Scope<'_>,
    in_row: bool,
) -> Vec<(Option<&'t FlowTemplate>, String)> {
    let action = &step.action;
    let mut problems = Vec::new();
    for template in action.templates() {
        if !in_row && template.uses_namespace("row") {
            let reason = format!(
                "「{}」用到 row.* 变量，只能放在 repeat_for_each_row 里",
                template.source()
            );
            return vec![(Some(template), reason)];
        }
        if !scope.has_answer() && template.uses_namespace("person") {
            let reason = format!(
                "「{}」用到 person.answer，只能放在 ask_person 的 steps 里",
                template.source()
            );
            return vec![(Some(template), reason)];
        }
        if let Err(e) = template.render(scope) {
            return vec![(Some(template), e.to_string())];
        }
    }
    for template in action.selector_templates() {
        if rendered(template, scope)
            .and_then(|s| Selector::parse(&s))
            .is_none()
        {
            problems.push((
                Some(template),
                format!("选择器「{}」为空", template.source()),
            ));
        }
    }
    match action {
        Action::Open { url } => {
            let base = scope.lookup("portal.base_url").map(|v| v.text);
            let joined = rendered(url, scope).and_then(|u| join_url(&base.unwrap_or_default(), &u));
            if joined.is_none() {
                problems.push((
                    Some(url),
                    format!("「{}」是相对地址，但没有 base_url", url.source()),
                ));
            }
        }
        Action::Upload {
            files, optional, ..
        } => {
            let list = rendered(files, scope).unwrap_or_default();
            let paths = file_list(&list);
            if paths.is_empty() && !optional {
                problems.push((
                    Some(files),
                    format!("「{}」没有给出任何文件", files.source()),
                ));
            }
            for path in paths {
                if let Some(problem) = file_problem(Path::new(path)) {
                    problems.push((Some(files), problem));
                }
            }
        }
        _ => {}
    }
    problems
}

fn rendered(template: &FlowTemplate, scope: &Scope<'_>) -> Option<String> {
    template.render(scope).ok().map(|r| r.text)
}

/// The paths of an upload's rendered `files`: one per non-empty line.
pub fn file_list(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

fn file_problem(path: &Path) -> Option<String> {
    if !path.is_absolute() {
        return Some(format!("文件路径须为绝对路径：{}", path.display()));
    }
    if !path.is_file() {
        return Some(format!("文件不存在：{}", path.display()));
    }
    None
}

#[derive(Default)]
struct Problems {
    /// (position, step label, reason); the same reason of the same step is kept for the first
    /// row only, so a column missing everywhere is reported once.
    list: Vec<(StepPosition, String, String)>,
}

impl Problems {
    fn add(&mut self, position: StepPosition, step: &FlowStep, reason: String) {
        let duplicate = self.list.iter().any(|(p, _, r)| {
            p.index == position.index && p.nested == position.nested && *r == reason
        });
        if !duplicate {
            self.list.push((position, step.label(), reason));
        }
    }

    fn into_result(self) -> Result<(), SubmitError> {
        let Some((first_position, first_label, _)) = self.list.first().cloned() else {
            return Ok(());
        };
        let mut listed: Vec<String> = self
            .list
            .iter()
            .take(MAX_LISTED)
            .map(|(p, label, reason)| format!("{p}「{label}」：{reason}"))
            .collect();
        if self.list.len() > MAX_LISTED {
            listed.push(format!("另有{}处问题", self.list.len() - MAX_LISTED));
        }
        Err(SubmitError {
            kind: ErrorKind::InvalidFlow,
            step_index: Some(first_position.index),
            step_name: Some(first_label),
            row: first_position.row.map(|r| r + 1),
            message: format!("流程校验失败（未启动浏览器）：{}", listed.join("；")),
            screenshot: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::submission::ClaimKind;
    use domain::SessionConfig;
    use std::collections::BTreeMap;

    fn flow(steps: &str) -> FlowFile {
        FlowFile::from_toml_str(&format!(
            "[portal]\nname = \"测试\"\nbase_url = \"{{{{claim.url | default('http://h')}}}}\"\n{steps}"
        ))
        .unwrap()
    }

    fn submission() -> Submission {
        let mut s = Submission::new(ClaimKind::General, SessionConfig::default());
        s.rows = vec![
            BTreeMap::from([("发票号码".to_owned(), "12345678".to_owned())]),
            BTreeMap::from([("发票号码".to_owned(), "87654321".to_owned())]),
        ];
        s
    }

    #[test]
    fn a_good_flow_passes() {
        let f = flow(
            r##"
[[flows.general]]
action = "open"
url = "/login"
[[flows.general]]
action = "repeat_for_each_row"
[[flows.general.steps]]
action = "fill"
selector = "#n-{{row.index}}"
value = "{{row.发票号码}}"
"##,
        );
        let s = submission();
        let base = resolve_base_url(&f, &s, None).unwrap();
        assert_eq!(base, "http://h");
        validate(&f, &s, &base).unwrap();
        assert_eq!(
            resolve_base_url(&f, &s, Some("http://o")).unwrap(),
            "http://o"
        );
    }

    #[test]
    fn lists_every_problem_once() {
        let f = flow(
            r##"
[[flows.general]]
action = "fill"
name = "填写事由"
selector = "#purpose"
value = "{{claim.purpose}}"
[[flows.general]]
action = "fill"
selector = "#x"
value = "{{row.发票号码}}"
[[flows.general]]
action = "repeat_for_each_row"
[[flows.general.steps]]
action = "fill"
selector = "#d-{{row.index}}"
value = "{{row.开票日期}}"
[[flows.general]]
action = "upload"
selector = "#f"
files = "{{files.invoices}}"
"##,
        );
        let err = validate(&f, &submission(), "http://h").unwrap_err();
        assert_eq!(err.kind, ErrorKind::InvalidFlow);
        assert_eq!(err.step_index, Some(1));
        assert_eq!(err.step_name.as_deref(), Some("填写事由"));
        let m = &err.message;
        assert!(
            m.contains("第1步「填写事由」：未知变量 claim.purpose"),
            "{m}"
        );
        assert!(m.contains("第2步"), "{m}");
        assert!(m.contains("只能放在 repeat_for_each_row 里"), "{m}");
        assert_eq!(m.matches("未知变量 row.开票日期").count(), 1, "{m}");
        assert!(m.contains("没有给出任何文件"), "{m}");
    }

    #[test]
    fn checks_files_and_missing_flows() {
        let f = flow(
            "[[flows.general]]\naction = \"upload\"\nselector = \"#f\"\nfiles = \"relative.pdf\\n/no/such/file.pdf\"\n",
        );
        let m = validate(&f, &submission(), "").unwrap_err().message;
        assert!(m.contains("须为绝对路径：relative.pdf"), "{m}");
        assert!(m.contains("文件不存在：/no/such/file.pdf"), "{m}");
        let mut travel = submission();
        travel.kind = ClaimKind::Travel;
        let m = validate(&f, &travel, "").unwrap_err().message;
        assert!(m.contains("没有差旅报销流程"), "{m}");
    }
}
