//! Session persistence for a reimbursement service: one directory per session under a data
//! dir, and everything written there. Uploads are streamed in with their content checked
//! against their name, generated files are written atomically, the four append-only logs are
//! what a client's event stream follows (with resumable offsets), `config.json` keeps the
//! finance password encrypted under the data dir's key, the invoice table is a CSV Excel
//! reads, and a background job always ends by writing `result.json`. The directory *is* the
//! state: a client can connect late, reconnect, or follow a session across a restart.
//!
//! ```
//! use reimburse_session_store::{JobRunner, LogFile, Store, StoreOptions, read_new_lines};
//! use std::time::Duration;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let data_dir = tempfile::tempdir()?;
//! let store = Store::open(data_dir.path(), StoreOptions::default())?;
//! let session = store.create_session()?;
//!
//! // An upload is streamed in chunks; its first bytes must match the kind its name says.
//! let mut upload = session.begin_upload("发票 (1).pdf")?;
//! upload.write(b"%PDF-1.7\n")?;
//! let name = upload.finish()?; // the safe name it was stored under
//! assert_eq!(session.list_files()?[0].name, name);
//!
//! // The session log, read from an offset as an event stream does.
//! session.log("INFO", "demo", "开始处理")?;
//! let chunk = read_new_lines(&session.log_path(LogFile::Session), 0)?;
//! assert!(chunk.lines[0].0.contains("开始处理"));
//!
//! // A background job: one per session at a time, always ending in result.json.
//! let jobs = JobRunner::new();
//! jobs.start(session.clone(), "process", |_session| serde_json::json!({ "ok": true }))?;
//! let result = loop {
//!     if let Some(result) = session.read_result()? {
//!         break result;
//!     }
//!     std::thread::sleep(Duration::from_millis(5));
//! };
//! assert_eq!(result["ok"], true);
//!
//! // A request names the session by its id.
//! assert_eq!(store.session(session.id().as_str())?.path(), session.path());
//! # Ok(())
//! # }
//! ```
//!
//! Start from [`Store`] (the data dir) and [`Session`] (one directory); [`JobRunner`] runs
//! work in the background; [`read_new_lines`] follows a [`LogFile`] from [`RunOffsets`];
//! [`CsvTable`] is the invoice table. Failures are [`StoreError`]s.

#![warn(missing_docs)]

mod atomic;
mod clock;
mod config_file;
mod error;
mod event_log;
mod jobs;
mod reserve;
mod run;
mod secret;
mod session;
mod store;
mod table;
mod tail;
mod upload;

pub use atomic::write_atomic;
pub use clock::{china_date, utc_timestamp};
pub use error::StoreError;
pub use event_log::LogFile;
pub use jobs::{JobRunner, JobStartError};
pub use run::{RunInfo, RunOffsets};
pub use secret::SecretKey;
pub use session::{ListedFile, Session};
pub use store::{Store, StoreOptions};
pub use table::{CsvTable, PREFERRED_CSV, SUMMARY_CSV};
pub use tail::{TailChunk, read_new_lines};
pub use upload::UploadSink;

/// Images the service itself writes into a session (the finance bot's failure screenshots)
/// start with this; they are downloadable but not listed as uploads.
pub const GENERATED_IMAGE_PREFIX: &str = "submit-failure-";

/// The printed claim the service writes into a session.
pub const PACKAGE_PDF: &str = "报销材料.pdf";
/// The picture of its first page.
pub const PACKAGE_PREVIEW: &str = "报销材料-预览.png";
/// Generated files that are downloadable but never listed as uploads, so no run reads the
/// service's own PDF back as an invoice or its preview as a payment screenshot.
pub const GENERATED_FILES: [&str; 2] = [PACKAGE_PDF, PACKAGE_PREVIEW];

/// Name of the result file of the last operation.
pub const RESULT_FILE: &str = "result.json";
/// Name of the session configuration file.
pub const CONFIG_FILE: &str = "config.json";
