//! Who is asking, decided without IO: password hashes (argon2id), random sign-in tokens and
//! their stored hashes, the phone's short-lived upload tokens (HMAC over the session and the
//! expiry), sign-in throttling per account and per address, and which peers may name a user
//! in a header (the institution's reverse proxy). The HTTP shell and the database hold the
//! state; this crate holds the rules.
//!
//! ```
//! use reimburse_auth::{
//!     Throttle, ThrottlePolicy, TrustedProxies, UploadTokenError, UploadTokens, hash_password,
//!     new_token, token_hash, verify_password,
//! };
//! use std::time::Instant;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Accounts: keep the argon2id PHC string, never the password.
//! let stored = hash_password("正确的马 battery staple")?;
//! assert!(verify_password("正确的马 battery staple", &stored));
//! assert!(!verify_password("wrong", &stored));
//!
//! // Sign-in: the browser gets a random token, the database its hash.
//! let cookie = new_token()?;
//! let kept = token_hash(&cookie);
//! assert_eq!(token_hash(&cookie), kept);
//!
//! // The phone's link: an upload token for one session until an expiry (Unix seconds).
//! let session = "5f0c3c9e-1111-4a2b-9c3d-000000000001";
//! let tokens = UploadTokens::new([7; 32]); // the service's secret key
//! let token = tokens.issue(session, 1_000);
//! assert_eq!(tokens.check(&token, session, 999), Ok(1_000));
//! assert_eq!(tokens.check(&token, session, 1_000), Err(UploadTokenError::Expired));
//!
//! // Failed sign-ins make an account wait; the service asks before each attempt.
//! let throttle = Throttle::new(ThrottlePolicy { account_free: 1, ..ThrottlePolicy::default() });
//! let now = Instant::now();
//! assert!(throttle.check("alice", "203.0.113.9", now).is_ok());
//! throttle.failed("alice", "203.0.113.9", now);
//! assert!(throttle.check("alice", "203.0.113.9", now).is_err());
//!
//! // Only the reverse proxy may name the user in a header.
//! let proxies = TrustedProxies::parse(&["10.0.0.0/8", "::1"])?;
//! assert!(proxies.contains("10.1.2.3".parse()?));
//! assert!(!proxies.contains("192.0.2.1".parse()?));
//! # Ok(())
//! # }
//! ```
//!
//! Start from [`hash_password`] and [`verify_password`] (accounts), [`new_token`] and
//! [`token_hash`] (sign-in cookies), [`UploadTokens`] (the phone's links), [`Throttle`]
//! (sign-in attempts), [`TrustedProxies`] and [`AuthMode`] (who may name the user), and
//! [`Identity`] (the user a request is from). Errors are [`AuthError`] and
//! [`UploadTokenError`], whose messages can be shown to a user as they are.

#![warn(missing_docs)]

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
