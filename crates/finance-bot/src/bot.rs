//! The entry point: validate the flow against the submission, start the browser, run the steps
//! under the overall timeout, screenshot a failure, and always close the browser.

use crate::driver::{Browser, WebDriverTarget};
use crate::error::{ErrorKind, SubmitError};
use crate::flow::FlowFile;
use crate::flow::FlowStep;
use crate::log_filter::without_wire_traffic;
use crate::person::Person;
use crate::scope::Scope;
use crate::screenshot::StepShots;
use crate::screenshot::save_failure_screenshot;
use crate::steps::Runner;
use crate::submission::Submission;
use crate::validate::{resolve_base_url, validate};
use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tracing::instrument::WithSubscriber;

/// Name under which the flow's `read_text … into = "claim_no"` is returned as the claim number.
pub const CLAIM_NO_KEY: &str = "claim_no";

/// How to run the browser.
#[derive(Debug, Clone)]
pub struct BotOptions {
    /// Which WebDriver to use (by default the local chromedriver and Chromium).
    pub webdriver: WebDriverTarget,
    /// Failure screenshots go here (created when needed).
    pub screenshot_dir: PathBuf,
    /// Timeout of a step that sets none itself.
    pub step_timeout: Duration,
    /// Limit for the whole submission, browser start included.
    pub overall_timeout: Duration,
    /// Limit for starting chromedriver and the browser session.
    pub startup_timeout: Duration,
    /// Run Chromium without a window (the default).
    pub headless: bool,
    /// Overrides the flow file's `[portal] base_url`.
    pub base_url: Option<String>,
    /// Parent of the temporary browser profile; the system temp dir when `None`.
    pub work_dir: Option<PathBuf>,
    /// Who answers `ask_person` steps (a captcha, an SMS code); such a step fails without one.
    /// The time spent waiting for them does not count against `overall_timeout`.
    pub person: Option<Arc<dyn Person>>,
    /// Told each value a `read_text` step reads, the moment it is read (`claim_no` first of
    /// all): a caller that records the claim number then does not lose it if the process dies
    /// while the browser closes.
    pub on_read: Option<OnRead>,
    /// Told (with `final_submit` and the step's label) right before the final submit
    /// step runs ([`final_submit_index`]): from then on the portal may have filed the claim
    /// even if the run never finishes, which a caller recovering from a crash must know.
    pub before_final_submit: Option<OnRead>,
}

/// The key [`BotOptions::before_final_submit`] is called with.
pub const FINAL_SUBMIT_KEY: &str = "final_submit";

/// See [`BotOptions::on_read`]: called with the `into` name and the value.
#[derive(Clone)]
pub struct OnRead(pub Arc<ReadFn>);

/// The function inside an [`OnRead`].
pub type ReadFn = dyn Fn(&str, &str) + Send + Sync;

impl std::fmt::Debug for OnRead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnRead(..)")
    }
}

impl Default for BotOptions {
    fn default() -> Self {
        Self {
            webdriver: WebDriverTarget::default(),
            screenshot_dir: std::env::temp_dir().join("finance-bot-screenshots"),
            step_timeout: Duration::from_secs(10),
            overall_timeout: Duration::from_secs(300),
            startup_timeout: Duration::from_secs(30),
            headless: true,
            base_url: None,
            work_dir: None,
            person: None,
            on_read: None,
            before_final_submit: None,
        }
    }
}

/// A claim the portal accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubmitOutcome {
    /// The value read `into = "claim_no"`, if the flow reads one.
    pub claim_no: Option<String>,
    /// Everything the flow read with `read_text`.
    pub values: BTreeMap<String, String>,
    /// Wall time from start to the browser being closed.
    pub elapsed: Duration,
}

/// What `Bot::try_flow` did: the steps it ran, their pictures, what it read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TryOutcome {
    /// The 1-based index of the top-level step it stopped before (the final submit), if any.
    pub stopped_before: Option<usize>,
    /// Every screenshot saved, in order.
    pub screenshots: Vec<PathBuf>,
    /// The run's failure, if a step failed (the screenshots show how far it got).
    pub error: Option<SubmitError>,
}

/// How far a run goes and what it keeps.
#[derive(Debug, Default)]
struct Mode {
    /// 0-based index of the top-level step not to run.
    stop_before: Option<usize>,
    /// Where a screenshot of every step goes.
    shots: Option<PathBuf>,
}

/// The step `reimburse flow try` stops before: the one marked `final_submit`, else the last
/// top-level click.
pub fn final_submit_index(steps: &[FlowStep]) -> Option<usize> {
    steps.iter().position(|s| s.final_submit).or_else(|| {
        steps
            .iter()
            .rposition(|s| matches!(s.action, crate::flow::Action::Click { .. }))
    })
}

/// Files claims by driving a browser through a flow.
#[derive(Debug, Clone, Copy, Default)]
pub struct Bot;

impl Bot {
    /// Checks the flow against the submission without starting a browser.
    pub fn validate(
        flow: &FlowFile,
        submission: &Submission,
        options: &BotOptions,
    ) -> Result<(), SubmitError> {
        let secrets = [submission.config.password.expose().to_owned()];
        resolve_base_url(flow, submission, options.base_url.as_deref())
            .and_then(|base_url| validate(flow, submission, &base_url))
            .map_err(|e| e.scrubbed(&secrets))
    }

    /// Blocking [`Bot::submit_async`] on a runtime of its own, for callers on a plain thread
    /// (not inside a Tokio runtime). A panic inside is caught and reported as an error after
    /// the browser has been killed.
    pub fn submit(
        flow: &FlowFile,
        submission: &Submission,
        options: &BotOptions,
    ) -> Result<SubmitOutcome, SubmitError> {
        if tokio::runtime::Handle::try_current().is_ok() {
            return Err(SubmitError::general(
                ErrorKind::Internal,
                "Bot::submit 不能在异步运行时内调用，请改用 Bot::submit_async 或在普通线程中调用",
            ));
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| {
                SubmitError::general(ErrorKind::Internal, format!("无法创建异步运行时：{e}"))
            })?;
        let run =
            AssertUnwindSafe(|| runtime.block_on(Self::submit_async(flow, submission, options)));
        std::panic::catch_unwind(run).unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let secrets = [submission.config.password.expose().to_owned()];
            Err(
                SubmitError::general(ErrorKind::Internal, format!("内部错误：{what}"))
                    .scrubbed(&secrets),
            )
        })
    }

    /// Files `submission` following `flow`. The browser is closed and chromedriver stopped
    /// before this returns, whatever happened; if the future is dropped early, they are killed.
    pub async fn submit_async(
        flow: &FlowFile,
        submission: &Submission,
        options: &BotOptions,
    ) -> Result<SubmitOutcome, SubmitError> {
        let mut screenshots = Vec::new();
        let run = Self::run(flow, submission, options, Mode::default(), &mut screenshots);
        match without_wire_traffic() {
            Some(dispatch) => run.with_subscriber(dispatch).await,
            None => run.await,
        }
    }

    /// Runs the flow for `submission` up to, not including, its final submit (see
    /// [`final_submit_index`]), saving a screenshot after every step into `shots`: a flow
    /// written for a new portal, tried without filing a claim.
    pub async fn try_flow(
        flow: &FlowFile,
        submission: &Submission,
        options: &BotOptions,
        shots: PathBuf,
    ) -> TryOutcome {
        let stop_before = flow.steps(submission.kind).and_then(final_submit_index);
        let mode = Mode {
            stop_before,
            shots: Some(shots),
        };
        let mut screenshots = Vec::new();
        let run = Self::run(flow, submission, options, mode, &mut screenshots);
        let result = match without_wire_traffic() {
            Some(dispatch) => run.with_subscriber(dispatch).await,
            None => run.await,
        };
        TryOutcome {
            stopped_before: stop_before.map(|i| i + 1),
            screenshots,
            error: result.err(),
        }
    }

    async fn run(
        flow: &FlowFile,
        submission: &Submission,
        options: &BotOptions,
        mode: Mode,
        screenshots: &mut Vec<PathBuf>,
    ) -> Result<SubmitOutcome, SubmitError> {
        let started = Instant::now();
        Self::validate(flow, submission, options)?;
        let base_url = resolve_base_url(flow, submission, options.base_url.as_deref())?;
        let Some(steps) = flow.steps(submission.kind) else {
            // validate() already refuses this; kept for the type system.
            return Err(SubmitError::general(ErrorKind::InvalidFlow, "流程缺失"));
        };
        let scope = Scope::new(submission, &flow.portal.name, &base_url);
        let secrets = scope.secrets();
        tracing::info!(
            "开始{}：门户「{}」，{}行",
            submission.kind.label(),
            flow.portal.name,
            submission.rows.len()
        );

        let startup_timeout = options.startup_timeout.min(options.overall_timeout);
        let browser = Browser::start(
            &options.webdriver,
            options.headless,
            options.work_dir.as_deref(),
            startup_timeout,
            options.overall_timeout,
        )
        .await
        .map_err(|m| SubmitError::general(ErrorKind::Browser, m).scrubbed(&secrets))?;
        let Some(driver) = browser.driver() else {
            browser.close().await;
            return Err(SubmitError::general(ErrorKind::Browser, "浏览器会话不可用"));
        };

        let mut runner = Runner::new(
            driver,
            options.step_timeout,
            flow.portal.fill_method,
            secrets.clone(),
        );
        runner.person = options.person.clone();
        runner.on_read = options.on_read.clone();
        runner.before_final_submit = options.before_final_submit.clone();
        runner.shots = mode.shots.map(StepShots::new);
        let clock = runner.clock.clone();
        let finished = {
            // `runner` is borrowed by the run until this block ends.
            let run = runner.run(steps, scope, mode.stop_before);
            tokio::pin!(run);
            // The overall limit, not counting the time the person took to answer.
            loop {
                let limit = options.overall_timeout + clock.waited();
                let left = limit.saturating_sub(started.elapsed());
                tokio::select! {
                    done = &mut run => break Some(done),
                    () = tokio::time::sleep(left) => {
                        if started.elapsed() >= options.overall_timeout + clock.waited() {
                            break None;
                        }
                    }
                }
            }
        };
        let result = match finished {
            Some(Ok(())) => Ok(SubmitOutcome {
                claim_no: runner.values.get(CLAIM_NO_KEY).cloned(),
                values: std::mem::take(&mut runner.values),
                elapsed: Duration::ZERO,
            }),
            Some(Err(mut error)) => {
                // Said at once: the screenshot and closing the browser take a moment more.
                tracing::warn!("提交失败：{}", error.clone().scrubbed(&secrets));
                error.screenshot = save_failure_screenshot(driver, &options.screenshot_dir).await;
                Err(error.scrubbed(&secrets))
            }
            None => {
                // The step was cut off mid-command: the session would only answer after that
                // command, so no screenshot and no polite quit, just kill.
                let error = overall_timeout_error(&runner, options.overall_timeout);
                browser.abandon();
                return Err(error.scrubbed(&secrets));
            }
        };
        *screenshots = runner.shots.take().map(|s| s.saved).unwrap_or_default();
        browser.close().await;
        let elapsed = started.elapsed();
        match &result {
            Ok(outcome) => tracing::info!(
                "提交成功，报销单号 {}，用时 {:.1} 秒",
                outcome.claim_no.as_deref().unwrap_or("（未读取）"),
                elapsed.as_secs_f64()
            ),
            Err(e) => tracing::info!("浏览器已关闭（{e}）"),
        }
        result.map(|outcome| SubmitOutcome { elapsed, ..outcome })
    }
}

fn overall_timeout_error(runner: &Runner<'_>, limit: Duration) -> SubmitError {
    let reason = format!("整个提交超过了{}秒的时限", limit.as_secs());
    match &runner.current {
        Some((position, name)) => SubmitError::at_step(ErrorKind::Timeout, position, name, &reason),
        None => SubmitError::general(ErrorKind::Timeout, reason),
    }
}
