//! `reimburse serve`: opens the data dir, recovers cut-off runs and runs the HTTP service.

use crate::cli::ServeArgs;
use crate::service_config::{DEFAULT_PASSWORD_ENV, ServiceConfig};
use anyhow::Context;
use docgen::{Converter, ConverterConfig};
use http_api::{AppState, SseSettings};
use pipeline::DocumentSettings;
use session_store::{Store, StoreOptions};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let (config, config_path) = ServiceConfig::load(args.config.as_deref(), &args.data_dir)?;
    let max_upload_mib = args.max_upload_mib.unwrap_or(config.upload.max_file_mib);
    let options = StoreOptions {
        max_upload_bytes: max_upload_mib.saturating_mul(1024 * 1024),
    };
    let store = Store::open(&args.data_dir, options)
        .with_context(|| format!("cannot open data dir {}", args.data_dir.display()))?;
    let recovered = store.recover_interrupted_runs()?;
    if !recovered.is_empty() {
        tracing::warn!(
            count = recovered.len(),
            "closed runs cut off by the last shutdown"
        );
    }
    let defaults = config.session_defaults(std::env::var(DEFAULT_PASSWORD_ENV).ok());
    let sse = SseSettings {
        timeout: Duration::from_secs(args.sse_timeout_secs),
        ..SseSettings::default()
    };
    let converter = Arc::new(Converter::new(ConverterConfig {
        mode: config.document.convert_mode()?,
        ..ConverterConfig::default()
    }));
    warm_up_in_background(Arc::clone(&converter));
    let documents = DocumentSettings {
        template: config.document.template.clone(),
        converter,
    };
    if !documents.template.is_file() {
        tracing::warn!(template = %documents.template.display(), "outbound-stock template not found; documents will fail with doc_error");
    }
    let state = AppState::new(store, defaults, sse, documents);
    let listener =
        TcpListener::bind(args.addr).with_context(|| format!("cannot listen on {}", args.addr))?;
    let local = listener.local_addr()?;
    tracing::info!(
        data_dir = %args.data_dir.display(),
        config = %config_path.as_ref().map_or("(built-in defaults)".into(), |p| p.display().to_string()),
        max_upload_mib,
        "reimburse listening on http://{local}"
    );
    let workers = args.workers;
    actix_web::rt::System::new().block_on(async move {
        let server = http_api::serve(listener, state, workers)?;
        server.await
    })?;
    tracing::info!("reimburse stopped");
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
