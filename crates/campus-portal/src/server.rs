//! Running the portal on its own thread and actix runtime, so a test (sync or async) can start
//! one per test on `127.0.0.1:0` and stop it by dropping the handle.

use std::io;
use std::net::TcpListener;
use std::sync::mpsc;
use std::thread::JoinHandle;

use actix_web::dev::ServerHandle;
use actix_web::{App, HttpServer, web};

use crate::config::CampusConfig;
use crate::routes;
use crate::state::AppState;

/// A running portal. Dropping it stops the server and waits for its thread.
#[derive(Debug)]
pub struct CampusThread {
    base_url: String,
    handle: ServerHandle,
    thread: Option<JoinHandle<()>>,
}

impl CampusThread {
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }
}

impl Drop for CampusThread {
    fn drop(&mut self) {
        // `stop` sends its command at once; the returned future only waits for completion,
        // which joining the thread does instead.
        drop(self.handle.stop(false));
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            tracing::warn!("campus portal thread panicked");
        }
    }
}

/// Serves the portal on `listener` from a new thread with its own runtime.
///
/// # Errors
///
/// The listener's address cannot be read, the thread cannot be started, or actix refuses the
/// listener.
pub fn spawn(listener: TcpListener, config: CampusConfig) -> io::Result<CampusThread> {
    let base_url = format!("http://{}", listener.local_addr()?);
    let (started_tx, started_rx) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("campus-portal".to_owned())
        .spawn(move || {
            let system = actix_web::rt::System::new();
            system.block_on(async move {
                let server = match build(listener, config) {
                    Ok(server) => server,
                    Err(error) => {
                        drop(started_tx.send(Err(error)));
                        return;
                    }
                };
                drop(started_tx.send(Ok(server.handle())));
                if let Err(error) = server.await {
                    tracing::error!(%error, "campus portal stopped with an error");
                }
            });
        })?;
    let handle = started_rx
        .recv()
        .map_err(|_| io::Error::other("the campus portal thread ended before serving"))??;
    Ok(CampusThread {
        base_url,
        handle,
        thread: Some(thread),
    })
}

fn build(listener: TcpListener, config: CampusConfig) -> io::Result<actix_web::dev::Server> {
    let test_hooks = config.test_hooks;
    let state = web::Data::new(AppState::new(config));
    let server = HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .configure(|cfg| routes::configure(cfg, test_hooks))
    })
    // Two workers: the machine's core count, and enough for a page's parallel requests.
    .workers(2)
    // Tests start many portals in one process; none may take over the process's signals.
    .disable_signals()
    .shutdown_timeout(1)
    .listen(listener)?
    .run();
    Ok(server)
}
