//! The `[auth]` settings as the HTTP shell holds them.

use auth::{AuthMode, Throttle, TrustedProxies, UploadTokens};
use std::sync::Arc;
use std::time::Duration;

/// The sign-in cookie's name.
pub(crate) const LOGIN_COOKIE: &str = "reimburse_login";

/// Which headers the reverse proxy names the user in (`mode = proxy`).
#[derive(Debug, Clone)]
pub struct ProxyHeaders {
    /// The peers allowed to send them; the headers from anyone else are refused.
    pub trusted: TrustedProxies,
    /// The user's account name (e.g. `X-Remote-User`).
    pub user: String,
    /// Their display name, when the proxy sends one (UTF-8 or percent-encoded).
    pub name: Option<String>,
    /// Their groups, separated by commas, semicolons or spaces.
    pub groups: Option<String>,
    /// The group that carries the `finance` role.
    pub finance_group: String,
}

impl Default for ProxyHeaders {
    fn default() -> Self {
        ProxyHeaders {
            trusted: TrustedProxies::default(),
            user: "X-Remote-User".into(),
            name: Some("X-Remote-Name".into()),
            groups: Some("X-Remote-Groups".into()),
            finance_group: "finance".into(),
        }
    }
}

/// How the service learns who is asking, and the limits around it.
#[derive(Debug, Clone)]
pub struct AuthSettings {
    /// Who signs in: nobody, the reverse proxy, or the service's own accounts.
    pub mode: AuthMode,
    /// The headers a trusted reverse proxy names the user in (`mode = proxy`).
    pub proxy: ProxyHeaders,
    /// How long a sign-in lasts (`mode = local`).
    pub login_ttl: Duration,
    /// How long the phone's upload link works.
    pub upload_ttl: Duration,
    /// Mark the sign-in cookie `Secure` (the service is reached over HTTPS).
    pub secure_cookie: bool,
    pub(crate) throttle: Arc<Throttle>,
    /// Set by `AppState` from the data dir's key.
    pub(crate) uploads: Option<UploadTokens>,
}

impl Default for AuthSettings {
    fn default() -> Self {
        AuthSettings {
            mode: AuthMode::None,
            proxy: ProxyHeaders::default(),
            login_ttl: Duration::from_secs(12 * 3600),
            upload_ttl: Duration::from_secs(30 * 60),
            secure_cookie: false,
            throttle: Arc::new(Throttle::default()),
            uploads: None,
        }
    }
}

impl AuthSettings {
    /// True when someone must be signed in (proxy or local).
    pub fn signs_in(&self) -> bool {
        self.mode != AuthMode::None
    }
}
