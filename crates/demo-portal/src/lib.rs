//! The demo finance portal: a stand-in for a university's web reimbursement system
//! (网上报销系统) that the service submits claims to and its end-to-end tests drive with a real
//! browser. Login, a home page whose forms open in an iframe, the 日常报销 and 差旅报销 forms
//! with rows added by JavaScript, server-side validation with messages on the page, and
//! `GET /api/claims` showing exactly what was accepted. See the crate's README for the DOM.
//!
//! Start it with [`spawn`] on a bound listener (tests use `127.0.0.1:0`): it runs on a thread
//! of its own, and the returned [`PortalThread`] stops it when dropped. A program that runs an
//! actix runtime itself awaits [`serve`] instead, or mounts the routes in its own `App` with
//! [`configure`] and a [`PortalState`]. A [`PortalConfig`] sets the accounts (by default the
//! demo account [`DEMO_EMPLOYEE_NO`] / [`DEMO_PASSWORD`]), departments, limits, where claims
//! are kept, and [`Hooks`] that delay pages or refuse every submission, for timeout tests.
//! Each accepted [`Claim`] holds its form ([`GeneralForm`] or [`TravelForm`]) with every
//! value as received.
//!
//! ```
//! use reimburse_demo_portal::{PortalConfig, spawn};
//! use std::io::{Read, Write};
//! use std::net::{TcpListener, TcpStream};
//!
//! let portal = spawn(TcpListener::bind("127.0.0.1:0")?, PortalConfig::default())?;
//! // A bot logs in at portal.base_url() + "/login" as 100001 / demo123 and submits; a test
//! // then reads what was accepted (nothing yet):
//! let mut stream = TcpStream::connect(portal.address())?;
//! stream.write_all(b"GET /api/claims HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")?;
//! let mut response = String::new();
//! stream.read_to_string(&mut response)?;
//! assert!(response.starts_with("HTTP/1.1 200"));
//! assert!(response.ends_with(r#"{"claims":[]}"#));
//! drop(portal); // stops the server and joins its thread
//! # Ok::<(), std::io::Error>(())
//! ```

#![warn(missing_docs)]

mod api;
mod auth;
mod background;
mod clock;
mod config;
mod error;
mod form_fields;
mod hooks;
mod html;
mod model;
mod pages;
mod routes;
mod state;
mod submit;
mod upload;
mod validate;

pub use auth::SESSION_COOKIE;
pub use background::{PortalThread, spawn};
pub use config::{Account, DEMO_DISPLAY_NAME, DEMO_EMPLOYEE_NO, DEMO_PASSWORD, PortalConfig};
pub use error::PortalError;
pub use hooks::{HANG_MS, Hooks, Page, PageDelay};
pub use html::escape;
pub use model::{
    Attachment, Claim, ClaimDetails, EXPENSE_TYPES, GeneralForm, GeneralRow, TravelForm, TravelRow,
};
pub use routes::configure;
pub use state::{CLAIMS_FILE, PortalState};

use actix_web::dev::Server;
use actix_web::{App, HttpServer, web};
use std::net::TcpListener;

/// Seconds a stopping portal waits for requests in flight (a hung page must not hold it long).
const SHUTDOWN_TIMEOUT_SECS: u64 = 1;

/// Serves the portal on an already bound listener (port 0 in tests). The returned server must be
/// awaited or spawned on a Tokio runtime; it ignores SIGINT/SIGTERM, leaving its lifetime to the
/// process that embeds it (stop it with `Server::handle().stop(..)` or by ending the process).
pub fn serve(listener: TcpListener, config: PortalConfig) -> std::io::Result<Server> {
    let workers = config.workers.max(1);
    let state = web::Data::new(PortalState::new(config).map_err(std::io::Error::other)?);
    let server = HttpServer::new(move || {
        let state = state.clone();
        App::new()
            .configure(move |cfg| configure(cfg, state))
            .default_service(web::to(routes::not_found))
    })
    .workers(workers)
    .disable_signals()
    .shutdown_timeout(SHUTDOWN_TIMEOUT_SECS)
    .listen(listener)?
    .run();
    Ok(server)
}
