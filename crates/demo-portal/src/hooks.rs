//! Test hooks: artificial delays on chosen pages and a blanket rejection of submissions.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A delay long enough to count as a hang for any bot timeout (one day).
pub const HANG_MS: u64 = 24 * 60 * 60 * 1000;

/// A page (or request) a delay can be put on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Page {
    /// GET and POST /login.
    Login,
    /// GET /portal/home.
    Home,
    /// GET /portal/frame/general.
    GeneralForm,
    /// GET /portal/frame/travel.
    TravelForm,
    /// POST of either form, before anything is read or stored.
    Submit,
    /// GET /portal/frame/claims/{no}: the confirmation after a claim was stored.
    Confirmation,
    /// GET /portal/frame/claims.
    ClaimsList,
}

/// Wait `ms` milliseconds before answering `page`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageDelay {
    /// The page delayed.
    pub page: Page,
    /// The delay in milliseconds.
    pub ms: u64,
}

/// The hooks in force. Empty by default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Hooks {
    /// Delays before answering pages; several on one page add up.
    pub delays: Vec<PageDelay>,
    /// When set, every submission is refused with this message on the form (nothing stored).
    pub reject_all_with: Option<String>,
}

impl Hooks {
    /// Hooks that make `page` never answer (for per-step timeout tests).
    pub fn hang_on(page: Page) -> Self {
        Self {
            delays: vec![PageDelay { page, ms: HANG_MS }],
            reject_all_with: None,
        }
    }

    /// The total delay configured for `page`.
    pub fn delay_for(&self, page: Page) -> Duration {
        let ms = self
            .delays
            .iter()
            .filter(|d| d.page == page)
            .fold(0u64, |sum, d| sum.saturating_add(d.ms));
        Duration::from_millis(ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_add_up_per_page() {
        let hooks = Hooks {
            delays: vec![
                PageDelay {
                    page: Page::Submit,
                    ms: 100,
                },
                PageDelay {
                    page: Page::Home,
                    ms: 7,
                },
                PageDelay {
                    page: Page::Submit,
                    ms: 50,
                },
            ],
            reject_all_with: None,
        };
        assert_eq!(hooks.delay_for(Page::Submit), Duration::from_millis(150));
        assert_eq!(hooks.delay_for(Page::Login), Duration::ZERO);
    }

    #[test]
    fn hooks_json_uses_snake_case_pages() {
        let hooks: Hooks =
            serde_json::from_str(r#"{"delays":[{"page":"general_form","ms":5}]}"#).unwrap();
        assert_eq!(hooks.delay_for(Page::GeneralForm), Duration::from_millis(5));
        assert!(serde_json::from_str::<Hooks>(r#"{"hang":true}"#).is_err());
    }
}
