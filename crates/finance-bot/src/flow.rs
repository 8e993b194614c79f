//! Flow files: a portal's description and its step lists per claim kind, read from TOML.

use crate::submission::ClaimKind;
use crate::template::{FlowTemplate, Lookup};
use serde::Deserialize;
use std::path::Path;

/// A whole flow file: which portal, and how to file each kind of claim there.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowFile {
    /// `[portal]`.
    pub portal: PortalSection,
    /// `[flows]`.
    pub flows: Flows,
}

/// `[portal]`: the portal's name (shown in messages) and where it lives.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortalSection {
    /// The portal's name, shown in messages.
    pub name: String,
    /// Base URL that relative `open` URLs are joined to; may use variables
    /// (`{{claim.portal_url | default('http://127.0.0.1:8090')}}`).
    /// `BotOptions::base_url` overrides it.
    #[serde(default)]
    pub base_url: Option<FlowTemplate>,
    /// Free text for people editing the file.
    #[serde(default)]
    pub description: Option<String>,
    /// How `fill` steps enter text unless a step says otherwise.
    #[serde(default)]
    pub fill_method: FillMethod,
}

/// How a `fill` step enters its text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FillMethod {
    /// Real key presses through WebDriver, like a person typing (the field must be visible).
    #[default]
    Type,
    /// One script call that sets the value and fires `input` and `change` (and focus/blur):
    /// several times faster, which adds up on forms with many rows.
    Script,
    /// As `script`, also into a read-only field (not a disabled one): a date a JavaScript
    /// picker writes, which no key press can enter but the portal accepts when set by script.
    Force,
}

/// `[flows]`: one step list per claim kind; a portal may support only one kind.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flows {
    /// `[[flows.general]]`: the steps of a 日常报销.
    #[serde(default)]
    pub general: Option<Vec<FlowStep>>,
    /// `[[flows.travel]]`: the steps of a 差旅报销.
    #[serde(default)]
    pub travel: Option<Vec<FlowStep>>,
}

/// One step: what to do, an optional name for messages and an optional own timeout.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "RawStep")]
pub struct FlowStep {
    /// How messages name the step (else its action and selector describe it).
    pub name: Option<String>,
    /// The step's own timeout in milliseconds, instead of the bot's step timeout.
    pub timeout_ms: Option<u64>,
    /// `final_submit = true`: the click that files the claim; `reimburse flow try` stops
    /// before it (without one marked, before the last top-level click).
    pub final_submit: bool,
    /// What it does.
    pub action: Action,
}

/// What a step does (`action = "…"` and its keys). Every selector and value is a template;
/// selectors are CSS unless prefixed `xpath:` or `id:`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `open`: navigates the whole window; a relative URL is joined to the portal's base URL.
    Open {
        /// The address.
        url: FlowTemplate,
    },
    /// `fill`: types into a text field, clearing it first unless `clear = false`. With
    /// `optional = true` an empty value skips the step (the field keeps what the page put there).
    Fill {
        /// The field.
        selector: FlowTemplate,
        /// The text to enter.
        value: FlowTemplate,
        /// Clear the field first (default true).
        clear: bool,
        /// Skip the step when the value is empty.
        optional: bool,
        /// `None`: the portal's `fill_method`.
        method: Option<FillMethod>,
    },
    /// `select`: chooses an option of a `<select>` by its exact value or visible text;
    /// `optional` and `method` as for fill (`type` clicks the option, `script` sets it and
    /// fires `change`).
    Select {
        /// The `<select>`.
        selector: FlowTemplate,
        /// Which option.
        choice: Choice,
        /// Skip the step when the choice renders empty.
        optional: bool,
        /// `None`: the portal's `fill_method`.
        method: Option<FillMethod>,
    },
    /// `click`: clicks an element.
    Click {
        /// The element.
        selector: FlowTemplate,
    },
    /// `upload`: gives a file input one or more files (the template's lines, each an absolute
    /// path).
    Upload {
        /// The `<input type="file">`.
        selector: FlowTemplate,
        /// The files, one path per line (`{{files.invoices}}`).
        files: FlowTemplate,
        /// When set, an empty file list skips the step instead of failing.
        optional: bool,
    },
    /// `switch_frame`: later steps act inside this `<iframe>`.
    SwitchFrame {
        /// The frame element.
        selector: FlowTemplate,
    },
    /// `switch_frame_parent`: back to the frame around the current one.
    SwitchFrameParent,
    /// `switch_frame_default`: back to the top-level page.
    SwitchFrameDefault,
    /// `wait_for`: waits until an element is present (or visible); fails early if `fail_if`
    /// shows up.
    WaitFor {
        /// The element awaited.
        selector: FlowTemplate,
        /// Wait until it is visible, not only present.
        visible: bool,
        /// An element whose appearance fails the step at once (an error page).
        fail_if: Option<FlowTemplate>,
    },
    /// `wait_for_text`: waits until an element's text contains something.
    WaitForText {
        /// The element.
        selector: FlowTemplate,
        /// The text awaited.
        contains: FlowTemplate,
    },
    /// `repeat_for_each_row`: runs `steps` once per invoice row, with that row as `row.*`.
    RepeatForEachRow {
        /// The steps of one row.
        steps: Vec<FlowStep>,
    },
    /// `read_text`: reads an element's text into `into`; with a `pattern`, only what it
    /// matches (its first group, if it has one): `提交成功，单据号：CW2026000101` with
    /// `单据号：(\w+)` gives the number alone.
    ReadText {
        /// The element.
        selector: FlowTemplate,
        /// The name the value is kept under (`claim_no` is the claim number).
        into: String,
        /// What to take of the text.
        pattern: Option<Pattern>,
    },
    /// `assert_text`: fails unless an element's text contains something.
    AssertText {
        /// The element.
        selector: FlowTemplate,
        /// The text required.
        contains: FlowTemplate,
        /// The failure's message, instead of a generic one.
        message: Option<FlowTemplate>,
    },
    /// `fail_if_present`: fails when the element is there; its text (all matches) becomes the
    /// reason if asked. Right after a click it first waits (at most `settle_ms`) for the page
    /// that click loads.
    FailIfPresent {
        /// The element that means failure (an error message of the portal).
        selector: FlowTemplate,
        /// Make the element's text the failure's reason.
        read_text_into_error: bool,
        /// The failure's message, instead of the element's text.
        message: Option<FlowTemplate>,
        /// How long to wait for the page a click loads, in milliseconds.
        settle_ms: Option<u64>,
    },
    /// `sleep_ms`: waits a fixed time.
    SleepMs {
        /// Milliseconds.
        ms: u64,
    },
    /// `ask_person`: shows the person a challenge (the `image` element's picture, the
    /// `prompt`) and waits `wait_s` for their answer, then runs `steps` with it as
    /// `{{person.answer}}`. When `again_if` shows up afterwards (or an unexpected dialog ends
    /// a nested step) saying `again_if_contains`, the answer was wrong: the person is asked
    /// again with the portal's words, up to `attempts` times; any other text there is the
    /// portal's refusal.
    AskPerson {
        /// What to ask (`请输入图片中的验证码`).
        prompt: FlowTemplate,
        /// The element whose picture is shown (a captcha image).
        image: Option<FlowTemplate>,
        /// How many answers the person may give.
        attempts: u32,
        /// Seconds the person has for each.
        wait_s: u64,
        /// The element that says an answer was refused.
        again_if: Option<FlowTemplate>,
        /// The words in it that mean "wrong answer, ask again".
        again_if_contains: Option<FlowTemplate>,
        /// The steps that enter the answer.
        steps: Vec<FlowStep>,
    },
    /// `accept_dialog` / `dismiss_dialog`: waits (the step's timeout) for a
    /// `confirm()`/`alert()` of the page and accepts or dismisses it; with `contains`, a
    /// dialog saying something else fails the step with its text.
    Dialog {
        /// Accept (`accept_dialog`) or dismiss (`dismiss_dialog`).
        accept: bool,
        /// The text the dialog must contain.
        contains: Option<FlowTemplate>,
    },
}

/// A `read_text` step's pattern, compiled when the flow is loaded.
#[derive(Debug, Clone)]
pub struct Pattern {
    source: String,
    regex: regex_lite::Regex,
}

impl Pattern {
    fn new(source: &str) -> Result<Self, String> {
        let regex =
            regex_lite::Regex::new(source).map_err(|e| format!("pattern「{source}」无效：{e}"))?;
        if regex.captures_len() > 2 {
            return Err(format!("pattern「{source}」最多只能有一个分组"));
        }
        Ok(Self {
            source: source.to_owned(),
            regex,
        })
    }

    /// What the pattern takes from `text`: its group, else the whole match.
    pub fn extract<'t>(&self, text: &'t str) -> Option<&'t str> {
        let captures = self.regex.captures(text)?;
        captures
            .get(1)
            .or_else(|| captures.get(0))
            .map(|m| m.as_str())
    }

    /// The pattern as written in the flow file.
    pub fn source(&self) -> &str {
        &self.source
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for Pattern {}

/// How a `select` step picks its option.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// `value = "…"`: the option whose `value` attribute is this.
    Value(FlowTemplate),
    /// `text = "…"`: the option whose visible text is this.
    Text(FlowTemplate),
}

/// A flow file that could not be read or understood.
#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    /// The file could not be read.
    #[error("无法读取流程文件 {path}：{source}")]
    Io {
        /// The file's path.
        path: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The text is not a flow file (TOML syntax, an unknown key or action, a bad template).
    #[error("流程文件格式错误：{0}")]
    Toml(String),
}

impl FlowFile {
    /// Parses a flow file's text.
    pub fn from_toml_str(text: &str) -> Result<Self, FlowError> {
        toml::from_str(text).map_err(|e| FlowError::Toml(e.to_string()))
    }

    /// Reads and parses the flow file at `path`.
    pub fn load(path: &Path) -> Result<Self, FlowError> {
        let text = std::fs::read_to_string(path).map_err(|source| FlowError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::from_toml_str(&text)
    }

    /// The steps for `kind`, if the file has them.
    pub fn steps(&self, kind: ClaimKind) -> Option<&[FlowStep]> {
        match kind {
            ClaimKind::General => self.flows.general.as_deref(),
            ClaimKind::Travel => self.flows.travel.as_deref(),
        }
    }
}

impl Action {
    /// Whether the action holds steps of its own (`repeat_for_each_row`, `ask_person`).
    pub fn is_block(&self) -> bool {
        matches!(self, Self::RepeatForEachRow { .. } | Self::AskPerson { .. })
    }

    /// The action's own steps, for a block.
    pub fn nested(&self) -> &[FlowStep] {
        match self {
            Self::RepeatForEachRow { steps } | Self::AskPerson { steps, .. } => steps,
            _ => &[],
        }
    }

    /// The `action = "…"` keyword.
    pub fn keyword(&self) -> &'static str {
        match self {
            Self::Open { .. } => "open",
            Self::Fill { .. } => "fill",
            Self::Select { .. } => "select",
            Self::Click { .. } => "click",
            Self::Upload { .. } => "upload",
            Self::SwitchFrame { .. } => "switch_frame",
            Self::SwitchFrameParent => "switch_frame_parent",
            Self::SwitchFrameDefault => "switch_frame_default",
            Self::WaitFor { .. } => "wait_for",
            Self::WaitForText { .. } => "wait_for_text",
            Self::RepeatForEachRow { .. } => "repeat_for_each_row",
            Self::ReadText { .. } => "read_text",
            Self::AssertText { .. } => "assert_text",
            Self::FailIfPresent { .. } => "fail_if_present",
            Self::SleepMs { .. } => "sleep_ms",
            Self::AskPerson { .. } => "ask_person",
            Self::Dialog { accept: true, .. } => "accept_dialog",
            Self::Dialog { accept: false, .. } => "dismiss_dialog",
        }
    }

    /// Every template of this step (not of nested steps), for validation.
    pub fn templates(&self) -> Vec<&FlowTemplate> {
        match self {
            Self::Open { url } => vec![url],
            Self::Fill {
                selector, value, ..
            } => vec![selector, value],
            Self::Select {
                selector, choice, ..
            } => match choice {
                Choice::Value(t) | Choice::Text(t) => vec![selector, t],
            },
            Self::Click { selector }
            | Self::SwitchFrame { selector }
            | Self::ReadText { selector, .. } => vec![selector],
            Self::Upload {
                selector, files, ..
            } => vec![selector, files],
            Self::WaitFor {
                selector, fail_if, ..
            } => std::iter::once(selector).chain(fail_if).collect(),
            Self::WaitForText { selector, contains } => vec![selector, contains],
            Self::AssertText {
                selector,
                contains,
                message,
            } => [selector, contains].into_iter().chain(message).collect(),
            Self::FailIfPresent {
                selector, message, ..
            } => std::iter::once(selector).chain(message).collect(),
            Self::Dialog { contains, .. } => contains.iter().collect(),
            Self::AskPerson {
                prompt,
                image,
                again_if,
                again_if_contains,
                ..
            } => std::iter::once(prompt)
                .chain(image)
                .chain(again_if)
                .chain(again_if_contains)
                .collect(),
            Self::SwitchFrameParent
            | Self::SwitchFrameDefault
            | Self::RepeatForEachRow { .. }
            | Self::SleepMs { .. } => Vec::new(),
        }
    }

    /// The templates that are selectors (checked for a valid prefix after rendering).
    pub fn selector_templates(&self) -> Vec<&FlowTemplate> {
        match self {
            Self::Fill { selector, .. }
            | Self::Select { selector, .. }
            | Self::Click { selector }
            | Self::Upload { selector, .. }
            | Self::SwitchFrame { selector }
            | Self::WaitForText { selector, .. }
            | Self::ReadText { selector, .. }
            | Self::AssertText { selector, .. }
            | Self::FailIfPresent { selector, .. } => vec![selector],
            Self::WaitFor {
                selector, fail_if, ..
            } => std::iter::once(selector).chain(fail_if).collect(),
            Self::AskPerson {
                image, again_if, ..
            } => image.iter().chain(again_if).collect(),
            Self::Open { .. }
            | Self::SwitchFrameParent
            | Self::SwitchFrameDefault
            | Self::RepeatForEachRow { .. }
            | Self::SleepMs { .. }
            | Self::Dialog { .. } => Vec::new(),
        }
    }
}

impl FlowStep {
    /// The step's name, or a short description built from its templates' source text (which
    /// never holds a secret value).
    pub fn label(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let a = &self.action;
        match a {
            Action::Open { url } => format!("打开 {}", url.source()),
            Action::Fill {
                selector, value, ..
            } => format!("填写 {} = {}", selector.source(), value.source()),
            Action::Select {
                selector, choice, ..
            } => match choice {
                Choice::Value(t) | Choice::Text(t) => {
                    format!("选择 {} = {}", selector.source(), t.source())
                }
            },
            Action::Click { selector } => format!("点击 {}", selector.source()),
            Action::Upload { selector, .. } => format!("上传文件到 {}", selector.source()),
            Action::SwitchFrame { selector } => format!("进入框架 {}", selector.source()),
            Action::SwitchFrameParent => "返回上一层框架".to_owned(),
            Action::SwitchFrameDefault => "返回主页面".to_owned(),
            Action::WaitFor { selector, .. } => format!("等待 {}", selector.source()),
            Action::WaitForText { selector, contains } => {
                format!("等待 {} 出现「{}」", selector.source(), contains.source())
            }
            Action::RepeatForEachRow { .. } => "逐行录入".to_owned(),
            Action::ReadText { selector, into, .. } => {
                format!("读取 {} 到 {into}", selector.source())
            }
            Action::AssertText { selector, .. } => format!("检查 {}", selector.source()),
            Action::FailIfPresent { selector, .. } => {
                format!("检查是否出现 {}", selector.source())
            }
            Action::SleepMs { ms } => format!("等待 {ms} 毫秒"),
            Action::AskPerson { prompt, .. } => format!("请人输入：{}", prompt.source()),
            Action::Dialog { accept: true, .. } => "确认页面对话框".to_owned(),
            Action::Dialog { accept: false, .. } => "取消页面对话框".to_owned(),
        }
    }
}

impl FlowStep {
    /// What the step does with this data, secrets masked: `填写 #password = ***`.
    pub(crate) fn describe(&self, vars: &dyn Lookup) -> String {
        let show = |t: &FlowTemplate| {
            t.render(vars)
                .map(|r| r.shown)
                .unwrap_or_else(|_| t.source().to_owned())
        };
        let what = match &self.action {
            Action::Open { url } => format!("open {}", show(url)),
            Action::Fill {
                selector, value, ..
            } => format!("fill {} = {}", show(selector), show(value)),
            Action::Select {
                selector, choice, ..
            } => match choice {
                Choice::Value(t) => format!("select {} value = {}", show(selector), show(t)),
                Choice::Text(t) => format!("select {} text = {}", show(selector), show(t)),
            },
            Action::Upload {
                selector, files, ..
            } => format!(
                "upload {} ← {}",
                show(selector),
                show(files).lines().collect::<Vec<_>>().join(", ")
            ),
            other => {
                let templates: Vec<String> = other.templates().into_iter().map(show).collect();
                format!("{} {}", other.keyword(), templates.join(" "))
            }
        };
        format!("{}：{}", self.label(), what.trim_end())
    }
}

/// `url` as an absolute address: kept when it already is one, else appended to `base`.
/// `None` when a relative URL has no base to go with.
pub fn join_url(base: &str, url: &str) -> Option<String> {
    let url = url.trim();
    if url.starts_with("http://") || url.starts_with("https://") || url.starts_with("file://") {
        return Some(url.to_owned());
    }
    let base = base.trim().trim_end_matches('/');
    if base.is_empty() {
        return None;
    }
    Some(format!("{base}/{}", url.trim_start_matches('/')))
}

/// Every key any step may have; each action then takes what it needs and refuses the rest, so a
/// misspelt key is an error instead of being ignored.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    action: String,
    name: Option<String>,
    timeout_ms: Option<u64>,
    url: Option<FlowTemplate>,
    selector: Option<FlowTemplate>,
    value: Option<FlowTemplate>,
    text: Option<FlowTemplate>,
    clear: Option<bool>,
    method: Option<FillMethod>,
    files: Option<FlowTemplate>,
    optional: Option<bool>,
    visible: Option<bool>,
    fail_if: Option<FlowTemplate>,
    contains: Option<FlowTemplate>,
    into: Option<String>,
    pattern: Option<String>,
    message: Option<FlowTemplate>,
    read_text_into_error: Option<bool>,
    settle_ms: Option<u64>,
    ms: Option<u64>,
    steps: Option<Vec<FlowStep>>,
    final_submit: Option<bool>,
    prompt: Option<FlowTemplate>,
    image: Option<FlowTemplate>,
    attempts: Option<u32>,
    wait_s: Option<u64>,
    again_if: Option<FlowTemplate>,
    again_if_contains: Option<FlowTemplate>,
}

/// How long the person has to answer a challenge unless the step says, and how often a wrong
/// answer is asked again.
const DEFAULT_WAIT_S: u64 = 180;
const DEFAULT_ATTEMPTS: u32 = 3;

impl TryFrom<RawStep> for FlowStep {
    type Error = String;

    fn try_from(mut raw: RawStep) -> Result<Self, String> {
        let action = raw.action.clone();
        let context = match &raw.name {
            Some(name) => format!("步骤「{name}」（{action}）"),
            None => format!("步骤 {action}"),
        };
        let parsed = build_action(&mut raw).map_err(|e| format!("{context}：{e}"))?;
        if raw.final_submit == Some(true) && !matches!(parsed, Action::Click { .. }) {
            return Err(format!("{context}：final_submit 只能用于 click 步骤"));
        }
        let leftover = raw.leftover_keys();
        if !leftover.is_empty() {
            return Err(format!(
                "{context}：{action} 不接受这些键：{}",
                leftover.join("、")
            ));
        }
        Ok(FlowStep {
            name: raw.name,
            timeout_ms: raw.timeout_ms,
            final_submit: raw.final_submit.unwrap_or(false),
            action: parsed,
        })
    }
}

fn build_action(raw: &mut RawStep) -> Result<Action, String> {
    fn need<T>(field: &mut Option<T>, key: &str) -> Result<T, String> {
        field.take().ok_or_else(|| format!("缺少 {key}"))
    }
    Ok(match raw.action.as_str() {
        "open" => Action::Open {
            url: need(&mut raw.url, "url")?,
        },
        "fill" => Action::Fill {
            selector: need(&mut raw.selector, "selector")?,
            value: need(&mut raw.value, "value")?,
            clear: raw.clear.take().unwrap_or(true),
            optional: raw.optional.take().unwrap_or(false),
            method: raw.method.take(),
        },
        "select" => {
            let selector = need(&mut raw.selector, "selector")?;
            let choice = match (raw.value.take(), raw.text.take()) {
                (Some(v), None) => Choice::Value(v),
                (None, Some(t)) => Choice::Text(t),
                _ => return Err("须给出 value 或 text 之一".to_owned()),
            };
            Action::Select {
                selector,
                choice,
                optional: raw.optional.take().unwrap_or(false),
                method: raw.method.take(),
            }
        }
        "click" => Action::Click {
            selector: need(&mut raw.selector, "selector")?,
        },
        "upload" => Action::Upload {
            selector: need(&mut raw.selector, "selector")?,
            files: need(&mut raw.files, "files")?,
            optional: raw.optional.take().unwrap_or(false),
        },
        "switch_frame" => Action::SwitchFrame {
            selector: need(&mut raw.selector, "selector")?,
        },
        "switch_frame_parent" => Action::SwitchFrameParent,
        "switch_frame_default" => Action::SwitchFrameDefault,
        "wait_for" => Action::WaitFor {
            selector: need(&mut raw.selector, "selector")?,
            visible: raw.visible.take().unwrap_or(false),
            fail_if: raw.fail_if.take(),
        },
        "wait_for_text" => Action::WaitForText {
            selector: need(&mut raw.selector, "selector")?,
            contains: need(&mut raw.contains, "contains")?,
        },
        "repeat_for_each_row" => Action::RepeatForEachRow {
            steps: nested_steps(raw, "repeat_for_each_row")?,
        },
        "ask_person" => {
            let attempts = raw.attempts.take().unwrap_or(DEFAULT_ATTEMPTS);
            let wait_s = raw.wait_s.take().unwrap_or(DEFAULT_WAIT_S);
            if attempts == 0 || wait_s == 0 {
                return Err("attempts 与 wait_s 须大于 0".to_owned());
            }
            let again_if = raw.again_if.take();
            let again_if_contains = raw.again_if_contains.take();
            if again_if_contains.is_some() && again_if.is_none() {
                return Err("again_if_contains 须与 again_if 一起使用".to_owned());
            }
            Action::AskPerson {
                prompt: need(&mut raw.prompt, "prompt")?,
                image: raw.image.take(),
                attempts,
                wait_s,
                again_if,
                again_if_contains,
                steps: nested_steps(raw, "ask_person")?,
            }
        }
        "read_text" => {
            let into = need(&mut raw.into, "into")?;
            if into.trim().is_empty() {
                return Err("into 不能为空".to_owned());
            }
            let pattern = raw.pattern.take().map(|p| Pattern::new(&p)).transpose()?;
            Action::ReadText {
                selector: need(&mut raw.selector, "selector")?,
                into,
                pattern,
            }
        }
        "assert_text" => Action::AssertText {
            selector: need(&mut raw.selector, "selector")?,
            contains: need(&mut raw.contains, "contains")?,
            message: raw.message.take(),
        },
        "fail_if_present" => Action::FailIfPresent {
            selector: need(&mut raw.selector, "selector")?,
            read_text_into_error: raw.read_text_into_error.take().unwrap_or(false),
            message: raw.message.take(),
            settle_ms: raw.settle_ms.take(),
        },
        "sleep_ms" => Action::SleepMs {
            ms: need(&mut raw.ms, "ms")?,
        },
        "accept_dialog" | "dismiss_dialog" => Action::Dialog {
            accept: raw.action == "accept_dialog",
            contains: raw.contains.take(),
        },
        other => {
            return Err(format!(
                "未知动作「{other}」（可用：open、fill、select、click、upload、switch_frame、\
                 switch_frame_parent、switch_frame_default、wait_for、wait_for_text、\
                 repeat_for_each_row、read_text、assert_text、fail_if_present、sleep_ms、\
                 accept_dialog、dismiss_dialog、ask_person）"
            ));
        }
    })
}

/// The `steps` of a block action; blocks do not nest (a row loop or a question inside another
/// would make a step's position and its variables ambiguous).
fn nested_steps(raw: &mut RawStep, action: &str) -> Result<Vec<FlowStep>, String> {
    let steps = raw.steps.take().ok_or("缺少 steps")?;
    if steps.iter().any(|s| s.action.is_block()) {
        return Err(format!(
            "{action} 里不能再有 repeat_for_each_row 或 ask_person"
        ));
    }
    if steps.iter().any(|s| s.final_submit) {
        return Err("final_submit 只能用于顶层步骤".to_owned());
    }
    Ok(steps)
}

impl RawStep {
    /// Keys still set after the action took its own: they do not belong to this action.
    fn leftover_keys(&self) -> Vec<&'static str> {
        [
            ("url", self.url.is_some()),
            ("selector", self.selector.is_some()),
            ("value", self.value.is_some()),
            ("text", self.text.is_some()),
            ("clear", self.clear.is_some()),
            ("method", self.method.is_some()),
            ("files", self.files.is_some()),
            ("optional", self.optional.is_some()),
            ("visible", self.visible.is_some()),
            ("fail_if", self.fail_if.is_some()),
            ("contains", self.contains.is_some()),
            ("into", self.into.is_some()),
            ("pattern", self.pattern.is_some()),
            ("message", self.message.is_some()),
            ("read_text_into_error", self.read_text_into_error.is_some()),
            ("settle_ms", self.settle_ms.is_some()),
            ("ms", self.ms.is_some()),
            ("steps", self.steps.is_some()),
            ("prompt", self.prompt.is_some()),
            ("image", self.image.is_some()),
            ("attempts", self.attempts.is_some()),
            ("wait_s", self.wait_s.is_some()),
            ("again_if", self.again_if.is_some()),
            ("again_if_contains", self.again_if_contains.is_some()),
        ]
        .into_iter()
        .filter_map(|(key, set)| set.then_some(key))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r##"
[portal]
name = "样例"
base_url = "http://127.0.0.1:8090"

[[flows.general]]
action = "open"
url = "/login"

[[flows.general]]
action = "fill"
name = "填写密码"
selector = "#password"
value = "{{config.password}}"

[[flows.general]]
action = "repeat_for_each_row"
name = "逐行"

[[flows.general.steps]]
action = "click"
selector = "#add-row"

[[flows.general.steps]]
action = "select"
selector = "#type-{{row.index}}"
text = "{{row.kind}}"

[[flows.general]]
action = "fail_if_present"
selector = "#form-error li"
read_text_into_error = true
"##;

    #[test]
    fn parses_nested_steps() {
        let flow = FlowFile::from_toml_str(SAMPLE).unwrap();
        assert_eq!(flow.portal.name, "样例");
        let steps = flow.steps(ClaimKind::General).unwrap();
        assert_eq!(steps.len(), 4);
        assert_eq!(steps[1].label(), "填写密码");
        assert_eq!(steps[0].label(), "打开 /login");
        let Action::RepeatForEachRow { steps: nested } = &steps[2].action else {
            panic!("{:?}", steps[2]);
        };
        assert_eq!(nested.len(), 2);
        assert!(matches!(
            nested[1].action,
            Action::Select {
                choice: Choice::Text(_),
                ..
            }
        ));
        assert!(flow.steps(ClaimKind::Travel).is_none());
    }

    #[test]
    fn descriptions_mask_the_password() {
        use crate::template::Value;
        struct Vars;
        impl Lookup for Vars {
            fn lookup(&self, path: &str) -> Option<Value> {
                (path == "config.password").then(|| Value::secret("hunter2"))
            }
        }
        let flow = FlowFile::from_toml_str(SAMPLE).unwrap();
        let step = &flow.steps(ClaimKind::General).unwrap()[1];
        assert_eq!(step.describe(&Vars), "填写密码：fill #password = ***");
    }

    #[test]
    fn joins_urls() {
        assert_eq!(
            join_url("http://h:1/", "/login").unwrap(),
            "http://h:1/login"
        );
        assert_eq!(join_url("http://h:1", "login").unwrap(), "http://h:1/login");
        assert_eq!(join_url("", "https://x/y").unwrap(), "https://x/y");
        assert_eq!(join_url(" ", "/login"), None);
    }

    #[test]
    fn rejects_typos_and_missing_keys() {
        let bad = |step: &str| {
            let text = format!("[portal]\nname = \"x\"\n[[flows.general]]\n{step}\n");
            FlowFile::from_toml_str(&text).unwrap_err().to_string()
        };
        assert!(bad("action = \"click\"\nselecter = \"#a\"").contains("selecter"));
        assert!(bad("action = \"click\"").contains("缺少 selector"));
        assert!(bad("action = \"click\"\nselector = \"#a\"\nvalue = \"x\"").contains("value"));
        assert!(bad("action = \"jump\"").contains("未知动作「jump」"));
        assert!(
            bad("action = \"fill\"\nselector = \"#a\"\nvalue = \"{{bogus.x}}\"").contains("bogus")
        );
        assert!(
            bad("action = \"select\"\nselector = \"#a\"\nvalue = \"1\"\ntext = \"2\"")
                .contains("value 或 text")
        );
    }

    #[test]
    fn a_read_pattern_keeps_its_group_or_its_match() {
        let with_group = Pattern::new("单据号：(\\w+)").unwrap();
        assert_eq!(
            with_group.extract("提交成功，单据号：CW2026000101"),
            Some("CW2026000101")
        );
        assert_eq!(with_group.extract("提交失败"), None);
        let whole = Pattern::new("BX\\d{8}-\\d{4}").unwrap();
        assert_eq!(
            whole.extract("报销单号 BX20261129-0001 已生成"),
            Some("BX20261129-0001")
        );
        assert!(Pattern::new("(a)(b)").is_err());
        assert!(Pattern::new("(").is_err());
    }
}
