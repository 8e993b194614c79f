//! What the agent validates: the invoice table's rows with their class, the configuration,
//! the trip and the materials supplied. Built by the caller from the session; pure data here.

use crate::TravelApplication;
use domain::{InvoiceKind, InvoiceRow, SessionConfig, Today};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One row of the invoice table: its cells by column name (the 13 columns of
/// [`InvoiceRow`] and any a user's table adds; [`ClaimRow::row`] is the typed view), its class
/// and what extraction and the ledger said about it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimRow {
    /// The 13 columns (and any others), by name.
    pub cells: BTreeMap<String, String>,
    /// The invoice's class, which decides the rules that apply to the row.
    pub kind: InvoiceKind,
    /// The passenger a railway or air ticket names, when the row is one.
    #[serde(default)]
    pub passenger: String,
    /// Cells extraction asks the user to check: column → the value it read and why (a source
    /// disagreed, or only OCR, a seal or the QR code gave it).
    #[serde(default)]
    pub review: BTreeMap<String, Review>,
    /// What the claims ledger knows of this invoice (claimed before, the same file, a near
    /// duplicate), looked up by the caller before validation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ledger: Vec<LedgerNote>,
}

/// What the ledger said about a row's invoice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LedgerNote {
    /// What kind of finding it is.
    pub finding: LedgerFinding,
    /// The clerk's words for it: `该发票已于 2026-11-02 在报销单 BX20261102-0003 中报销（张三）`.
    pub detail: String,
}

/// The kinds of ledger finding a rule can ask about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LedgerFinding {
    /// The invoice (its key) is in a claim the portal accepted, or one being submitted.
    Claimed,
    /// The very file (SHA-256) is in such a claim, whatever its name or number.
    SameFile,
    /// Another invoice with the same seller, amount and date is in such a claim.
    NearDuplicate,
}

/// A value extraction flagged, and why.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    /// What extraction put in the cell.
    pub value: String,
    /// Why it needs a look, for the clerk.
    pub reason: String,
}

impl ClaimRow {
    /// A row of the 13 columns, of the given class, with nothing flagged.
    pub fn from_row(row: &InvoiceRow, kind: InvoiceKind) -> Self {
        Self {
            cells: row.keyed(),
            kind,
            ..Self::default()
        }
    }

    /// A cell's text, "" when absent.
    pub fn cell(&self, column: &str) -> &str {
        self.cells.get(column).map_or("", String::as_str)
    }

    /// The 13 columns as typed fields (columns beyond them are left out).
    pub fn row(&self) -> InvoiceRow {
        InvoiceRow::from_lookup(|column| self.cells.get(column).map(String::as_str))
    }
}

/// Everything the rules look at. Built by [`crate::ClaimBuilder`] from extracted invoices, or
/// with [`Claim::new`] and rows of one's own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The invoice table's rows, in table order.
    pub rows: Vec<ClaimRow>,
    /// The session's configuration (the rules ask only whether a field is set; the password is
    /// never read).
    pub config: SessionConfig,
    /// The travel application (trip fields, tickets, hotel stays).
    pub trip: TravelApplication,
    /// Materials supplied so far (`销货清单`, `住宿水单`, …).
    pub materials: Vec<String>,
    /// The day the claim is judged on, for "not later than today".
    pub today: Today,
}

impl Claim {
    /// A claim with no rows yet, judged on `today`.
    pub fn new(config: SessionConfig, today: Today) -> Self {
        Self {
            rows: Vec::new(),
            config,
            trip: TravelApplication::default(),
            materials: Vec::new(),
            today,
        }
    }

    /// Travel only when every row is travel (the interface's flow choice).
    pub fn kind(&self) -> InvoiceKind {
        if !self.rows.is_empty() && self.rows.iter().all(|r| r.kind == InvoiceKind::Travel) {
            InvoiceKind::Travel
        } else {
            InvoiceKind::General
        }
    }
}
