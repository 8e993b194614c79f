//! What to file: the claim kind, the session's credentials and defaults, the invoice rows, the
//! files to attach and free key-values for the flow.

use domain::SessionConfig;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Which form of the portal a claim goes to, and so which step list of the flow file runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimKind {
    /// 日常报销.
    General,
    /// 差旅报销.
    Travel,
}

impl ClaimKind {
    /// Key under `[flows]` in a flow file.
    pub fn key(self) -> &'static str {
        match self {
            Self::General => "general",
            Self::Travel => "travel",
        }
    }

    /// Name for messages.
    pub fn label(self) -> &'static str {
        match self {
            Self::General => "日常报销",
            Self::Travel => "差旅报销",
        }
    }
}

/// Everything one submission needs. The flow sees it as variables: `config.*`, `row.*` (inside
/// `repeat_for_each_row`), `files.invoices`, `files.outbound_doc` and `claim.*` (from `extra`).
#[derive(Debug, Clone)]
pub struct Submission {
    /// Which kind of claim, and so which step list runs.
    pub kind: ClaimKind,
    /// Credentials and defaults; the password is only ever typed, never shown.
    pub config: SessionConfig,
    /// One map per invoice row, keyed by the invoice table's column names (`发票号码`, …) plus
    /// any extra keys the flow uses (`expense_type` / `kind` for travel rows).
    pub rows: Vec<BTreeMap<String, String>>,
    /// The files to attach.
    pub files: SubmissionFiles,
    /// `claim.<key>` variables: purpose, origin, department, …
    pub extra: BTreeMap<String, String>,
}

/// Files to attach, as absolute paths.
#[derive(Debug, Clone, Default)]
pub struct SubmissionFiles {
    /// The invoice files as issued, PDF, OFD or XML (`files.invoices`, one path per line).
    pub invoices: Vec<PathBuf>,
    /// The outbound-stock document (`files.outbound_doc`, empty when there is none).
    pub outbound_doc: Option<PathBuf>,
}

impl Submission {
    /// A claim of `kind` with no rows, files or extra variables yet.
    pub fn new(kind: ClaimKind, config: SessionConfig) -> Self {
        Self {
            kind,
            config,
            rows: Vec::new(),
            files: SubmissionFiles::default(),
            extra: BTreeMap::new(),
        }
    }
}
