//! What every handler shares: the store, the job runner, the defaults and the SSE watcher.

use crate::middleware::BodySlots;
use crate::sse::{SseSettings, WatchHub};
use crate::{AllowedHosts, BodyLimits};
use domain::SessionConfig;
use pipeline::{DocumentSettings, FinanceSettings, ScreenshotSettings};
use session_store::{JobRunner, Store};
use std::sync::Arc;

/// Application state, cheap to clone into each worker.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The sessions on disk.
    pub store: Store,
    /// The background jobs, at most one per session.
    pub jobs: JobRunner,
    /// The project-wide configuration GET /api/config falls back to.
    pub defaults: Arc<SessionConfig>,
    /// How long a stream lasts and how many a session may have open.
    pub sse: SseSettings,
    /// The outbound-stock template and the LibreOffice converter shared by every session.
    pub documents: DocumentSettings,
    /// The finance system's flow file and the browser to drive it with.
    pub finance: FinanceSettings,
    /// How payment screenshots are read (the language model, if one is configured).
    pub screenshots: ScreenshotSettings,
    /// Host names accepted besides IP addresses and localhost.
    pub allowed_hosts: AllowedHosts,
    /// How long a request body may take, and how many one address may send at once.
    pub bodies: BodyLimits,
    /// Who may do what (`[auth]`).
    pub auth: crate::AuthSettings,
    /// How a phone reaches the service (listen address, `[server] public_url`).
    pub(crate) reach: crate::phone::Reach,
    /// The bodies each client address is sending now.
    pub(crate) body_slots: BodySlots,
    pub(crate) hub: WatchHub,
}

impl AppState {
    /// The state of a service on `store`, with `defaults` for sessions without a
    /// configuration and the settings of its streams and jobs; sign-in off, no host names
    /// beyond addresses and localhost, the default body limits (see the `with_*` methods).
    pub fn new(
        store: Store,
        defaults: SessionConfig,
        sse: SseSettings,
        documents: DocumentSettings,
        finance: FinanceSettings,
        screenshots: ScreenshotSettings,
    ) -> Self {
        Self {
            store: store.clone(),
            jobs: JobRunner::new(),
            defaults: Arc::new(defaults),
            sse,
            documents,
            finance,
            screenshots,
            auth: crate::AuthSettings {
                uploads: Some(auth::UploadTokens::new(
                    store.secret().derive("phone upload token"),
                )),
                ..crate::AuthSettings::default()
            },
            allowed_hosts: AllowedHosts::default(),
            bodies: BodyLimits::default(),
            body_slots: BodySlots::default(),
            reach: crate::phone::Reach::default(),
            hub: WatchHub::new(),
        }
    }

    /// Accepts these host names too (`[server] allowed_hosts`), for access by a DNS name.
    pub fn with_allowed_hosts(mut self, names: impl IntoIterator<Item = String>) -> Self {
        self.allowed_hosts = AllowedHosts::new(names);
        self
    }

    /// Sends phones to this address (`[server] public_url`, e.g. `https://bx.example.edu.cn`)
    /// instead of the one the desktop used.
    pub fn with_public_url(mut self, url: Option<String>) -> Self {
        self.reach.public_url = url
            .map(|u| u.trim().trim_end_matches('/').to_owned())
            .filter(|u| !u.is_empty());
        self
    }

    /// Decides who may do what by these settings (`[auth]`; the upload-token key stays the
    /// data dir's).
    pub fn with_auth(mut self, settings: crate::AuthSettings) -> Self {
        let uploads = self.auth.uploads.take();
        self.auth = crate::AuthSettings {
            uploads,
            ..settings
        };
        self
    }

    /// True when the server listens on an address other machines can reach.
    pub(crate) fn listens_beyond_loopback(&self) -> bool {
        self.reach.listen.is_some_and(|a| !a.ip().is_loopback())
    }

    /// Bounds request bodies by these limits instead of the defaults (`[upload]`).
    pub fn with_body_limits(mut self, limits: BodyLimits) -> Self {
        self.bodies = limits;
        self
    }
}
