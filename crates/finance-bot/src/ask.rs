//! Running an `ask_person` step: capture the challenge, ask the person, run the step's own
//! steps with the answer, and ask again while the portal says the answer was wrong.

use crate::error::{ErrorKind, StepPosition, SubmitError};
use crate::flow::{Action, FlowStep};
use crate::person::Challenge;
use crate::scope::Scope;
use crate::selector::Selector;
use crate::steps::{Failure, POLL, Runner, Want};
use crate::template::FlowTemplate;
use std::time::{Duration, Instant};

/// True once the element is a picture that finished loading (or is not a picture at all).
const IMAGE_READY: &str = "const el = arguments[0];
return !(el instanceof HTMLImageElement) || (el.complete && el.naturalWidth > 0);";

/// Extra time beyond the person's own limit before the bot stops waiting for an answer that
/// the asking side should already have given up on.
const ANSWER_GRACE: Duration = Duration::from_secs(5);

/// What became of one answer.
enum Verdict {
    Accepted,
    /// The portal said the answer was wrong, in these words.
    Wrong(String),
}

impl Runner<'_> {
    /// Runs the `ask_person` step at `position`.
    pub(crate) async fn ask_person(
        &mut self,
        step: &FlowStep,
        position: StepPosition,
        scope: &Scope<'_>,
    ) -> Result<(), SubmitError> {
        let Action::AskPerson {
            prompt,
            image,
            attempts,
            wait_s,
            ..
        } = &step.action
        else {
            return Ok(());
        };
        let label = step.label();
        self.current = Some((position, label.clone()));
        let fail = |runner: &Self, kind: ErrorKind, reason: String| {
            runner.step_error(position, &label, &Failure::new(kind, reason))
        };
        let Some(person) = self.person.clone() else {
            return Err(fail(
                self,
                ErrorKind::NoAnswer,
                "这一步需要有人输入（如验证码），但当前没有人可以回答".to_owned(),
            ));
        };
        let prompt = render(prompt, scope).map_err(|f| self.step_error(position, &label, &f))?;
        let wait = Duration::from_secs(*wait_s);
        let mut refusal = None;
        for attempt in 1..=*attempts {
            let image_png = match image {
                Some(sel) => Some(
                    self.capture(sel, scope)
                        .await
                        .map_err(|f| self.step_error(position, &label, &f))?,
                ),
                None => None,
            };
            tracing::info!("{position}「{label}」：等待输入（第{attempt}次，{wait_s}秒内）");
            let challenge = Challenge {
                prompt: prompt.clone(),
                image_png,
                attempt,
                attempts: *attempts,
                refusal: refusal.take(),
                wait,
            };
            self.clock.start();
            let answer = tokio::time::timeout(wait + ANSWER_GRACE, person.ask(challenge)).await;
            self.clock.stop();
            let answer = answer.ok().flatten();
            let Some(answer) = answer
                .map(|a| a.trim().to_owned())
                .filter(|a| !a.is_empty())
            else {
                return Err(fail(
                    self,
                    ErrorKind::NoAnswer,
                    format!("没有收到输入（限时{wait_s}秒），提交已停止"),
                ));
            };
            match self.answer(step, position, scope, &answer).await? {
                Verdict::Accepted => return Ok(()),
                Verdict::Wrong(words) => {
                    tracing::warn!("{position}「{label}」：门户不接受这次输入：{words}");
                    refusal = Some(words);
                }
            }
        }
        Err(fail(
            self,
            ErrorKind::Rejected,
            format!(
                "连续{attempts}次输入都未通过：{}",
                refusal.unwrap_or_default()
            ),
        ))
    }

    /// Runs the step's own steps with `answer` and tells whether the portal took it.
    async fn answer(
        &mut self,
        step: &FlowStep,
        position: StepPosition,
        scope: &Scope<'_>,
        answer: &str,
    ) -> Result<Verdict, SubmitError> {
        let Action::AskPerson {
            again_if,
            again_if_contains,
            steps,
            ..
        } = &step.action
        else {
            return Ok(Verdict::Accepted);
        };
        let answered = scope.with_answer(answer);
        let wrong_words = again_if_contains
            .as_ref()
            .map(|t| render(t, scope))
            .transpose()
            .map_err(|f| self.step_error(position, &step.label(), &f))?;
        let says_wrong = |text: &str| wrong_words.as_deref().is_none_or(|w| text.contains(w));
        for (n, nested) in steps.iter().enumerate() {
            let at = position.inside(n + 1);
            let result = self.attempt(nested, at, &answered).await;
            if let Some(shots) = &mut self.shots {
                shots.take(self.driver, &at, &nested.label()).await;
            }
            match result {
                Ok(()) => {}
                // A dialog saying the answer was wrong (`alert('验证码错误')`).
                Err(f) if f.kind == ErrorKind::Rejected && says_wrong(&f.reason) => {
                    return Ok(Verdict::Wrong(f.reason));
                }
                Err(f) => return Err(self.step_error(at, &nested.label(), &f)),
            }
        }
        let Some(sel) = again_if else {
            return Ok(Verdict::Accepted);
        };
        let sel = selector(sel, scope).map_err(|f| self.step_error(position, &step.label(), &f))?;
        let shown = self
            .shown_text(&sel)
            .await
            .map_err(|f| self.step_error(position, &step.label(), &f))?;
        match shown {
            None => Ok(Verdict::Accepted),
            Some(text) if says_wrong(&text) => Ok(Verdict::Wrong(text)),
            Some(text) => Err(self.step_error(
                position,
                &step.label(),
                &Failure::new(ErrorKind::Rejected, text),
            )),
        }
    }

    /// The text of the displayed, non-empty elements matching `sel`, joined; `None` when
    /// there is none.
    async fn shown_text(&self, sel: &Selector) -> Result<Option<String>, Failure> {
        let texts = self
            .displayed_texts(sel, self.default_timeout)
            .await?
            .unwrap_or_default();
        let texts: Vec<&str> = texts
            .iter()
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .collect();
        Ok((!texts.is_empty()).then(|| texts.join("；")))
    }

    /// The challenge element's picture, once it is visible and loaded.
    async fn capture(&mut self, sel: &FlowTemplate, scope: &Scope<'_>) -> Result<Vec<u8>, Failure> {
        let sel = selector(sel, scope)?;
        let timeout = self.default_timeout;
        let deadline = Instant::now() + timeout;
        let driver = self.driver;
        loop {
            let png = self
                .with_element(&sel, Want::Visible, deadline, timeout, |el| async move {
                    let ready = driver.execute(IMAGE_READY, vec![el.to_json()?]).await?;
                    if ready.json().as_bool() == Some(true) {
                        el.screenshot_as_png().await.map(Some)
                    } else {
                        Ok(None)
                    }
                })
                .await?;
            if let Some(png) = png {
                if let Some(shots) = &mut self.shots {
                    let path = shots.next_path("验证码");
                    shots.save(&path, &png);
                }
                return Ok(png);
            }
            if Instant::now() >= deadline {
                return Err(Failure::new(
                    ErrorKind::Step,
                    format!("等待{}秒后 {sel} 的图片仍未加载", timeout.as_secs()),
                ));
            }
            tokio::time::sleep(POLL).await;
        }
    }
}

fn render(template: &FlowTemplate, scope: &Scope<'_>) -> Result<String, Failure> {
    template
        .render(scope)
        .map(|r| r.text)
        .map_err(|e| Failure::new(ErrorKind::InvalidFlow, e.to_string()))
}

fn selector(template: &FlowTemplate, scope: &Scope<'_>) -> Result<Selector, Failure> {
    Selector::parse(&render(template, scope)?).ok_or_else(|| {
        Failure::new(
            ErrorKind::InvalidFlow,
            format!("选择器「{}」为空", template.source()),
        )
    })
}
