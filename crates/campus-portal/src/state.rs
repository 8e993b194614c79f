//! The state every request handler shares.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::claims::ClaimStore;
use crate::config::{Account, CampusConfig, Department};
use crate::sessions::Sessions;

#[derive(Debug)]
pub(crate) struct AppState {
    pub(crate) config: CampusConfig,
    pub(crate) sessions: Sessions,
    claims: Mutex<ClaimStore>,
}

impl AppState {
    pub(crate) fn new(config: CampusConfig) -> Self {
        let claims = Mutex::new(ClaimStore::new(&config));
        Self {
            config,
            sessions: Sessions::default(),
            claims,
        }
    }

    pub(crate) fn account(&self, staff_no: &str) -> Option<&Account> {
        self.config.accounts.iter().find(|a| a.staff_no == staff_no)
    }

    pub(crate) fn department(&self, code: &str) -> Option<&Department> {
        self.config.departments.iter().find(|d| d.code == code)
    }

    /// The claim store; a handler that panicked while holding it left whole claims behind
    /// (every change is one push), so a poisoned lock is still safe to use.
    pub(crate) fn claims(&self) -> MutexGuard<'_, ClaimStore> {
        self.claims.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
