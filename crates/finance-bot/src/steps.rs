//! Running a flow's steps in the browser: finding elements with waiting and retries, each step
//! under its own timeout, and turning WebDriver errors into Chinese reasons.

use crate::error::{ErrorKind, StepPosition, SubmitError, scrub};
use crate::flow::{Action, Choice, FillMethod, FlowStep, join_url};
use crate::person::{Person, PersonClock};
use crate::scope::Scope;
use crate::screenshot::StepShots;
use crate::selector::Selector;
use crate::template::{FlowTemplate, Lookup};
use crate::validate::file_list;
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};
use thirtyfour::error::{WebDriverError, WebDriverErrorInner};
use thirtyfour::{By, WebDriver, WebElement};

/// Sets a field's value the way a framework notices (native setter, then `input` and `change`),
/// with focus and blur around it for portals that validate on blur. Answers `missing` or
/// `readonly` so the caller can wait and retry like for a typed fill.
const SCRIPT_FILL: &str = r#"
const [kind, sel, value, append, force] = arguments;
let el = null;
if (kind === 'id') { el = document.getElementById(sel); }
else if (kind === 'xpath') {
  el = document.evaluate(sel, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue;
} else { el = document.querySelector(sel); }
if (!el) { return 'missing'; }
if (el.disabled || (el.readOnly && !force)) { return 'readonly'; }
const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype
  : el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
const desc = Object.getOwnPropertyDescriptor(proto, 'value');
if (typeof el.focus === 'function') { el.focus(); }
desc.set.call(el, append ? el.value + value : value);
el.dispatchEvent(new Event('input', { bubbles: true }));
el.dispatchEvent(new Event('change', { bubbles: true }));
if (typeof el.blur === 'function') { el.blur(); }
return 'ok';
"#;

/// Marks the current document before a click, so what follows can tell the page the click loads
/// from the one it was clicked on, and (once per document) starts noting the form submissions
/// and cross-document navigations that begin in it: see [`CLICK_NAVIGATION`].
const STAMP_DOCUMENT: &str = r#"
window.__financeBotClick = arguments[0];
window.__financeBotSubmit = null;
window.__financeBotNavigate = null;
if (!window.__financeBotWatching) {
  window.__financeBotWatching = true;
  addEventListener('submit', e => { window.__financeBotSubmit = e; }, true);
  if (window.navigation) {
    navigation.addEventListener('navigate', e => {
      if (!e.destination.sameDocument && !e.downloadRequest) { window.__financeBotNavigate = e; }
    });
  }
}
return true;
"#;
/// After a click on the stamped document `arguments[0]`: `stay` when the click started no
/// navigation of this frame, `leaving` when it did but the old document is still current (a
/// form submission not cancelled by the page and aimed at this frame, or any other
/// cross-document navigation), else the new document's `readyState`.
const CLICK_NAVIGATION: &str = r#"
if (window.__financeBotClick !== arguments[0]) { return document.readyState; }
const sub = window.__financeBotSubmit, nav = window.__financeBotNavigate;
let submitted = false;
if (sub && !sub.defaultPrevented) {
  const form = sub.target, by = sub.submitter;
  const attr = (own, name) =>
    ((by && by.hasAttribute(own) ? by.getAttribute(own) : form.getAttribute(name)) || '').toLowerCase();
  const target = attr('formtarget', 'target');
  submitted = attr('formmethod', 'method') !== 'dialog' && (target === '' || target === '_self');
}
return submitted || (nav && !nav.defaultPrevented) ? 'leaving' : 'stay';
"#;
/// `old` while the stamped document is still current, else the new one's `readyState`.
const DOCUMENT_STATE: &str =
    "return window.__financeBotClick === arguments[0] ? 'old' : document.readyState;";
/// How long a check after a click waits, by default, for the click's page to replace the old.
const DEFAULT_SETTLE: Duration = Duration::from_secs(3);

/// The options of the `<select>` in `arguments[0]` as `[value, visible text]` pairs.
const LIST_OPTIONS: &str =
    "return Array.from(arguments[0].options).map(o => [o.value, o.text.trim()]);";
/// Selects option `arguments[1]` of the `<select>` `arguments[0]` and fires `input` and `change`.
const SCRIPT_SELECT: &str = "const s = arguments[0]; s.selectedIndex = arguments[1];
s.dispatchEvent(new Event('input', { bubbles: true }));
s.dispatchEvent(new Event('change', { bubbles: true }));
return true;";

/// Pause between two looks for an element that is not there yet.
pub(crate) const POLL: Duration = Duration::from_millis(100);
/// Extra time a step gets beyond its own timeout before it is cut off from outside: the
/// browser's page-load timeout (set to the step timeout) normally ends a hanging command first.
const GRACE: Duration = Duration::from_secs(3);

/// Why a step failed, before its position and name are added.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) kind: ErrorKind,
    pub(crate) reason: String,
}

impl Failure {
    pub(crate) fn new(kind: ErrorKind, reason: impl Into<String>) -> Self {
        Self {
            kind,
            reason: reason.into(),
        }
    }
}

/// What an element must be before a step uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    Present,
    Visible,
}

/// Runs steps against one browser session and collects the values they read.
#[derive(Debug)]
pub struct Runner<'a> {
    pub(crate) driver: &'a WebDriver,
    pub(crate) default_timeout: Duration,
    fill_method: FillMethod,
    page_load_timeout: Option<Duration>,
    pub(crate) secrets: Vec<String>,
    /// Who answers `ask_person` steps, and the time spent waiting for them.
    pub(crate) person: Option<Arc<dyn Person>>,
    /// Told each value read, as it is read.
    pub(crate) on_read: Option<crate::bot::OnRead>,
    /// Told right before the final submit step runs.
    pub(crate) before_final_submit: Option<crate::bot::OnRead>,
    pub(crate) clock: PersonClock,
    /// A screenshot after every step (`reimburse flow try`).
    pub(crate) shots: Option<StepShots>,
    /// `read_text … into` results.
    pub values: BTreeMap<String, String>,
    /// The step running now, to name it if the whole submission times out.
    pub current: Option<(StepPosition, String)>,
    /// Stamp of the document the last step clicked on, for a `fail_if_present` right after.
    clicked: Option<String>,
    clicks: u64,
}

impl<'a> Runner<'a> {
    pub fn new(
        driver: &'a WebDriver,
        default_timeout: Duration,
        fill_method: FillMethod,
        secrets: Vec<String>,
    ) -> Self {
        Self {
            driver,
            default_timeout,
            fill_method,
            page_load_timeout: None,
            secrets,
            person: None,
            on_read: None,
            before_final_submit: None,
            clock: PersonClock::default(),
            shots: None,
            values: BTreeMap::new(),
            current: None,
            clicked: None,
            clicks: 0,
        }
    }

    /// Runs `steps` in order; stops at the first failure, and before the step at index
    /// `stop_before` (0-based) when given.
    pub async fn run(
        &mut self,
        steps: &[FlowStep],
        scope: Scope<'_>,
        stop_before: Option<usize>,
    ) -> Result<(), SubmitError> {
        let rows = scope.rows();
        let final_submit = crate::bot::final_submit_index(steps);
        for (i, step) in steps.iter().enumerate() {
            if stop_before == Some(i) {
                break;
            }
            if final_submit == Some(i)
                && let Some(before) = &self.before_final_submit
            {
                // From here on the portal may file the claim: the caller notes it first.
                (before.0)(crate::bot::FINAL_SUBMIT_KEY, &step.label());
            }
            let position = StepPosition::top(i + 1);
            match &step.action {
                Action::RepeatForEachRow { steps: nested } => {
                    for (r, row) in rows.iter().enumerate() {
                        let row_scope = scope.with_row(r, row);
                        for (n, nested_step) in nested.iter().enumerate() {
                            self.run_step(nested_step, position.nested(n + 1, r), &row_scope)
                                .await?;
                        }
                    }
                }
                Action::AskPerson { .. } => self.ask_person(step, position, &scope).await?,
                _ => self.run_step(step, position, &scope).await?,
            }
        }
        self.current = None;
        Ok(())
    }

    pub(crate) async fn run_step(
        &mut self,
        step: &FlowStep,
        position: StepPosition,
        scope: &Scope<'_>,
    ) -> Result<(), SubmitError> {
        let label = step.label();
        let result = self.attempt(step, position, scope).await;
        if let Some(shots) = &mut self.shots {
            shots.take(self.driver, &position, &label).await;
        }
        result.map_err(|failure| self.step_error(position, &label, &failure))
    }

    /// The user-facing error of the step at `position`, secrets scrubbed.
    pub(crate) fn step_error(
        &self,
        position: StepPosition,
        label: &str,
        failure: &Failure,
    ) -> SubmitError {
        SubmitError::at_step(failure.kind, &position, label, &failure.reason)
            .scrubbed(&self.secrets)
    }

    /// Runs one step under its timeout; a dialog nobody expected ends it at once with the
    /// dialog's words as a refusal.
    pub(crate) async fn attempt(
        &mut self,
        step: &FlowStep,
        position: StepPosition,
        scope: &Scope<'_>,
    ) -> Result<(), Failure> {
        let label = step.label();
        self.current = Some((position, label.clone()));
        let timeout = step
            .timeout_ms
            .map_or(self.default_timeout, Duration::from_millis);
        tracing::info!("{position}「{}」", scrub(&label, &self.secrets));
        tracing::debug!("{}", scrub(&step.describe(scope), &self.secrets));
        self.set_page_load_timeout(timeout).await?;
        let limit = match step.action {
            Action::SleepMs { ms } => timeout + Duration::from_millis(ms),
            _ => timeout,
        };
        let deadline = Instant::now() + limit;
        let clicked = self.clicked.take();
        let result = tokio::time::timeout(
            limit + GRACE,
            self.execute(&step.action, scope, clicked, timeout, deadline),
        )
        .await;
        match result {
            Ok(Ok(())) => Ok(()),
            Ok(Err(failure)) => match self.unexpected_dialog().await {
                Some(text) => Err(Failure::new(ErrorKind::Rejected, text)),
                None => Err(failure),
            },
            Err(_) => Err(Failure::new(
                ErrorKind::Timeout,
                format!("超过{}仍无响应", seconds(limit)),
            )),
        }
    }

    /// The browser's page-load timeout follows the step's, so a page that never answers ends
    /// the WebDriver command itself instead of leaving it hanging.
    async fn set_page_load_timeout(&mut self, timeout: Duration) -> Result<(), Failure> {
        if self.page_load_timeout == Some(timeout) {
            return Ok(());
        }
        tokio::time::timeout(timeout + GRACE, self.driver.set_page_load_timeout(timeout))
            .await
            .map_err(|_| Failure::new(ErrorKind::Timeout, "浏览器无响应"))?
            .map_err(|e| browser_failure(&e, None, timeout))?;
        self.page_load_timeout = Some(timeout);
        Ok(())
    }

    async fn execute(
        &mut self,
        action: &Action,
        scope: &Scope<'_>,
        clicked: Option<String>,
        timeout: Duration,
        deadline: Instant,
    ) -> Result<(), Failure> {
        let render = |t: &FlowTemplate| -> Result<String, Failure> {
            t.render(scope)
                .map(|r| r.text)
                .map_err(|e| Failure::new(ErrorKind::InvalidFlow, e.to_string()))
        };
        let selector = |t: &FlowTemplate| -> Result<Selector, Failure> {
            Selector::parse(&render(t)?).ok_or_else(|| {
                Failure::new(
                    ErrorKind::InvalidFlow,
                    format!("选择器「{}」为空", t.source()),
                )
            })
        };
        let driver = self.driver;
        match action {
            Action::Open { url } => {
                let base = scope
                    .lookup("portal.base_url")
                    .map(|v| v.text)
                    .unwrap_or_default();
                let rendered = render(url)?;
                let url = join_url(&base, &rendered).ok_or_else(|| {
                    Failure::new(
                        ErrorKind::InvalidFlow,
                        format!("「{rendered}」是相对地址，但没有 base_url"),
                    )
                })?;
                driver
                    .goto(url.as_str())
                    .await
                    .map_err(|e| browser_failure(&e, None, timeout))
            }
            Action::Fill {
                selector: sel,
                value,
                clear,
                optional,
                method,
            } => {
                let sel = selector(sel)?;
                let text = render(value)?;
                if *optional && text.is_empty() {
                    return Ok(());
                }
                let method = method.unwrap_or(self.fill_method);
                if method != FillMethod::Type {
                    let force = method == FillMethod::Force;
                    return self
                        .script_fill(&sel, &text, !clear, force, deadline, timeout)
                        .await;
                }
                let clear = *clear;
                self.with_element(&sel, Want::Present, deadline, timeout, |el| {
                    let text = text.clone();
                    async move {
                        if clear {
                            el.clear().await?;
                        }
                        if !text.is_empty() {
                            el.send_keys(text).await?;
                        }
                        Ok(())
                    }
                })
                .await
            }
            Action::Select {
                selector: sel,
                choice,
                optional,
                method,
            } => {
                let sel = selector(sel)?;
                let (by_value, wanted) = match choice {
                    Choice::Value(t) => (true, render(t)?),
                    Choice::Text(t) => (false, render(t)?),
                };
                if *optional && wanted.is_empty() {
                    return Ok(());
                }
                let by_script = method.unwrap_or(self.fill_method) == FillMethod::Script;
                self.select_option(&sel, by_value, &wanted, by_script, deadline, timeout)
                    .await
            }
            Action::Click { selector: sel } => {
                let sel = selector(sel)?;
                self.clicks += 1;
                let stamp = format!("click-{}", self.clicks);
                let stamped = driver
                    .execute(
                        STAMP_DOCUMENT,
                        vec![serde_json::Value::from(stamp.as_str())],
                    )
                    .await
                    .is_ok();
                self.with_element(&sel, Want::Visible, deadline, timeout, |el| async move {
                    el.click().await
                })
                .await?;
                if stamped {
                    self.wait_for_click_navigation(&stamp, deadline, timeout)
                        .await?;
                    self.clicked = Some(stamp);
                }
                Ok(())
            }
            Action::Upload {
                selector: sel,
                files,
                ..
            } => {
                let sel = selector(sel)?;
                let rendered = render(files)?;
                let paths = file_list(&rendered).join("\n");
                if paths.is_empty() {
                    // Validation let this through only for `optional = true`.
                    return Ok(());
                }
                self.with_element(&sel, Want::Present, deadline, timeout, |el| {
                    let paths = paths.clone();
                    async move { el.send_keys(paths).await }
                })
                .await
            }
            Action::SwitchFrame { selector: sel } => {
                let sel = selector(sel)?;
                self.with_element(&sel, Want::Present, deadline, timeout, |el| async move {
                    el.enter_frame().await
                })
                .await
            }
            Action::SwitchFrameParent => driver
                .enter_parent_frame()
                .await
                .map_err(|e| browser_failure(&e, None, timeout)),
            Action::SwitchFrameDefault => driver
                .enter_default_frame()
                .await
                .map_err(|e| browser_failure(&e, None, timeout)),
            Action::WaitFor {
                selector: sel,
                visible,
                fail_if,
            } => {
                let sel = selector(sel)?;
                let fail_if = fail_if.as_ref().map(selector).transpose()?;
                let want = if *visible {
                    Want::Visible
                } else {
                    Want::Present
                };
                loop {
                    if let Some(bad) = &fail_if {
                        let texts = self.displayed_texts(bad, timeout).await?;
                        if let Some(texts) = texts {
                            return Err(rejection(bad, texts, None));
                        }
                    }
                    if self.lookup(&sel, want, timeout).await?.is_some() {
                        return Ok(());
                    }
                    if Instant::now() >= deadline {
                        return Err(Failure::new(
                            ErrorKind::Timeout,
                            format!("等待{}后页面上仍没有 {sel}", seconds(timeout)),
                        ));
                    }
                    tokio::time::sleep(POLL).await;
                }
            }
            Action::WaitForText {
                selector: sel,
                contains,
            } => {
                let sel = selector(sel)?;
                let wanted = render(contains)?;
                let seen = self.poll_text(&sel, &wanted, deadline, timeout).await?;
                match seen {
                    Ok(()) => Ok(()),
                    Err(seen) => Err(Failure::new(
                        ErrorKind::Timeout,
                        format!(
                            "等待{}后 {sel} 中仍没有「{wanted}」（当前内容：{}）",
                            seconds(timeout),
                            shorten(&seen)
                        ),
                    )),
                }
            }
            Action::ReadText {
                selector: sel,
                into,
                pattern,
            } => {
                let sel = selector(sel)?;
                let text = self
                    .with_element(&sel, Want::Present, deadline, timeout, |el| async move {
                        el.text().await
                    })
                    .await?;
                let text = text.trim();
                // The whole text stays in the log, whatever the pattern keeps.
                tracing::info!("读取 {into}：{text}");
                let value = match pattern {
                    None => text,
                    Some(pattern) => pattern.extract(text).ok_or_else(|| {
                        Failure::new(
                            ErrorKind::Step,
                            format!("读到的文字「{text}」不符合 pattern「{}」", pattern.source()),
                        )
                    })?,
                };
                let value = value.trim().to_owned();
                if let Some(on_read) = &self.on_read {
                    (on_read.0)(into, &value);
                }
                self.values.insert(into.clone(), value);
                Ok(())
            }
            Action::AssertText {
                selector: sel,
                contains,
                message,
            } => {
                let sel = selector(sel)?;
                let wanted = render(contains)?;
                match self.poll_text(&sel, &wanted, deadline, timeout).await? {
                    Ok(()) => Ok(()),
                    Err(seen) => Err(Failure::new(
                        ErrorKind::Step,
                        match message {
                            Some(m) => render(m)?,
                            None => {
                                format!("{sel} 中没有「{wanted}」（实际内容：{}）", shorten(&seen))
                            }
                        },
                    )),
                }
            }
            Action::FailIfPresent {
                selector: sel,
                read_text_into_error,
                message,
                settle_ms,
            } => {
                let sel = selector(sel)?;
                let settle = settle_ms.map_or(DEFAULT_SETTLE, Duration::from_millis);
                let settle_until = deadline.min(Instant::now() + settle);
                self.wait_document_ready(clicked.as_deref(), settle_until, deadline)
                    .await;
                let message = message.as_ref().map(render).transpose()?;
                match self.displayed_texts(&sel, timeout).await? {
                    None => Ok(()),
                    Some(texts) => {
                        let texts = if *read_text_into_error {
                            texts
                        } else {
                            Vec::new()
                        };
                        Err(rejection(&sel, texts, message))
                    }
                }
            }
            Action::SleepMs { ms } => {
                tokio::time::sleep(Duration::from_millis(*ms)).await;
                Ok(())
            }
            Action::Dialog { accept, contains } => {
                let wanted = contains.as_ref().map(render).transpose()?;
                self.handle_dialog(*accept, wanted.as_deref(), deadline, timeout)
                    .await
            }
            // Expanded by `run`; never reaches here.
            Action::RepeatForEachRow { .. } | Action::AskPerson { .. } => Ok(()),
        }
    }

    /// Picks the option whose value (or visible text) is exactly `wanted`, by clicking it or,
    /// with `by_script`, by [`SCRIPT_SELECT`]. Waits for it to appear (options may be loaded
    /// late); when it never does, the error lists what there is.
    async fn select_option(
        &self,
        sel: &Selector,
        by_value: bool,
        wanted: &str,
        by_script: bool,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), Failure> {
        let driver = self.driver;
        loop {
            let picked = self
                .with_element(sel, Want::Present, deadline, timeout, |el| async move {
                    let listed = driver.execute(LIST_OPTIONS, vec![el.to_json()?]).await?;
                    let options: Vec<(String, String)> = listed.convert()?;
                    let found = options.iter().position(|(value, text)| {
                        if by_value {
                            value == wanted
                        } else {
                            text == wanted.trim()
                        }
                    });
                    let Some(index) = found else {
                        let shown = options
                            .into_iter()
                            .map(|(v, t)| if by_value { v } else { t });
                        return Ok(Err(shown.filter(|o| !o.is_empty()).collect::<Vec<_>>()));
                    };
                    if by_script {
                        driver
                            .execute(SCRIPT_SELECT, vec![el.to_json()?, index.into()])
                            .await?;
                    } else if let Some(option) =
                        el.find_all(By::Css("option")).await?.into_iter().nth(index)
                    {
                        option.click().await?;
                    }
                    Ok(Ok(()))
                })
                .await?;
            match picked {
                Ok(()) => return Ok(()),
                Err(available) if Instant::now() >= deadline => {
                    return Err(Failure::new(
                        ErrorKind::Step,
                        format!(
                            "下拉框 {sel} 中没有选项「{wanted}」（可选：{}）",
                            shorten(&available.join("、"))
                        ),
                    ));
                }
                Err(_) => tokio::time::sleep(POLL).await,
            }
        }
    }

    /// Waits for the page's dialog and accepts or dismisses it; a dialog that does not say
    /// `wanted` is dismissed and fails the step with its own words.
    async fn handle_dialog(
        &self,
        accept: bool,
        wanted: Option<&str>,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), Failure> {
        loop {
            match self.driver.get_alert_text().await {
                Ok(text) => {
                    if wanted.is_some_and(|w| !text.contains(w)) {
                        let _ = self.driver.dismiss_alert().await;
                        return Err(Failure::new(ErrorKind::Rejected, text));
                    }
                    let answered = if accept {
                        self.driver.accept_alert().await
                    } else {
                        self.driver.dismiss_alert().await
                    };
                    return answered.map_err(|e| browser_failure(&e, None, timeout));
                }
                Err(e) if matches!(e.as_inner(), WebDriverErrorInner::NoSuchAlert(_)) => {}
                Err(e) => return Err(browser_failure(&e, None, timeout)),
            }
            if Instant::now() >= deadline {
                return Err(Failure::new(
                    ErrorKind::Step,
                    format!("等待{}后页面没有弹出对话框", seconds(timeout)),
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// The words of a dialog the page opened that no step expected, dismissed so the page
    /// goes on: the portal's refusal, said the way it said it.
    async fn unexpected_dialog(&self) -> Option<String> {
        let text = self.driver.get_alert_text().await.ok()?;
        let _ = self.driver.dismiss_alert().await;
        Some(text)
    }

    /// Fills a field with [`SCRIPT_FILL`], retrying while it is missing or read-only.
    async fn script_fill(
        &self,
        sel: &Selector,
        text: &str,
        append: bool,
        force: bool,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), Failure> {
        let (kind, body) = match sel {
            Selector::Css(s) => ("css", s),
            Selector::XPath(s) => ("xpath", s),
            Selector::Id(s) => ("id", s),
        };
        let args = vec![
            serde_json::Value::from(kind),
            serde_json::Value::from(body.as_str()),
            serde_json::Value::from(text),
            serde_json::Value::from(append),
            serde_json::Value::from(force),
        ];
        loop {
            let answer = self
                .driver
                .execute(SCRIPT_FILL, args.clone())
                .await
                .map_err(|e| browser_failure(&e, Some(sel), timeout))?;
            let state = answer.json().as_str().unwrap_or_default().to_owned();
            if state == "ok" {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(Failure::new(
                    ErrorKind::Step,
                    if state == "readonly" {
                        format!("元素 {sel} 只读或被禁用，无法填写")
                    } else {
                        format!("等待{}后仍找不到 {sel}", seconds(timeout))
                    },
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Finds the element and runs `act` on it, retrying both while the page is still getting
    /// there (element missing, stale, covered, not yet interactable) until `deadline`.
    pub(crate) async fn with_element<T, F, Fut>(
        &self,
        sel: &Selector,
        want: Want,
        deadline: Instant,
        timeout: Duration,
        act: F,
    ) -> Result<T, Failure>
    where
        F: Fn(WebElement) -> Fut,
        Fut: Future<Output = Result<T, WebDriverError>>,
    {
        let mut last_error: Option<WebDriverError> = None;
        loop {
            if let Some(el) = self.lookup(sel, want, timeout).await? {
                match act(el).await {
                    Ok(value) => return Ok(value),
                    Err(e) if retriable(&e) => last_error = Some(e),
                    Err(e) => return Err(browser_failure(&e, Some(sel), timeout)),
                }
            }
            if Instant::now() >= deadline {
                return Err(match last_error {
                    Some(e) => browser_failure(&e, Some(sel), timeout),
                    None => Failure::new(
                        ErrorKind::Step,
                        format!("等待{}后仍找不到 {sel}", seconds(timeout)),
                    ),
                });
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// The first matching element in the wanted state, if there is one right now.
    async fn lookup(
        &self,
        sel: &Selector,
        want: Want,
        timeout: Duration,
    ) -> Result<Option<WebElement>, Failure> {
        let found = match self.driver.find_all(sel.by()).await {
            Ok(found) => found,
            Err(e) if retriable(&e) => return Ok(None),
            Err(e) => return Err(browser_failure(&e, Some(sel), timeout)),
        };
        for el in found {
            match want {
                Want::Present => return Ok(Some(el)),
                Want::Visible => match el.is_displayed().await {
                    Ok(true) => return Ok(Some(el)),
                    Ok(false) => {}
                    Err(e) if retriable(&e) => {}
                    Err(e) => return Err(browser_failure(&e, Some(sel), timeout)),
                },
            }
        }
        Ok(None)
    }

    /// The texts of the displayed elements matching `sel`, or `None` when none is displayed.
    pub(crate) async fn displayed_texts(
        &self,
        sel: &Selector,
        timeout: Duration,
    ) -> Result<Option<Vec<String>>, Failure> {
        let found = match self.driver.find_all(sel.by()).await {
            Ok(found) => found,
            Err(e) if retriable(&e) => return Ok(None),
            Err(e) => return Err(browser_failure(&e, Some(sel), timeout)),
        };
        let mut texts = Vec::new();
        let mut any = false;
        for el in found {
            if matches!(el.is_displayed().await, Ok(true)) {
                any = true;
                texts.push(el.text().await.unwrap_or_default());
            }
        }
        Ok(any.then_some(texts))
    }

    /// Polls until some element matching `sel` contains `wanted`; on timeout, the text last
    /// seen.
    async fn poll_text(
        &self,
        sel: &Selector,
        wanted: &str,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<Result<(), String>, Failure> {
        let mut seen = String::new();
        loop {
            let found = match self.driver.find_all(sel.by()).await {
                Ok(found) => found,
                Err(e) if retriable(&e) => Vec::new(),
                Err(e) => return Err(browser_failure(&e, Some(sel), timeout)),
            };
            for el in found {
                if let Ok(text) = el.text().await {
                    if text.contains(wanted) {
                        return Ok(Ok(()));
                    }
                    seen = text;
                }
            }
            if Instant::now() >= deadline {
                return Ok(Err(seen));
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits, until `deadline`, for the page a click started loading to have loaded, so a page
    /// that never answers fails the click step itself. ChromeDriver's own wait after a click only
    /// covers a navigation the browser has already reported starting, and a form submission is
    /// merely scheduled by the click: under load the click can answer first (seen in
    /// ChromeDriver's log: the click's response before `Page.frameStartedLoading`), and a submit
    /// the server never answers then surfaced one or two steps later. Hence the page's own
    /// account ([`CLICK_NAVIGATION`]): once it says the click is leaving the page, the wait goes
    /// on until the new document is complete; a later command that ChromeDriver holds back for
    /// the pending navigation ends in the page-load timeout (the step's). A click that loads
    /// nothing costs two quick script calls (the stamp before it and one look after).
    async fn wait_for_click_navigation(
        &self,
        stamp: &str,
        deadline: Instant,
        timeout: Duration,
    ) -> Result<(), Failure> {
        let stamp = serde_json::Value::from(stamp);
        loop {
            let state = match self
                .driver
                .execute(CLICK_NAVIGATION, vec![stamp.clone()])
                .await
            {
                Ok(state) => state.json().as_str().unwrap_or_default().to_owned(),
                Err(e) if timed_out(&e) => return Err(browser_failure(&e, None, timeout)),
                // Anything else (an alert, the frame replaced with its parent's page) is for the
                // next step to meet, as before this wait existed.
                Err(_) => return Ok(()),
            };
            if !matches!(state.as_str(), "leaving" | "loading" | "interactive") {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(no_response(timeout));
            }
            tokio::time::sleep(POLL / 2).await;
        }
    }

    /// Waits for the current document to finish loading, so a check right after a click sees
    /// the page the click led to. With the `clicked` stamp it first waits (until
    /// `settle_until`) for that page to replace the stamped one; a click that loads nothing
    /// costs that wait once. Gives up quietly at `deadline`: the check then looks at what is there.
    async fn wait_document_ready(
        &self,
        clicked: Option<&str>,
        settle_until: Instant,
        deadline: Instant,
    ) {
        let stamp = serde_json::Value::from(clicked.unwrap_or("none"));
        loop {
            let state = self
                .driver
                .execute(DOCUMENT_STATE, vec![stamp.clone()])
                .await;
            let state = state
                .ok()
                .and_then(|s| s.json().as_str().map(str::to_owned))
                .unwrap_or_default();
            let now = Instant::now();
            let replaced = clicked.is_none() || state != "old" || now >= settle_until;
            if (replaced && state != "loading" && !state.is_empty()) || now >= deadline {
                return;
            }
            tokio::time::sleep(POLL / 2).await;
        }
    }
}

/// The portal's own words: the texts of the error element, lines joined, a heading ending in
/// a colon kept in front of what follows.
fn rejection(sel: &Selector, texts: Vec<String>, message: Option<String>) -> Failure {
    let mut joined = String::new();
    for line in texts.iter().flat_map(|t| t.lines()).map(str::trim) {
        if line.is_empty() {
            continue;
        }
        if !joined.is_empty() && !joined.ends_with('：') && !joined.ends_with(':') {
            joined.push('；');
        }
        joined.push_str(line);
    }
    let reason = match (message, joined.is_empty()) {
        (Some(m), true) => m,
        (Some(m), false) => format!("{m}：{joined}"),
        (None, false) => joined,
        (None, true) => format!("页面出现了 {sel}"),
    };
    Failure::new(ErrorKind::Rejected, reason)
}

/// Errors that mean "the page is not there yet": worth another try until the deadline.
fn retriable(error: &WebDriverError) -> bool {
    matches!(
        error.as_inner(),
        WebDriverErrorInner::NoSuchElement(_)
            | WebDriverErrorInner::StaleElementReference(_)
            | WebDriverErrorInner::ElementNotInteractable(_)
            | WebDriverErrorInner::ElementClickIntercepted(_)
            | WebDriverErrorInner::InvalidElementState(_)
    )
}

/// The browser gave up waiting (for a page load, a script, the renderer).
fn timed_out(error: &WebDriverError) -> bool {
    matches!(
        error.as_inner(),
        WebDriverErrorInner::WebDriverTimeout(_) | WebDriverErrorInner::Timeout(_)
    )
}

/// The page did not answer within the step's timeout.
fn no_response(timeout: Duration) -> Failure {
    Failure::new(
        ErrorKind::Timeout,
        format!("页面在{}内没有响应", seconds(timeout)),
    )
}

/// A WebDriver error as a Chinese reason.
fn browser_failure(error: &WebDriverError, sel: Option<&Selector>, timeout: Duration) -> Failure {
    let target = sel.map(|s| format!(" {s}")).unwrap_or_default();
    let detail = crate::driver::short_error(error);
    match error.as_inner() {
        _ if timed_out(error) => no_response(timeout),
        WebDriverErrorInner::NoSuchElement(_) => {
            Failure::new(ErrorKind::Step, format!("页面上找不到{target}"))
        }
        WebDriverErrorInner::ElementNotInteractable(_)
        | WebDriverErrorInner::InvalidElementState(_) => Failure::new(
            ErrorKind::Step,
            format!("元素{target}无法操作（可能不可见、只读或被禁用）"),
        ),
        WebDriverErrorInner::ElementClickIntercepted(_) => Failure::new(
            ErrorKind::Step,
            format!("元素{target}被其他元素遮挡，无法点击"),
        ),
        WebDriverErrorInner::StaleElementReference(_) => {
            Failure::new(ErrorKind::Step, format!("元素{target}在操作时被页面替换"))
        }
        WebDriverErrorInner::InvalidSelector(_) => {
            Failure::new(ErrorKind::InvalidFlow, format!("选择器无效：{target}"))
        }
        WebDriverErrorInner::NoSuchFrame(_) => {
            Failure::new(ErrorKind::Step, format!("找不到框架{target}"))
        }
        WebDriverErrorInner::UnexpectedAlertOpen(_) => {
            Failure::new(ErrorKind::Rejected, format!("页面弹出了对话框：{detail}"))
        }
        WebDriverErrorInner::RequestFailed(_)
        | WebDriverErrorInner::InvalidSessionId(_)
        | WebDriverErrorInner::NoSuchWindow(_)
        | WebDriverErrorInner::FatalError(_)
        | WebDriverErrorInner::HttpError(_) => {
            Failure::new(ErrorKind::Browser, format!("与浏览器的连接中断：{detail}"))
        }
        _ => Failure::new(ErrorKind::Step, format!("浏览器操作失败：{detail}")),
    }
}

/// `10秒`, `1.5秒`.
fn seconds(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}秒", ms / 1000)
    } else {
        format!("{:.1}秒", d.as_secs_f64())
    }
}

fn shorten(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 80 {
        format!("{}…", one_line.chars().take(80).collect::<String>())
    } else if one_line.is_empty() {
        "空".to_owned()
    } else {
        one_line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejection_joins_the_portal_messages() {
        let sel = Selector::Css("#form-error".into());
        let f = rejection(
            &sel,
            vec![
                "提交失败，请修改以下问题：\n第1行：发票号码格式不正确\n第2行：金额不能为空".into(),
            ],
            None,
        );
        assert_eq!(f.kind, ErrorKind::Rejected);
        assert_eq!(
            f.reason,
            "提交失败，请修改以下问题：第1行：发票号码格式不正确；第2行：金额不能为空"
        );
        let f = rejection(
            &sel,
            vec!["用户名或密码错误".into()],
            Some("登录失败".into()),
        );
        assert_eq!(f.reason, "登录失败：用户名或密码错误");
        assert_eq!(
            rejection(&sel, Vec::new(), None).reason,
            "页面出现了 #form-error"
        );
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(seconds(Duration::from_secs(10)), "10秒");
        assert_eq!(seconds(Duration::from_millis(1500)), "1.5秒");
        assert_eq!(shorten("  a \n b "), "a b");
        assert_eq!(shorten(""), "空");
    }
}
