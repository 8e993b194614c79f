//! The signed-in user and the three ways of knowing them.

use crate::AuthError;
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// How the service learns who is asking (`[auth] mode`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AuthMode {
    /// Nobody signs in: one person on their own machine. Everyone is the same user.
    #[default]
    None,
    /// The reverse proxy signed the user in and names them in a header.
    Proxy,
    /// Accounts kept by the service, a sign-in page and a cookie.
    Local,
}

impl AuthMode {
    /// The word used in the configuration and in `/api/auth/me`.
    pub fn as_str(self) -> &'static str {
        match self {
            AuthMode::None => "none",
            AuthMode::Proxy => "proxy",
            AuthMode::Local => "local",
        }
    }
}

impl FromStr for AuthMode {
    type Err = AuthError;

    fn from_str(word: &str) -> Result<Self, Self::Err> {
        match word.trim() {
            "none" | "" => Ok(AuthMode::None),
            "proxy" => Ok(AuthMode::Proxy),
            "local" => Ok(AuthMode::Local),
            other => Err(AuthError::BadMode(other.to_owned())),
        }
    }
}

/// A user the service knows is asking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The account name (local) or what the proxy's header said; the owner of sessions.
    pub username: String,
    /// The name shown on the page (the username when none is known).
    pub display_name: String,
    /// The `finance` role: sees the whole ledger and the audit trail, exports, voids.
    pub finance: bool,
}

impl Identity {
    /// The one user of `mode = none`: no owner on sessions, every claim visible, as before
    /// sign-in existed.
    pub fn everyone() -> Identity {
        Identity {
            username: String::new(),
            display_name: String::new(),
            finance: true,
        }
    }

    /// True for the user of `mode = none`.
    pub fn is_everyone(&self) -> bool {
        self.username.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_from_their_words() {
        assert_eq!("none".parse::<AuthMode>().ok(), Some(AuthMode::None));
        assert_eq!(" proxy ".parse::<AuthMode>().ok(), Some(AuthMode::Proxy));
        assert_eq!("local".parse::<AuthMode>().ok(), Some(AuthMode::Local));
        assert!("ldap".parse::<AuthMode>().is_err());
        assert_eq!(AuthMode::default(), AuthMode::None);
    }

    #[test]
    fn everyone_is_a_finance_user_with_no_name() {
        let all = Identity::everyone();
        assert!(all.is_everyone() && all.finance);
    }
}
