//! Who may do what (`[auth]`): the settings, the route table saying what each path needs, the
//! guard that resolves the caller and enforces ownership before any handler runs, the audit
//! trail and each user's saved defaults.

mod audit;
mod caller;
mod guard;
mod routes_table;
mod settings;
mod user_defaults;

pub(crate) use audit::{Action, record};
pub(crate) use caller::Caller;
pub(crate) use guard::auth_guard;
pub(crate) use settings::LOGIN_COOKIE;
pub use settings::{AuthSettings, ProxyHeaders};
pub(crate) use user_defaults::{defaults_for, remember_defaults};
