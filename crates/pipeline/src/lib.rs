//! The processing steps of a session, run inside a background job: extraction, duplicates,
//! classification, the invoice table, the outbound-stock document, the printed claim and the
//! `done` result. The HTTP service runs each endpoint's job with one call here; a program can
//! run the same steps on a session of its own, without the service.
//!
//! The jobs work on a `reimburse-session-store` `Session` (a directory of uploads, logs and
//! generated files) and report as the service does: `file_progress` events and session.log
//! lines in the session, and the `done` result as JSON. The whole jobs are [`process`] (`POST
//! /api/process`), [`submit`] (the finance submission), [`agent_process`] and the other
//! `agent_*` functions (the agent flow); they take the service-wide settings
//! [`DocumentSettings`], [`ScreenshotSettings`], [`FinanceSettings`] and [`AgentSettings`].
//! The steps are also public on their own: [`extract_documents`], [`summary_row`] and
//! [`invoice_table`], [`apply_payments`], [`regenerate_document`].
//!
//! Extracting the invoices of a session and writing its table, as [`process`] begins:
//!
//! ```
//! # // This crate's dependencies under the names an outside program gives them.
//! # extern crate domain as reimburse_domain;
//! # extern crate session_store as reimburse_session_store;
//! use reimburse_domain::SessionConfig;
//! use reimburse_pipeline::{FileOutcome, extract_documents, invoice_table, summary_row};
//! use reimburse_session_store::{Store, StoreOptions};
//!
//! let data_dir = tempfile::tempdir()?;
//! let store = Store::open(data_dir.path(), StoreOptions::default())?;
//! let session = store.create_session()?;
//! let mut upload = session.begin_upload("餐费发票.pdf")?;
//! upload.write(&std::fs::read("../../fixtures/invoices/digital_normal_single.pdf")?)?;
//! upload.finish()?;
//!
//! let config = SessionConfig { default_name: "张三".into(), ..SessionConfig::default() };
//! let mut rows = Vec::new();
//! for file in extract_documents(&session) {
//!     match file.outcome {
//!         FileOutcome::Extracted(record) => {
//!             rows.push(summary_row(&record, rows.len() + 1, &config));
//!         }
//!         FileOutcome::Failed(reason) => eprintln!("{}: {reason}", file.file),
//!     }
//! }
//! assert_eq!(rows[0].invoice_number, "25335400968681583673");
//! assert_eq!(rows[0].total_with_tax, "290.00");
//! assert_eq!(rows[0].person_name, "张三");
//! session.write_table(&invoice_table(&rows))?; // invoice_summary.csv
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod agent;
mod cache;
mod challenge;
mod document;
mod extract_step;
mod ledger_step;
mod package_step;
mod payment_step;
mod process;
mod recognise;
mod submit;
mod summary;
mod table;

pub use agent::{
    AGENT_STATE_FILE, AgentRefusal, AgentSettings, TRAVEL_APPLICATIONS_FILE, agent_force_submit,
    agent_process, agent_supplement_files, agent_user_supplement, can_force_submit, can_supplement,
    read_agent_state, recover_agent_state,
};
pub use challenge::{AnswerError, Challenges};
pub use document::{DocumentReport, DocumentSettings, regenerate_document};
pub use extract_step::{ExtractedFile, FileOutcome, extract_documents};
pub use ledger_step::{LedgerMark, holder_sentence, ledger_marks, reconcile_ledger};
pub use package_step::{package_fields, print_after_submission, regenerate_package, with_package};
pub use payment_step::{PAYMENT_CSV, PAYMENTS_FILE, apply_payments};
pub use process::{ProcessOutcome, process};
pub use recognise::{
    ScreenshotReader, ScreenshotSettings, offline_ocr_ready, recognise_screenshots,
};
pub use submit::{FinanceSettings, SCREENSHOT_PREFIX, submit};
pub use table::{invoice_table, summary_row};

/// File of the full extraction records (one object per invoice, with its class and source
/// file), for the steps that need more than the 13 columns (document, agent, submission).
pub const RECORDS_FILE: &str = "invoice_records.json";
