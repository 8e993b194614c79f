//! The person in the loop, for the service: a submission's `ask_person` step becomes a
//! `submit_challenge` event on the session's stream, and the answer comes back through
//! `POST /api/submit-challenge/<session_id>` (the desktop page, or any client) into the
//! waiting bot. One question waits per session at a time; it is forgotten when answered,
//! when it expires, and when the service stops.

use base64::Engine;
use domain::Event;
use finance_bot::{AnswerFuture, Challenge, Person};
use serde_json::{Value, json};
use session_store::Session;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;
use tokio::sync::oneshot;

/// Questions waiting for an answer, by session id; shared by the jobs and the endpoint.
#[derive(Debug, Clone, Default)]
pub struct Challenges {
    waiting: Arc<Mutex<HashMap<String, Waiting>>>,
    counter: Arc<AtomicU64>,
}

#[derive(Debug)]
struct Waiting {
    id: String,
    /// The event as sent, for a client that (re)connects while it waits.
    shown: Value,
    deadline: Instant,
    answer: oneshot::Sender<String>,
}

/// Why an answer was not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// The answer is blank.
    #[error("请输入验证码")]
    Empty,
    /// No question waits in the session (none was asked, or it expired).
    #[error("当前没有等待输入的验证码")]
    NothingWaiting,
    /// The answer was typed for a question the portal has since replaced.
    #[error("该验证码已失效，请按最新的提示输入")]
    Stale,
}

impl Challenges {
    /// The person behind `session`, for the bot.
    pub fn person(&self, session: &Session) -> Arc<dyn Person> {
        Arc::new(SessionPerson {
            board: self.clone(),
            session: session.clone(),
        })
    }

    /// Hands `answer` to the question waiting in `session_id`; with an `id`, only to that one
    /// (an answer typed for a picture the portal has since replaced is refused).
    pub fn answer(
        &self,
        session_id: &str,
        id: Option<&str>,
        answer: &str,
    ) -> Result<(), AnswerError> {
        let answer = answer.trim();
        if answer.is_empty() {
            return Err(AnswerError::Empty);
        }
        let mut waiting = self.lock();
        let current = waiting
            .get(session_id)
            .filter(|w| w.deadline > Instant::now())
            .ok_or(AnswerError::NothingWaiting)?;
        if id.is_some_and(|id| id != current.id) {
            return Err(AnswerError::Stale);
        }
        let taken = waiting
            .remove(session_id)
            .ok_or(AnswerError::NothingWaiting)?;
        // A bot that stopped waiting this instant dropped its receiver: then it expired.
        taken
            .answer
            .send(answer.to_owned())
            .map_err(|_| AnswerError::NothingWaiting)
    }

    /// The question waiting in `session_id`, as its event with `expires_in` counting down.
    pub fn waiting(&self, session_id: &str) -> Option<Value> {
        let waiting = self.lock();
        let current = waiting.get(session_id)?;
        let left = current.deadline.checked_duration_since(Instant::now())?;
        let mut shown = current.shown.clone();
        shown["expires_in"] = json!(left.as_secs());
        Some(shown)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Waiting>> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn post(&self, session_id: &str, waiting: Waiting) {
        self.lock().insert(session_id.to_owned(), waiting);
    }

    /// Forgets the question `id` of `session_id` if it is still the one waiting.
    fn forget(&self, session_id: &str, id: &str) {
        let mut waiting = self.lock();
        if waiting.get(session_id).is_some_and(|w| w.id == id) {
            waiting.remove(session_id);
        }
    }
}

/// The claimant of one session, asked through its stream.
#[derive(Debug)]
struct SessionPerson {
    board: Challenges,
    session: Session,
}

impl Person for SessionPerson {
    fn ask(&self, challenge: Challenge) -> AnswerFuture<'_> {
        Box::pin(async move {
            let session_id = self.session.id().as_str().to_owned();
            let id = format!(
                "c{}",
                self.board.counter.fetch_add(1, Ordering::Relaxed) + 1
            );
            let event = challenge_event(&id, &challenge);
            let (sender, receiver) = oneshot::channel();
            self.board.post(
                &session_id,
                Waiting {
                    id: id.clone(),
                    shown: serde_json::to_value(&event).unwrap_or(Value::Null),
                    deadline: Instant::now() + challenge.wait,
                    answer: sender,
                },
            );
            let _ = self.session.log(
                "INFO",
                "bot",
                &format!(
                    "财务系统需要人工输入：{}（请在 {} 秒内输入）",
                    challenge.prompt,
                    challenge.wait.as_secs()
                ),
            );
            let _ = self.session.emit(&event);
            let answer = tokio::time::timeout(challenge.wait, receiver).await;
            self.board.forget(&session_id, &id);
            let answer = answer.ok().and_then(Result::ok);
            let outcome = if answer.is_some() {
                "answered"
            } else {
                let _ = self.session.log(
                    "WARN",
                    "bot",
                    &format!("{} 秒内没有收到输入", challenge.wait.as_secs()),
                );
                "expired"
            };
            let _ = self.session.emit(&Event::SubmitChallengeClosed {
                id,
                outcome: outcome.to_owned(),
            });
            answer
        })
    }
}

fn challenge_event(id: &str, challenge: &Challenge) -> Event {
    let image = challenge.image_png.as_ref().map(|png| {
        format!(
            "data:image/png;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(png)
        )
    });
    Event::SubmitChallenge {
        id: id.to_owned(),
        prompt: challenge.prompt.clone(),
        image,
        attempt: challenge.attempt,
        attempts: challenge.attempts,
        expires_in: challenge.wait.as_secs(),
        message: challenge.refusal.clone(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;
    use session_store::{Store, StoreOptions};
    use std::time::Duration;

    const SHORT: Duration = Duration::from_millis(300);

    fn challenge(wait: Duration) -> Challenge {
        Challenge {
            prompt: "请输入图片中的验证码".into(),
            image_png: Some(vec![0x89, b'P', b'N', b'G']),
            attempt: 1,
            attempts: 3,
            refusal: None,
            wait,
        }
    }

    fn events(session: &Session) -> Vec<Value> {
        std::fs::read_to_string(session.path().join("agent_events.log"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[tokio::test]
    async fn an_answer_reaches_the_waiting_bot_once() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let session = store.create_session().unwrap();
        let sid = session.id().as_str().to_owned();
        let board = Challenges::default();
        let person = board.person(&session);
        let asking = tokio::spawn({
            let person = Arc::clone(&person);
            async move { person.ask(challenge(Duration::from_secs(5))).await }
        });
        let shown = loop {
            if let Some(shown) = board.waiting(&sid) {
                break shown;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        assert_eq!(shown["type"], "submit_challenge");
        assert!(
            shown["image"]
                .as_str()
                .unwrap()
                .starts_with("data:image/png;base64,")
        );
        assert_eq!(board.answer(&sid, None, "  "), Err(AnswerError::Empty));
        assert_eq!(
            board.answer(&sid, Some("c99"), "1234"),
            Err(AnswerError::Stale)
        );
        assert_eq!(
            board.answer("other", None, "1234"),
            Err(AnswerError::NothingWaiting)
        );
        board.answer(&sid, shown["id"].as_str(), " 1234 ").unwrap();
        assert_eq!(asking.await.unwrap().as_deref(), Some("1234"));
        assert_eq!(
            board.answer(&sid, None, "1234"),
            Err(AnswerError::NothingWaiting)
        );
        let types: Vec<String> = events(&session)
            .iter()
            .map(|e| format!("{}:{}", e["type"], e["outcome"]))
            .collect();
        assert_eq!(
            types,
            [
                "\"submit_challenge\":null",
                "\"submit_challenge_closed\":\"answered\""
            ]
        );
    }

    #[tokio::test]
    async fn no_answer_in_time_is_none_and_says_expired() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let session = store.create_session().unwrap();
        let board = Challenges::default();
        let answer = board.person(&session).ask(challenge(SHORT)).await;
        assert_eq!(answer, None);
        assert_eq!(board.waiting(session.id().as_str()), None);
        let last = events(&session).pop().unwrap();
        assert_eq!(last["outcome"], "expired");
    }
}
