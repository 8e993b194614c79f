//! The portal's shared state: configuration, live hooks, login sessions and the claims store.

use crate::auth::SessionTable;
use crate::clock::Stamp;
use crate::config::PortalConfig;
use crate::error::PortalError;
use crate::hooks::{Hooks, Page};
use crate::model::{Attachment, Claim, ClaimDetails};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock};

/// Name of the claims file inside `PortalConfig::claims_dir`.
pub const CLAIMS_FILE: &str = "claims.json";

/// Everything the handlers share. Build it with [`PortalState::new`] and hand it to
/// [`crate::configure`] inside `web::Data`, or let [`crate::serve`] do both.
#[derive(Debug)]
pub struct PortalState {
    pub(crate) config: PortalConfig,
    hooks: RwLock<Hooks>,
    pub(crate) sessions: SessionTable,
    claims: Mutex<ClaimStore>,
}

impl PortalState {
    /// Builds the state, reading earlier claims from `claims_dir` when one is configured.
    pub fn new(config: PortalConfig) -> Result<Self, PortalError> {
        let claims = ClaimStore::open(config.claims_dir.as_deref())?;
        Ok(Self {
            hooks: RwLock::new(config.hooks.clone()),
            config,
            sessions: SessionTable::default(),
            claims: Mutex::new(claims),
        })
    }

    /// What the portal was built with.
    pub fn config(&self) -> &PortalConfig {
        &self.config
    }

    /// The hooks in force now.
    pub fn hooks(&self) -> Hooks {
        self.hooks
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Replaces the hooks in force (what `PUT /api/hooks` does).
    pub fn set_hooks(&self, hooks: Hooks) {
        *self.hooks.write().unwrap_or_else(PoisonError::into_inner) = hooks;
    }

    /// Waits as long as the hooks say before answering `page`.
    pub(crate) async fn pause(&self, page: Page) {
        let delay = self.hooks().delay_for(page);
        if !delay.is_zero() {
            tracing::info!(?page, ?delay, "demo portal: artificial delay");
            tokio::time::sleep(delay).await;
        }
    }

    /// Every accepted claim, oldest first.
    pub fn claims(&self) -> Vec<Claim> {
        self.store().claims.clone()
    }

    /// Claims submitted by one account, newest first.
    pub(crate) fn claims_of(&self, employee_no: &str) -> Vec<Claim> {
        let store = self.store();
        store
            .claims
            .iter()
            .rev()
            .filter(|c| c.submitted_by == employee_no)
            .cloned()
            .collect()
    }

    pub(crate) fn claim(&self, claim_no: &str) -> Option<Claim> {
        self.store()
            .claims
            .iter()
            .find(|c| c.claim_no == claim_no)
            .cloned()
    }

    /// Stores a validated claim unless one of its invoice numbers was already claimed.
    pub(crate) fn accept(&self, draft: Draft, now: &Stamp) -> Result<Accepted, PortalError> {
        self.store().accept(draft, now)
    }

    /// Forgets every claim (and empties the claims file); returns how many there were.
    pub fn clear_claims(&self) -> Result<usize, PortalError> {
        self.store().clear()
    }

    /// Back to the start: no claims, nobody logged in, the configured hooks.
    pub fn reset(&self) -> Result<usize, PortalError> {
        let removed = self.clear_claims()?;
        self.sessions.clear();
        self.set_hooks(self.config.hooks.clone());
        Ok(removed)
    }

    fn store(&self) -> MutexGuard<'_, ClaimStore> {
        // A panic while holding the lock cannot leave the Vec half-written, so a poisoned lock
        // is still usable.
        self.claims.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A claim that passed validation, before it has a number.
#[derive(Debug, Clone)]
pub(crate) struct Draft {
    pub submitted_by: String,
    pub details: ClaimDetails,
    pub total: String,
    pub attachments: Vec<Attachment>,
}

/// The outcome of [`PortalState::accept`].
#[derive(Debug)]
pub(crate) enum Accepted {
    Stored(Box<Claim>),
    /// Messages for the invoice numbers that an earlier claim already has.
    Duplicates(Vec<String>),
}

/// The accepted claims, in memory and optionally mirrored to a JSON file.
#[derive(Debug, Default)]
struct ClaimStore {
    claims: Vec<Claim>,
    file: Option<PathBuf>,
}

impl ClaimStore {
    fn open(dir: Option<&Path>) -> Result<Self, PortalError> {
        let Some(dir) = dir else {
            return Ok(Self::default());
        };
        std::fs::create_dir_all(dir)?;
        let file = dir.join(CLAIMS_FILE);
        let claims = match std::fs::read(&file) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|e| PortalError::Load(format!("{}: {e}", file.display())))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(PortalError::Load(format!("{}: {e}", file.display()))),
        };
        Ok(Self {
            claims,
            file: Some(file),
        })
    }

    fn accept(&mut self, draft: Draft, now: &Stamp) -> Result<Accepted, PortalError> {
        let duplicates = self.duplicates(&draft.details);
        if !duplicates.is_empty() {
            return Ok(Accepted::Duplicates(duplicates));
        }
        let claim = Claim {
            claim_no: self.next_number(&now.compact_date),
            created_at: now.rfc3339.clone(),
            submitted_by: draft.submitted_by,
            details: draft.details,
            total: draft.total,
            attachments: draft.attachments,
        };
        self.claims.push(claim.clone());
        if let Err(error) = self.persist() {
            // What is not on disk is not accepted: the next start would not know it.
            self.claims.pop();
            return Err(error);
        }
        Ok(Accepted::Stored(Box::new(claim)))
    }

    fn duplicates(&self, details: &ClaimDetails) -> Vec<String> {
        let mut messages = Vec::new();
        for (row, number) in details.invoice_numbers() {
            let earlier = self.claims.iter().find(|c| {
                c.details
                    .invoice_numbers()
                    .iter()
                    .any(|(_, n)| *n == number)
            });
            if let Some(earlier) = earlier {
                messages.push(format!(
                    "第{row}行：该发票已报销过（发票号码 {number}，报销单号 {}）",
                    earlier.claim_no
                ));
            }
        }
        messages
    }

    /// `BX<date>-<seq>`, the sequence counting the claims of that day from 0001.
    fn next_number(&self, compact_date: &str) -> String {
        let prefix = format!("BX{compact_date}-");
        let last = self
            .claims
            .iter()
            .filter_map(|c| c.claim_no.strip_prefix(&prefix))
            .filter_map(|seq| seq.parse::<u32>().ok())
            .max()
            .unwrap_or(0);
        format!("{prefix}{:04}", last + 1)
    }

    fn clear(&mut self) -> Result<usize, PortalError> {
        let removed = std::mem::take(&mut self.claims);
        if let Err(error) = self.persist() {
            self.claims = removed;
            return Err(error);
        }
        Ok(removed.len())
    }

    /// Rewrites the claims file (temp file and rename, so a crash never leaves half a file).
    fn persist(&self) -> Result<(), PortalError> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let json = serde_json::to_vec_pretty(&self.claims)
            .map_err(|e| PortalError::Persist(std::io::Error::other(e)))?;
        let temp = file.with_extension("json.tmp");
        std::fs::write(&temp, json)?;
        std::fs::rename(&temp, file)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{GeneralForm, GeneralRow};

    fn draft(numbers: &[&str]) -> Draft {
        Draft {
            submitted_by: "100001".into(),
            details: ClaimDetails::General(GeneralForm {
                claimant: "张三".into(),
                rows: numbers
                    .iter()
                    .map(|n| GeneralRow {
                        invoice_number: (*n).into(),
                        ..GeneralRow::default()
                    })
                    .collect(),
                ..GeneralForm::default()
            }),
            total: "1.00".into(),
            attachments: Vec::new(),
        }
    }

    fn stamp(date: &str) -> Stamp {
        Stamp {
            compact_date: date.into(),
            rfc3339: "2026-11-21T10:00:00+08:00".into(),
        }
    }

    #[test]
    fn numbers_count_per_day() {
        let mut store = ClaimStore::default();
        let day = stamp("20261121");
        let Accepted::Stored(a) = store.accept(draft(&["11111111"]), &day).unwrap() else {
            panic!("first claim refused");
        };
        let Accepted::Stored(b) = store.accept(draft(&["22222222"]), &day).unwrap() else {
            panic!("second claim refused");
        };
        let Accepted::Stored(c) = store
            .accept(draft(&["33333333"]), &stamp("20261122"))
            .unwrap()
        else {
            panic!("third claim refused");
        };
        assert_eq!(a.claim_no, "BX20261121-0001");
        assert_eq!(b.claim_no, "BX20261121-0002");
        assert_eq!(c.claim_no, "BX20261122-0001");
    }

    #[test]
    fn a_claimed_invoice_number_is_refused_with_the_earlier_claim() {
        let mut store = ClaimStore::default();
        let day = stamp("20261121");
        store.accept(draft(&["11111111"]), &day).unwrap();
        let Accepted::Duplicates(messages) = store
            .accept(draft(&["22222222", " 11111111 "]), &day)
            .unwrap()
        else {
            panic!("duplicate accepted");
        };
        assert_eq!(
            messages,
            ["第2行：该发票已报销过（发票号码 11111111，报销单号 BX20261121-0001）"]
        );
        assert_eq!(store.claims.len(), 1);
    }

    #[test]
    fn claims_survive_a_restart_through_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = ClaimStore::open(Some(dir.path())).unwrap();
        store
            .accept(draft(&["11111111"]), &stamp("20261121"))
            .unwrap();
        let reopened = ClaimStore::open(Some(dir.path())).unwrap();
        assert_eq!(reopened.claims, store.claims);
        let mut reopened = reopened;
        assert_eq!(reopened.clear().unwrap(), 1);
        assert!(
            ClaimStore::open(Some(dir.path()))
                .unwrap()
                .claims
                .is_empty()
        );
    }
}
