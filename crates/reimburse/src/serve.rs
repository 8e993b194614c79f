//! `reimburse serve`: opens the data dir, recovers cut-off runs and runs the HTTP service.

use crate::cli::ServeArgs;
use crate::service_config::{DEFAULT_PASSWORD_ENV, ServiceConfig};
use anyhow::Context;
use docgen::{Converter, ConverterConfig};
use finance_bot::{BotOptions, BrowserPool, WebDriverTarget};
use http_api::{AppState, SseSettings};
use pipeline::{DocumentSettings, FinanceSettings, ScreenshotSettings};
use session_store::{Store, StoreOptions};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

pub fn run(mut args: ServeArgs) -> anyhow::Result<()> {
    // Once, here: every component (the browser's file upload among them) needs absolute paths,
    // whatever the user typed.
    args.data_dir = std::path::absolute(&args.data_dir)
        .with_context(|| format!("cannot resolve data dir {}", args.data_dir.display()))?;
    let (config, config_path) = ServiceConfig::load(args.config.as_deref(), &args.data_dir)?;
    let max_upload_mib = args.max_upload_mib.unwrap_or(config.upload.max_file_mib);
    let options = StoreOptions {
        max_upload_bytes: max_upload_mib.saturating_mul(1024 * 1024),
    };
    let store = Store::open(&args.data_dir, options)
        .with_context(|| format!("cannot open data dir {}", args.data_dir.display()))?;
    let work_dir = args.data_dir.join("tmp");
    clean_crash_leftovers(&store, &work_dir)?;
    let recovered = store.recover_interrupted_runs()?;
    if !recovered.is_empty() {
        tracing::warn!(
            count = recovered.len(),
            "closed runs cut off by the last shutdown"
        );
    }
    for id in &recovered {
        let settled = store
            .session(id.as_str())
            .map_err(|e| e.to_string())
            .and_then(|session| pipeline::recover_agent_state(&session).map_err(|e| e.to_string()));
        if let Err(error) = settled {
            tracing::error!(session = %id, "cannot settle the agent state of a cut-off run: {error}");
        }
    }
    let ledger = open_ledger(&config.database, &args.data_dir)?;
    // After the runs are closed: their result.json says what the portal accepted.
    match pipeline::reconcile_ledger(&store, &ledger) {
        Ok(0) => {}
        Ok(count) => tracing::warn!(count, "settled claims a crash left pending in the ledger"),
        Err(error) => tracing::error!("cannot reconcile the claims ledger: {error}"),
    }
    let defaults = config.session_defaults(std::env::var(DEFAULT_PASSWORD_ENV).ok());
    let sse = SseSettings {
        timeout: Duration::from_secs(args.sse_timeout_secs),
        ..SseSettings::default()
    };
    let converter = Arc::new(Converter::new(ConverterConfig {
        mode: config.document.convert_mode()?,
        work_dir: Some(work_dir.clone()),
        ..ConverterConfig::default()
    }));
    warm_up_in_background(Arc::clone(&converter));
    let documents = DocumentSettings {
        template: config.document.template.clone(),
        converter,
        package_template: config.document.package_template.clone(),
        institution: config.document.institution.clone(),
    };
    if let Some(template) = &documents.package_template
        && !template.is_file()
    {
        tracing::warn!(template = %template.display(), "printed-claim template not found; packages will fail with package_error");
    }
    if !documents.template.is_file() {
        tracing::warn!(template = %documents.template.display(), "outbound-stock template not found; documents will fail with doc_error");
    }
    // Kept alive until the service stops; dropping it stops the portal.
    let portal = start_demo_portal(&args)?;
    let mut finance = finance_settings(&config.finance, portal.as_ref(), &work_dir);
    finance.ledger = Some(ledger);
    tracing::info!(
        flow = %finance.flow.display(),
        browsers = finance.browsers.size(),
        portal = %finance.options.base_url.as_deref().unwrap_or("(the flow's base_url)"),
        "finance submission"
    );
    let llm = config.llm.client()?.map(Arc::new);
    tracing::info!(
        model = %llm.as_ref().map_or("(none: offline OCR and rules)".to_owned(), |c| c.config().vision_model.clone()),
        "payment screenshots"
    );
    match pipeline::offline_ocr_ready() {
        Ok(()) => tracing::info!(
            ocr = "PP-OCRv4 (in process)",
            "payment screenshots without a model"
        ),
        Err(error) => tracing::warn!(
            "offline OCR unavailable ({error}); without a model screenshots will fail (run: cargo xtask install)"
        ),
    }
    let screenshots = ScreenshotSettings { llm };
    let bodies = config.upload.body_limits();
    let auth = config.auth.settings(&config.server.public_url)?;
    let state = AppState::new(store, defaults, sse, documents, finance, screenshots)
        .with_auth(auth.clone())
        .with_allowed_hosts(config.server.allowed_hosts.iter().cloned())
        .with_public_url(Some(config.server.public_url.clone()))
        .with_body_limits(bodies);
    let listener =
        TcpListener::bind(args.addr).with_context(|| format!("cannot listen on {}", args.addr))?;
    let local = listener.local_addr()?;
    if !auth.signs_in() && !local.ip().is_loopback() {
        tracing::warn!(
            "sign-in is off ([auth] mode = none) while listening on {local}: anyone on the network can open every session; set [auth] mode = \"proxy\" or \"local\" (docs/auth.md)"
        );
    }
    tracing::info!(mode = auth.mode.as_str(), "sign-in");
    tracing::info!(
        data_dir = %args.data_dir.display(),
        config = %config_path.as_ref().map_or("(built-in defaults)".into(), |p| p.display().to_string()),
        max_upload_mib,
        body_deadline_base_secs = bodies.deadline_base.as_secs(),
        body_min_rate_kib_per_sec = bodies.min_rate_kib,
        bodies_per_address = bodies.per_address,
        "reimburse listening on http://{local}"
    );
    let workers = args.workers;
    http_api::run(listener, state, workers)?;
    // A submission or conversion still running when the server stopped dies with this
    // process, but its browser (a grandchild) would not, and neither would their folders.
    let browsers = finance_bot::reap_leftovers(&work_dir);
    if browsers.processes > 0 {
        tracing::warn!(
            processes = browsers.processes,
            "stopped the browsers of unfinished submissions"
        );
    }
    // LibreOffice dies with this process, but its pipe sockets in /tmp would stay.
    docgen::reap_leftovers(&work_dir);
    tracing::info!("reimburse stopped");
    Ok(())
}

/// Removes what a crash of the last run left: half-written uploads and files in the sessions,
/// the LibreOffice it started with its scratch folders, and its browsers with their run
/// folders.
fn clean_crash_leftovers(store: &Store, work_dir: &std::path::Path) -> anyhow::Result<()> {
    let files = store.remove_crash_leftovers()?;
    let reaped = docgen::reap_leftovers(work_dir);
    let browsers = finance_bot::reap_leftovers(work_dir);
    if files
        + reaped.processes
        + reaped.directories
        + reaped.pipes
        + browsers.processes
        + browsers.directories
        > 0
    {
        tracing::warn!(
            files,
            libreoffice_processes = reaped.processes,
            scratch_dirs = reaped.directories,
            pipes = reaped.pipes,
            browser_processes = browsers.processes,
            browser_dirs = browsers.directories,
            "removed what the last run left behind"
        );
    }
    Ok(())
}

/// Starts LibreOffice ahead of the first save, so that one is fast too. A failure here only
/// means conversions start cold; each save then reports its own error if there is one.
fn warm_up_in_background(converter: Arc<Converter>) {
    let spawned = std::thread::Builder::new()
        .name("docgen-warm-up".into())
        .spawn(move || {
            if let Err(error) = converter.warm_up() {
                tracing::warn!("LibreOffice not warmed up: {error}");
            }
        });
    if let Err(error) = spawned {
        tracing::warn!("cannot start the LibreOffice warm-up: {error}");
    }
}

/// The built-in demo finance portal, on its own port, its claims kept in the data dir so the
/// double-claim check survives a restart.
fn start_demo_portal(args: &ServeArgs) -> anyhow::Result<Option<demo_portal::PortalThread>> {
    if args.no_portal {
        return Ok(None);
    }
    let listener = TcpListener::bind(args.portal_addr).with_context(|| {
        format!(
            "cannot start the demo finance portal on {} (use --portal-addr or --no-portal)",
            args.portal_addr
        )
    })?;
    let config = demo_portal::PortalConfig {
        claims_dir: Some(args.data_dir.join("demo-portal")),
        ..demo_portal::PortalConfig::default()
    };
    let portal =
        demo_portal::spawn(listener, config).context("cannot start the demo finance portal")?;
    tracing::info!(
        "demo finance portal on {} (工号 {}, 密码 {})",
        portal.base_url(),
        demo_portal::DEMO_EMPLOYEE_NO,
        demo_portal::DEMO_PASSWORD
    );
    Ok(Some(portal))
}

/// The claims ledger: `[database] url` (or `REIMBURSE_DATABASE_URL`), else SQLite in the data
/// dir, created and migrated here.
pub(crate) fn open_ledger(
    config: &crate::service_config::Database,
    data_dir: &std::path::Path,
) -> anyhow::Result<ledger::Ledger> {
    let url = std::env::var(DATABASE_URL_ENV)
        .ok()
        .filter(|u| !u.trim().is_empty())
        .unwrap_or_else(|| config.url.clone());
    let ledger = if url.trim().is_empty() {
        ledger::Ledger::open_sqlite(&data_dir.join(LEDGER_FILE))
    } else {
        ledger::Ledger::open(url.trim())
    }
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    tracing::info!(backend = ?ledger.backend(), "claims ledger");
    Ok(ledger)
}

/// The embedded ledger's file in the data dir.
const LEDGER_FILE: &str = "ledger.sqlite3";
/// Environment variable overriding `[database] url`.
const DATABASE_URL_ENV: &str = "REIMBURSE_DATABASE_URL";

/// The configured finance system, else the built-in demo portal when it runs.
fn finance_settings(
    config: &crate::service_config::Finance,
    portal: Option<&demo_portal::PortalThread>,
    work_dir: &std::path::Path,
) -> FinanceSettings {
    let base_url = if config.base_url.is_empty() {
        portal.map(demo_portal::PortalThread::base_url)
    } else {
        Some(config.base_url.clone())
    };
    let webdriver = if config.webdriver_url.is_empty() {
        WebDriverTarget::Local {
            chromedriver_path: config.chromedriver.clone(),
            chromium_path: config.chromium.clone(),
        }
    } else {
        WebDriverTarget::Remote {
            url: config.webdriver_url.clone(),
        }
    };
    FinanceSettings {
        flow: config.flow.clone(),
        options: BotOptions {
            webdriver,
            base_url,
            step_timeout: Duration::from_secs(config.step_timeout_secs.max(1)),
            // The browser's profile, temporary files and log stay in the data dir, where the
            // next start finds what a crash left (never in /tmp).
            work_dir: Some(work_dir.to_path_buf()),
            ..BotOptions::default()
        },
        browsers: match config.max_browsers {
            0 => BrowserPool::default(),
            size => BrowserPool::new(size),
        },
        challenges: pipeline::Challenges::default(),
        ledger: None,
    }
}
