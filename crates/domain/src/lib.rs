//! The shared vocabulary of reimburse: pure data types and rules, no IO, no async.

mod agent;
mod cents;
mod civil_date;
mod config;
mod disk_full;
mod event;
mod file_kind;
mod file_name;
mod invoice_kind;
mod invoice_record;
mod invoice_row;
mod money;
mod result;
mod session_id;
mod spreadsheet_cell;
mod today;

pub use agent::{AgentSessionState, AgentState, MAX_ROUNDS};
pub use cents::{AmountError, Cents};
pub use civil_date::{
    china_day, civil_from_days, days_from_civil, format_civil_date, parse_civil_date,
};
pub use config::{ConfigField, Password, SessionConfig};
pub use disk_full::{disk_full_message, is_disk_full};
pub use event::{Event, FileStatus, LlmPhase, LogLine};
pub use file_kind::{FileKind, SNIFF_LEN, sniff_matches};
pub use file_name::{FileNameError, numbered_name, sanitize_upload_name, validate_stored_name};
pub use invoice_kind::InvoiceKind;
pub use invoice_record::{
    AirTrip, DocumentType, FieldFlag, FlightSegment, InvoiceRecord, LineItem, Party, RailwayTrip,
    field_label,
};
pub use invoice_row::{COLUMNS, InvoiceRow};
pub use money::{format_cents, parse_cents};
pub use result::{DocOutcome, FailureResult, PackageOutcome, ProcessResult, SubmitResult};
pub use session_id::{SessionId, SessionIdError};
pub use spreadsheet_cell::{from_spreadsheet_cell, to_spreadsheet_cell};
pub use today::Today;
