//! The person in the loop: what an `ask_person` step shows (a captcha's picture, a prompt such
//! as 请输入短信验证码) and the trait through which whoever runs the bot answers it (the
//! service through its stream and an endpoint, the command line through the terminal).

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// One question to the person.
#[derive(Clone, PartialEq, Eq)]
pub struct Challenge {
    /// What to type, in the flow's words (`请输入图片中的验证码`).
    pub prompt: String,
    /// The captcha element's picture as PNG, when the step names one.
    pub image_png: Option<Vec<u8>>,
    /// 1 for the first ask, then one more for each answer the portal refused.
    pub attempt: u32,
    /// How many answers the step allows in all.
    pub attempts: u32,
    /// The portal's words about the previous answer (`验证码错误`), on a repeated ask.
    pub refusal: Option<String>,
    /// How long the person has; the bot gives up after it.
    pub wait: Duration,
}

impl fmt::Debug for Challenge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Challenge")
            .field("prompt", &self.prompt)
            .field("image_png", &self.image_png.as_ref().map(Vec::len))
            .field("attempt", &self.attempt)
            .field("attempts", &self.attempts)
            .field("refusal", &self.refusal)
            .field("wait", &self.wait)
            .finish()
    }
}

/// The answer the future of [`Person::ask`] resolves to: `None` when nobody answered in time
/// (or nobody can answer at all).
pub type AnswerFuture<'a> = Pin<Box<dyn Future<Output = Option<String>> + Send + 'a>>;

/// Whoever can answer a challenge for the claimant.
pub trait Person: Send + Sync + fmt::Debug {
    /// Shows `challenge` and waits at most `challenge.wait` for the answer.
    fn ask(&self, challenge: Challenge) -> AnswerFuture<'_>;
}

/// Time spent waiting for the person, which the submission's overall limit does not count:
/// a person reading a captcha is not a portal hanging.
#[derive(Debug, Clone, Default)]
pub(crate) struct PersonClock(Arc<Mutex<ClockState>>);

#[derive(Debug, Default)]
struct ClockState {
    total: Duration,
    since: Option<Instant>,
}

impl PersonClock {
    pub(crate) fn start(&self) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).since = Some(Instant::now());
    }

    pub(crate) fn stop(&self) {
        let mut state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(since) = state.since.take() {
            state.total += since.elapsed();
        }
    }

    /// Everything waited so far, the wait under way included.
    pub(crate) fn waited(&self) -> Duration {
        let state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        state.total + state.since.map_or(Duration::ZERO, |s| s.elapsed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_counts_finished_and_running_waits() {
        let clock = PersonClock::default();
        assert_eq!(clock.waited(), Duration::ZERO);
        clock.start();
        std::thread::sleep(Duration::from_millis(20));
        assert!(clock.waited() >= Duration::from_millis(20));
        clock.stop();
        let after = clock.waited();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(clock.waited(), after, "a stopped clock stands still");
    }
}
