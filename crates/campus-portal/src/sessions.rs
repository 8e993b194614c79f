//! Login sessions, keyed by the `JSESSIONID` cookie: the captcha a session was last shown and
//! who, if anyone, logged in with it. Kept in memory, as a mock needs no more.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use crate::random;

/// The cookie carrying the session id (the name Java back ends of such systems use).
pub(crate) const SESSION_COOKIE: &str = "JSESSIONID";

/// Beyond this many sessions the least recently used is forgotten, so a client that never keeps
/// its cookie cannot grow the map without bound.
const MAX_SESSIONS: usize = 10_000;

#[derive(Debug)]
struct LoginSession {
    captcha: Option<String>,
    staff_no: Option<String>,
    used: Instant,
}

/// Every live session.
#[derive(Debug, Default)]
pub(crate) struct Sessions {
    map: Mutex<HashMap<String, LoginSession>>,
    /// The session whose image was drawn last (the test hook without a session).
    latest: Mutex<Option<String>>,
}

impl Sessions {
    /// The session named by the cookie, or a new one; `true` when it is new (its cookie must be
    /// set).
    pub(crate) fn ensure(&self, cookie: Option<&str>) -> (String, bool) {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(id) = cookie
            && let Some(session) = map.get_mut(id)
        {
            session.used = Instant::now();
            return (id.to_owned(), false);
        }
        if map.len() >= MAX_SESSIONS
            && let Some(oldest) = map
                .iter()
                .min_by_key(|(_, s)| s.used)
                .map(|(id, _)| id.clone())
        {
            map.remove(&oldest);
        }
        let id = random::token();
        let session = LoginSession {
            captcha: None,
            staff_no: None,
            used: Instant::now(),
        };
        map.insert(id.clone(), session);
        (id, true)
    }

    /// Remembers the code of the image just drawn, replacing the previous one.
    pub(crate) fn set_captcha(&self, id: &str, code: String) {
        self.with(id, |s| s.captcha = Some(code));
        *self.latest.lock().unwrap_or_else(PoisonError::into_inner) = Some(id.to_owned());
    }

    /// The code of the image drawn last, in any session, left in place (the test hook, for a
    /// test that plays the person and cannot see the browser's cookie).
    pub(crate) fn peek_latest_captcha(&self) -> Option<String> {
        let latest = self
            .latest
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()?;
        self.peek_captcha(&latest)
    }

    /// The expected code, consumed: a captcha answers one login attempt only.
    pub(crate) fn take_captcha(&self, id: &str) -> Option<String> {
        self.with(id, |s| s.captcha.take()).flatten()
    }

    /// The expected code, left in place (the test hook).
    pub(crate) fn peek_captcha(&self, id: &str) -> Option<String> {
        self.with(id, |s| s.captcha.clone()).flatten()
    }

    pub(crate) fn log_in(&self, id: &str, staff_no: &str) {
        self.with(id, |s| s.staff_no = Some(staff_no.to_owned()));
    }

    pub(crate) fn log_out(&self, id: &str) {
        self.with(id, |s| s.staff_no = None);
    }

    /// The 工号 logged in with this session.
    pub(crate) fn user(&self, id: &str) -> Option<String> {
        self.with(id, |s| s.staff_no.clone()).flatten()
    }

    fn with<T>(&self, id: &str, f: impl FnOnce(&mut LoginSession) -> T) -> Option<T> {
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        map.get_mut(id).map(|session| {
            session.used = Instant::now();
            f(session)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_captcha_answers_once() {
        let sessions = Sessions::default();
        let (id, created) = sessions.ensure(None);
        assert!(created);
        assert_eq!(sessions.ensure(Some(&id)), (id.clone(), false));
        sessions.set_captcha(&id, "1234".to_owned());
        assert_eq!(sessions.peek_captcha(&id).as_deref(), Some("1234"));
        assert_eq!(sessions.take_captcha(&id).as_deref(), Some("1234"));
        assert_eq!(sessions.take_captcha(&id), None);
    }

    #[test]
    fn unknown_cookies_get_a_new_session() {
        let sessions = Sessions::default();
        let (id, created) = sessions.ensure(Some("forged"));
        assert!(created);
        assert_ne!(id, "forged");
        assert_eq!(sessions.user("forged"), None);
    }
}
