//! Session persistence: one directory per session under a data dir, and everything written there.

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
