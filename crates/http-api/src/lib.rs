//! The HTTP shell of reimburse: routes, error mapping, uploads and the SSE stream on actix-web.
//! It serves the interface of `docs/api.md` (the desktop and phone pages, uploads, the table,
//! the processing, submission and agent jobs, the event stream) over sessions kept by
//! `reimburse-session-store`, and runs each job with `reimburse-pipeline`.
//!
//! A program builds an [`AppState`] with [`AppState::new`] from the store, the configuration a
//! session without its own shows, and the settings of the streams ([`SseSettings`]) and of
//! the pipeline's jobs; the `with_*` methods add sign-in ([`AuthSettings`]), accepted host
//! names ([`AllowedHosts`]), the phone's address and body limits ([`BodyLimits`]). [`run`]
//! then serves it on a bound listener until SIGINT or SIGTERM; [`serve`] gives the actix
//! server to await on a runtime of one's own. Every refusal is an [`ApiError`]: a status and
//! `{"error": "…"}` in the user's words.
//!
//! The service much as the `reimburse` binary starts it (without its claims ledger), on the
//! built-in flow for the demo portal (`no_run`: it listens until stopped):
//!
//! ```no_run
//! # // This crate's dependencies under the names an outside program gives them.
//! # extern crate domain as reimburse_domain;
//! # extern crate finance_bot as reimburse_finance_bot;
//! # extern crate pipeline as reimburse_pipeline;
//! # extern crate session_store as reimburse_session_store;
//! use reimburse_domain::SessionConfig;
//! use reimburse_finance_bot::{BotOptions, BrowserPool};
//! use reimburse_http_api::{AppState, SseSettings};
//! use reimburse_pipeline::{Challenges, DocumentSettings, FinanceSettings, ScreenshotSettings};
//! use reimburse_session_store::{Store, StoreOptions};
//! use std::net::TcpListener;
//! use std::path::Path;
//!
//! let store = Store::open(Path::new("data"), StoreOptions::default())?;
//! let finance = FinanceSettings {
//!     flow: "flows/demo-portal.toml".into(),
//!     options: BotOptions {
//!         base_url: Some("http://127.0.0.1:8090".into()),
//!         ..BotOptions::default()
//!     },
//!     browsers: BrowserPool::default(),
//!     challenges: Challenges::default(),
//!     ledger: None, // no claims ledger: nothing guards against claiming an invoice twice
//! };
//! let state = AppState::new(
//!     store,
//!     SessionConfig::default(),
//!     SseSettings::default(),
//!     DocumentSettings::default(), // templates/易耗品出库单.docx and LibreOffice
//!     finance,
//!     ScreenshotSettings::default(), // screenshots read by the offline OCR, no model
//! )
//! .with_allowed_hosts(["bx.example.edu.cn".to_owned()]);
//! let listener = TcpListener::bind("127.0.0.1:8080")?;
//! reimburse_http_api::run(listener, state, None)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod access;
mod error;
mod front_door;
mod middleware;
mod phone;
mod routes;
mod server;
mod sse;
mod state;

pub use access::{AuthSettings, ProxyHeaders};
pub use error::ApiError;
pub use front_door::{HEAD_TIMEOUT, MAX_HEAD_BYTES, MAX_TARGET_BYTES};
pub use middleware::{AllowedHosts, BodyLimits};
pub use server::{JSON_LIMIT, SMALL_BODY_LIMIT, run, serve};
pub use sse::SseSettings;
pub use state::AppState;
