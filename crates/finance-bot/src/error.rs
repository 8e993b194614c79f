//! How a submission fails: which step, why (in Chinese, for the user), and the page screenshot.

use std::fmt;
use std::path::PathBuf;

/// What kind of failure, for callers that react differently (e.g. retry only technical ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The flow file or the submission data do not fit together; no browser was started.
    InvalidFlow,
    /// The browser or WebDriver could not be started or talked to.
    Browser,
    /// A step could not be done (element missing, check failed, …).
    Step,
    /// The portal refused: a `fail_if_present` element showed up, its text is the reason.
    Rejected,
    /// A step or the whole submission ran out of time.
    Timeout,
    /// An `ask_person` step got no answer in time (or there was nobody to ask).
    NoAnswer,
    /// A bug in the bot (a panic), caught so the caller's thread survives.
    Internal,
}

/// A failed submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmitError {
    /// What kind of failure.
    pub kind: ErrorKind,
    /// 1-based index of the failing top-level step, if a step failed.
    pub step_index: Option<usize>,
    /// The step's name (or its description when the flow gives none).
    pub step_name: Option<String>,
    /// 1-based invoice row being entered, for steps inside `repeat_for_each_row`.
    pub row: Option<usize>,
    /// User-facing text, e.g. `第12步「提交报销单」失败：第1行：发票号码格式不正确（应为8位或20位数字）`.
    pub message: String,
    /// PNG of the page when the failure happened.
    pub screenshot: Option<PathBuf>,
}

impl SubmitError {
    /// A failure not tied to a step.
    pub fn general(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            step_index: None,
            step_name: None,
            row: None,
            message: message.into(),
            screenshot: None,
        }
    }

    /// A failure of the step at `position`.
    pub fn at_step(kind: ErrorKind, position: &StepPosition, name: &str, reason: &str) -> Self {
        Self {
            kind,
            step_index: Some(position.index),
            step_name: Some(name.to_owned()),
            row: position.row.map(|r| r + 1),
            message: format!("{position}「{name}」失败：{reason}"),
            screenshot: None,
        }
    }

    /// Replaces every secret in the texts by `***` (WebDriver messages may echo input).
    pub(crate) fn scrubbed(mut self, secrets: &[String]) -> Self {
        self.message = scrub(&self.message, secrets);
        self.step_name = self.step_name.map(|n| scrub(&n, secrets));
        self
    }
}

impl fmt::Display for SubmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(path) = &self.screenshot {
            write!(f, "（页面截图：{}）", path.display())?;
        }
        Ok(())
    }
}

impl std::error::Error for SubmitError {}

/// Where a step sits: top-level index (1-based), and inside a row loop the nested index
/// (1-based) and the row (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepPosition {
    pub index: usize,
    pub nested: Option<usize>,
    pub row: Option<usize>,
}

impl StepPosition {
    pub fn top(index: usize) -> Self {
        Self {
            index,
            nested: None,
            row: None,
        }
    }

    pub fn nested(self, nested: usize, row: usize) -> Self {
        Self {
            nested: Some(nested),
            row: Some(row),
            ..self
        }
    }

    /// Step `nested` of a block that is not a row loop (`ask_person`).
    pub fn inside(self, nested: usize) -> Self {
        Self {
            nested: Some(nested),
            row: None,
            ..self
        }
    }
}

impl fmt::Display for StepPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.nested, self.row) {
            (Some(n), Some(r)) => write!(f, "第{}.{n}步（第{}行）", self.index, r + 1),
            (Some(n), None) => write!(f, "第{}.{n}步", self.index),
            _ => write!(f, "第{}步", self.index),
        }
    }
}

/// `text` with every non-empty secret replaced by `***`.
pub(crate) fn scrub(text: &str, secrets: &[String]) -> String {
    secrets
        .iter()
        .filter(|s| !s.is_empty())
        .fold(text.to_owned(), |t, s| t.replace(s.as_str(), "***"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_position_and_step() {
        let e = SubmitError::at_step(
            ErrorKind::Rejected,
            &StepPosition::top(3),
            "提交报销单",
            "发票号码格式不正确",
        );
        assert_eq!(e.message, "第3步「提交报销单」失败：发票号码格式不正确");
        let nested = StepPosition::top(12).nested(3, 1);
        assert_eq!(nested.to_string(), "第12.3步（第2行）");
        let mut e = SubmitError::at_step(ErrorKind::Step, &nested, "填写", "x pw123 y");
        e.screenshot = Some(PathBuf::from("/tmp/s.png"));
        let e = e.scrubbed(&["pw123".to_owned(), String::new()]);
        assert_eq!(e.row, Some(2));
        assert_eq!(
            e.to_string(),
            "第12.3步（第2行）「填写」失败：x *** y（页面截图：/tmp/s.png）"
        );
    }
}
