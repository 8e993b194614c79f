//! A mock university finance portal (某某大学财务网上报销系统（测试）), written from how real
//! campus systems behave rather than beside any bot: an image captcha at login, a menu beside an
//! `<iframe name="main">`, a department list filled by XHR, read-only dates set by a JavaScript
//! picker, rows without ids, a `confirm` before posting and `alert` for refusals.
//!
//! Start it with [`spawn`] on a listener (tests use `127.0.0.1:0`); the returned
//! [`CampusThread`] stops the server when dropped. The crate README describes every page.

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
