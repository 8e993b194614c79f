//! The completeness judgement: `can_submit` with what is missing, as the interface's
//! `agent_request_supplement` lists it. Without a model the rules' findings decide; with one,
//! the model is asked with the prompt and schema below (the one place they live) and its
//! answer is merged with the rules', which stay binding: a model can add an issue, never
//! wave one away.

use crate::rules::{Issue, ReportAs};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// The judgement of one round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Judgement {
    /// Whether the claim may be submitted as it is.
    pub can_submit: bool,
    /// Fields the claim lacks, in the clerk's words.
    pub missing_fields: Vec<String>,
    /// Materials the claim lacks (住宿水单, 销货清单, …).
    pub missing_materials: Vec<String>,
    /// Contradictions in what was given (a date after today, amounts that disagree, …).
    pub semantic_issues: Vec<String>,
    /// Findings worth a look that do not stop the submission (a near duplicate).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<String>,
    /// What the user should do next, in one sentence.
    pub suggestion: String,
    /// `rules`, or `model` when a model's answer was merged in.
    #[serde(default)]
    pub decided_by: String,
}

fn push_unique(list: &mut Vec<String>, text: &str) {
    if !list.iter().any(|t| t == text) {
        list.push(text.to_owned());
    }
}

/// The judgement the rules' findings give.
pub fn judge_by_rules(issues: &[Issue]) -> Judgement {
    let mut judgement = Judgement {
        decided_by: "rules".to_owned(),
        ..Judgement::default()
    };
    for issue in issues {
        let list = match issue.report_as {
            ReportAs::MissingField => &mut judgement.missing_fields,
            ReportAs::MissingMaterial => &mut judgement.missing_materials,
            ReportAs::SemanticIssue => &mut judgement.semantic_issues,
            ReportAs::Notice => &mut judgement.notices,
        };
        push_unique(list, &issue.message);
    }
    finish(judgement)
}

/// Sets `can_submit` and the suggestion from the lists.
fn finish(mut judgement: Judgement) -> Judgement {
    judgement.can_submit = judgement.missing_fields.is_empty()
        && judgement.missing_materials.is_empty()
        && judgement.semantic_issues.is_empty();
    if judgement.suggestion.trim().is_empty() || judgement.can_submit {
        judgement.suggestion = suggestion(&judgement);
    }
    judgement
}

fn suggestion(judgement: &Judgement) -> String {
    if judgement.can_submit {
        return "信息完整，可以提交".to_owned();
    }
    let mut parts = Vec::new();
    if !judgement.missing_fields.is_empty() {
        parts.push(format!(
            "请补充以下信息（可直接输入，如「出差事由：参加学术会议」）：{}",
            judgement.missing_fields.join("；")
        ));
    }
    if !judgement.missing_materials.is_empty() {
        parts.push(format!(
            "请上传：{}",
            judgement.missing_materials.join("；")
        ));
    }
    if !judgement.semantic_issues.is_empty() {
        parts.push(format!("请核对：{}", judgement.semantic_issues.join("；")));
    }
    parts.push("如确认无误，也可以强制提交".to_owned());
    parts.join("。")
}

/// The rules' judgement with a model's answer merged in: the lists are joined, `can_submit`
/// holds only when both agree, the model's suggestion is kept when it has one.
pub fn merge_model(rules: &Judgement, model: &Judgement) -> Judgement {
    let mut merged = rules.clone();
    for text in &model.missing_fields {
        push_unique(&mut merged.missing_fields, text);
    }
    for text in &model.missing_materials {
        push_unique(&mut merged.missing_materials, text);
    }
    for text in &model.semantic_issues {
        push_unique(&mut merged.semantic_issues, text);
    }
    merged.decided_by = "model".to_owned();
    merged.suggestion = model.suggestion.clone();
    let agreed = model.can_submit;
    let mut merged = finish(merged);
    merged.can_submit = merged.can_submit && agreed;
    if !merged.can_submit && merged.suggestion.trim().is_empty() {
        merged.suggestion = suggestion(&merged);
    }
    merged
}

/// What the model is told (the claim, the rules' findings and the previous round's analysis
/// follow as JSON in the user message).
pub const JUDGE_PROMPT: &str = "你是高校财务报销审核员。下面是一次报销的发票表格、出差信息、已提供的材料、规则校验结果和上一轮的分析。\
请判断信息是否完整、能否提交：缺少的字段列入 missing_fields，缺少的证明材料（如住宿水单、销货清单）列入 missing_materials，\
语义上的问题（如乘车人不是报销人、金额或日期明显不合理、出差事由与票据不符）列入 semantic_issues，每项用一句中文说明；\
suggestion 用一两句中文告诉报销人下一步怎么做。规则校验发现的问题必须保留。只有全部完整且没有问题时 can_submit 才为 true。只输出 JSON。";

/// The JSON schema of the model's answer.
pub fn judgement_schema() -> Value {
    let list = json!({"type": "array", "items": {"type": "string"}});
    json!({
        "type": "object",
        "required": ["can_submit", "missing_fields", "missing_materials", "semantic_issues", "suggestion"],
        "properties": {
            "can_submit": {"type": "boolean"},
            "missing_fields": list,
            "missing_materials": list,
            "semantic_issues": list,
            "suggestion": {"type": "string"}
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issue(report_as: ReportAs, message: &str) -> Issue {
        Issue {
            rule: "r".into(),
            report_as,
            field: "f".into(),
            row: None,
            message: message.into(),
        }
    }

    #[test]
    fn findings_are_listed_once_each_and_block_submission() {
        let judgement = judge_by_rules(&[
            issue(ReportAs::MissingField, "请填写出差事由"),
            issue(ReportAs::MissingField, "请填写出差事由"),
            issue(ReportAs::MissingMaterial, "请上传住宿水单"),
        ]);
        assert!(!judgement.can_submit);
        assert_eq!(judgement.missing_fields, ["请填写出差事由"]);
        assert_eq!(judgement.missing_materials, ["请上传住宿水单"]);
        assert!(
            judgement.suggestion.contains("出差事由"),
            "{}",
            judgement.suggestion
        );
        assert!(judge_by_rules(&[]).can_submit);
    }

    #[test]
    fn a_model_adds_issues_but_cannot_wave_the_rules_away() {
        let rules = judge_by_rules(&[issue(ReportAs::MissingField, "请填写出差事由")]);
        let lenient = Judgement {
            can_submit: true,
            suggestion: "可以提交".into(),
            ..Judgement::default()
        };
        assert!(!merge_model(&rules, &lenient).can_submit);
        let strict = Judgement {
            can_submit: false,
            semantic_issues: vec!["出差事由与车票日期不符".into()],
            suggestion: "请核对".into(),
            ..Judgement::default()
        };
        let merged = merge_model(&judge_by_rules(&[]), &strict);
        assert!(!merged.can_submit);
        assert_eq!(merged.semantic_issues, ["出差事由与车票日期不符"]);
        assert_eq!(merged.decided_by, "model");
    }
}
