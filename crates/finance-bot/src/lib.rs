//! finance-bot: files expense claims in an institution's web finance system by driving Chromium
//! over WebDriver, following a flow written as data (TOML, see `docs/flows.md`).
//!
//! Only this crate knows about WebDriver (thirtyfour); callers hand in a [`FlowFile`], a
//! [`Submission`] and [`BotOptions`], and get a [`SubmitOutcome`] or a [`SubmitError`] whose
//! message is ready to show to the user.

mod ask;
mod bot;
mod check;
mod driver;
mod error;
mod flow;
mod log_filter;
mod person;
mod pool;
mod scope;
mod screenshot;
mod selector;
mod steps;
mod submission;
mod template;
mod validate;

pub use bot::{
    Bot, BotOptions, CLAIM_NO_KEY, OnRead, SubmitOutcome, TryOutcome, final_submit_index,
};
pub use check::{FlowProblem, SERVICE_CLAIM_KEYS, check_flow, sample_submission};
pub use driver::{Browser, CHROMIUM_ARGS, ReapedDirs, WebDriverTarget, reap_leftovers};
pub use error::{ErrorKind, SubmitError};
pub use flow::{
    Action, Choice, FillMethod, FlowError, FlowFile, FlowStep, Flows, Pattern, PortalSection,
};
pub use person::{AnswerFuture, Challenge, Person};
pub use pool::{BrowserPool, BrowserSlot};
pub use submission::{ClaimKind, Submission, SubmissionFiles};
pub use template::{FILTERS, FlowTemplate, NAMESPACES};
