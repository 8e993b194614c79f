//! The processing steps of a session, run inside a background job: extraction, duplicates,
//! classification, the invoice table, the outbound-stock document, the printed claim and the
//! `done` result.

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
