//! The shared vocabulary of reimburse: pure data types and rules, no IO, no async, no clock.
//! Every other crate of the project speaks in these types, and a program that reads or writes
//! the service's files (`invoice_summary.csv`, `config.json`, the event logs, `result.json`)
//! can use them to do so.
//!
//! Start from [`InvoiceRecord`], everything `reimburse-extraction` reads from one invoice, and
//! its projection [`InvoiceRecord::to_row`] onto the 13-column [`InvoiceRow`] of the invoice
//! table ([`COLUMNS`] names the columns); [`InvoiceRow::with_claimant`] fills the person
//! columns from a [`SessionConfig`]. Amounts are [`Cents`], exact and printable in capitals;
//! the day a claim is judged on is a [`Today`], which the caller makes from its own clock.
//!
//! ```
//! use reimburse_domain::{Cents, InvoiceRecord, LineItem, SessionConfig, Today};
//!
//! let mut record = InvoiceRecord::default();
//! record.invoice_number = "25432000000031411143".into();
//! record.invoice_date = "2025/03/11".into();
//! record.total_with_tax = "655.00".into();
//! record.seller.name = "某某印章公司".into();
//! for name in ["*文具*印章", "*文具*印台"] {
//!     record.items.push(LineItem { name: name.into(), ..LineItem::default() });
//! }
//! let config = SessionConfig {
//!     username: "20231001".into(),
//!     default_name: "张三".into(),
//!     ..SessionConfig::default()
//! };
//! let row = record.to_row(1).with_claimant(&config);
//! assert_eq!(row.item_name, "*文具*印章");
//! assert_eq!(row.remark, "共2项，另含：*文具*印台");
//! assert_eq!((row.person_name.as_str(), row.employee_id.as_str()), ("张三", "20231001"));
//! assert_eq!(row.cells()[5], "655.00"); // 价税合计
//!
//! let total = Cents::parse(&row.total_with_tax).unwrap();
//! assert_eq!(total.to_capital(), "陆佰伍拾伍元整");
//! let issued = Today::from_date(&row.invoice_date).unwrap();
//! assert!(issued <= Today::from(std::time::SystemTime::now()));
//! ```
//!
//! Beside these: the agent flow's states ([`AgentState`], [`AgentSessionState`]), every event
//! the service streams ([`Event`]), the `done` results ([`ProcessResult`], [`SubmitResult`],
//! [`FailureResult`]), session ids ([`SessionId`]), file kinds and names ([`FileKind`],
//! [`sanitize_upload_name`]) and the passwords that cannot be printed ([`Password`]).

#![warn(missing_docs)]

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
