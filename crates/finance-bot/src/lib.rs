//! Files expense claims in an institution's web finance system by driving Chromium over
//! WebDriver, following a flow written as data: a TOML file of steps (open, fill, select,
//! click, upload, wait, read the claim number, ask the person for a captcha …) whose values
//! are templates over the claim (`{{config.username}}`, `{{row.发票号码 | digits}}`). A new
//! portal is a new file, not new code; the step reference is `docs/flows.md` in the source
//! tree.
//!
//! A flow is checked before any browser starts, which needs nothing outside:
//!
//! ```
//! # use domain as reimburse_domain; // the workspace's short name for the same crate
//! use reimburse_finance_bot::{Bot, BotOptions, ClaimKind, FlowFile, Submission, check_flow};
//! use reimburse_domain::{Password, SessionConfig};
//! use std::collections::BTreeMap;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! const FLOW: &str = r##"
//! [portal]
//! name = "示例财务系统"
//! base_url = "http://127.0.0.1:8090"
//!
//! [[flows.general]]
//! action = "open"
//! url = "/login"
//!
//! [[flows.general]]
//! action = "fill"
//! selector = "#username"
//! value = "{{config.username}}"
//!
//! [[flows.general]]
//! action = "fill"
//! selector = "#password"
//! value = "{{config.password}}"
//!
//! [[flows.general]]
//! action = "repeat_for_each_row"
//! steps = [
//!   { action = "click", selector = "#add-row" },
//!   { action = "fill", selector = "#invoice-no", value = "{{row.发票号码 | digits}}" },
//! ]
//!
//! [[flows.general]]
//! action = "click"
//! selector = "#submit"
//! final_submit = true
//!
//! [[flows.general]]
//! action = "read_text"
//! selector = "#claim-no"
//! into = "claim_no"
//! "##;
//!
//! // Each problem of the file with its line: here, the travel flow is missing.
//! let sample = tempfile::NamedTempFile::new()?; // stands in for the files to upload
//! let problems = check_flow(FLOW, sample.path());
//! assert_eq!(problems.len(), 1);
//! println!("{}", problems[0]);
//!
//! // A claim, checked against the flow without a browser.
//! let flow = FlowFile::from_toml_str(FLOW)?;
//! let config = SessionConfig {
//!     username: "1001".into(),
//!     password: Password::new("secret"),
//!     ..SessionConfig::default()
//! };
//! let mut claim = Submission::new(ClaimKind::General, config);
//! claim.rows.push(BTreeMap::from([("发票号码".to_owned(), "25442000000116575693".to_owned())]));
//! Bot::validate(&flow, &claim, &BotOptions::default())?;
//! # Ok(())
//! # }
//! ```
//!
//! Filing it needs Chromium and chromedriver (Debian's `chromium` and `chromium-driver`, or a
//! WebDriver server):
//!
//! ```no_run
//! # use reimburse_finance_bot::{Bot, BotOptions, ClaimKind, FlowFile, Submission};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let flow = FlowFile::load(std::path::Path::new("flows/demo-portal.toml"))?;
//! # let claim = Submission::new(ClaimKind::General, Default::default());
//! match Bot::submit(&flow, &claim, &BotOptions::default()) {
//!     Ok(outcome) => println!("报销单号 {:?}", outcome.claim_no),
//!     // Which step failed and why, in words for the user, with a screenshot of the page.
//!     Err(error) => println!("{error} ({:?})", error.screenshot),
//! }
//! # Ok(())
//! # }
//! ```
//!
//! Only this crate knows about WebDriver (thirtyfour): callers hand in a [`FlowFile`], a
//! [`Submission`] and [`BotOptions`], and [`Bot`] gives a [`SubmitOutcome`] or a
//! [`SubmitError`] whose message is ready to show to the user. [`check_flow`] checks a flow
//! file alone; [`Bot::try_flow`] runs one up to its final submit. A captcha or an SMS code
//! reaches the person through a [`Person`]; a [`BrowserPool`] bounds the browsers a service
//! runs at once, and [`reap_leftovers`] cleans up after a killed run. The flow file's model
//! ([`FlowStep`], [`Action`], [`FlowTemplate`] …) is public for tools that inspect flows.

#![warn(missing_docs)]

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
