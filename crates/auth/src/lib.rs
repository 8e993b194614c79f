//! Who is asking, decided without IO: password hashes (argon2id), random sign-in tokens and
//! their stored hashes, the phone's short-lived upload tokens (HMAC over the session and the
//! expiry), sign-in throttling per account and per address, and which peers may name a user
//! in a header (the institution's reverse proxy). The HTTP shell and the database hold the
//! state; this crate holds the rules.

mod error;
mod identity;
mod password;
mod proxy;
mod throttle;
mod token;
mod upload;

pub use error::AuthError;
pub use identity::{AuthMode, Identity};
pub use password::{hash_password, is_password_hash, verify_password};
pub use proxy::TrustedProxies;
pub use throttle::{Throttle, ThrottlePolicy};
pub use token::{new_token, token_hash};
pub use upload::{UploadTokenError, UploadTokens};
