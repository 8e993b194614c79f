//! A mock university finance portal (某某大学财务网上报销系统（测试）), written from how real
//! campus systems behave rather than beside any bot: an image captcha at login, a menu beside an
//! `<iframe name="main">`, a department list filled by XHR, read-only dates set by a JavaScript
//! picker, rows without ids, a `confirm` before posting and `alert` for refusals.
//!
//! Start it with [`spawn`] on a listener (tests use `127.0.0.1:0`); the returned
//! [`CampusThread`] stops the server when dropped. The crate README describes every page.
//! A [`CampusConfig`] sets the accounts ([`Account`]), the department list ([`Department`])
//! and how late it arrives, invoices reimbursed before ([`PriorInvoice`]) and the claim
//! numbers; `GET /api/claims` answers every filed [`Claim`] as JSON, for a test to compare with
//! what it submitted.
//!
//! ```
//! use reimburse_campus_portal::{CampusConfig, PriorInvoice, spawn};
//! use std::io::{Read, Write};
//! use std::net::{TcpListener, TcpStream};
//!
//! let config = CampusConfig {
//!     // Refused as already reimbursed, as a real system refuses a second claim.
//!     prior_invoices: vec![PriorInvoice {
//!         invoice_no: "25335400968681583673".into(),
//!         claim_no: "CW2025000042".into(),
//!     }],
//!     ..CampusConfig::default() // account 200001 / campus123
//! };
//! let portal = spawn(TcpListener::bind("127.0.0.1:0")?, config)?;
//! assert!(portal.base_url().starts_with("http://127.0.0.1:"));
//! // A bot logs in at the base URL; a test then reads what was filed (nothing yet):
//! let address = portal.base_url().trim_start_matches("http://");
//! let mut stream = TcpStream::connect(address)?;
//! stream.write_all(b"GET /api/claims HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")?;
//! let mut response = String::new();
//! stream.read_to_string(&mut response)?;
//! assert!(response.starts_with("HTTP/1.1 200"));
//! assert!(response.ends_with("[]"));
//! drop(portal); // stops the server and joins its thread
//! # Ok::<(), std::io::Error>(())
//! ```

#![warn(missing_docs)]

mod captcha;
mod claims;
mod clock;
mod config;
mod form;
mod html;
mod money;
mod pages;
mod random;
mod routes;
mod server;
mod sessions;
mod state;
mod validate;

pub use claims::{Attachment, Claim, ClaimKind, ClaimRow};
pub use config::{Account, CampusConfig, Department, PriorInvoice};
pub use server::{CampusThread, spawn};
