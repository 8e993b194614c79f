//! Running the portal on a thread of its own, for a process that is not an actix application
//! itself (the `reimburse` binary starts it beside the service this way).

use crate::PortalConfig;
use actix_web::dev::ServerHandle;
use std::net::{SocketAddr, TcpListener};
use std::sync::mpsc;
use std::thread::JoinHandle;

/// A portal running on its own thread; dropping it stops the portal and joins the thread.
#[derive(Debug)]
pub struct PortalThread {
    address: SocketAddr,
    handle: ServerHandle,
    thread: Option<JoinHandle<()>>,
}

impl PortalThread {
    /// Where the portal listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Its base URL, e.g. `http://127.0.0.1:8090`.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.address)
    }
}

/// Starts the portal on `listener` in a new thread with its own runtime.
pub fn spawn(listener: TcpListener, config: PortalConfig) -> std::io::Result<PortalThread> {
    let address = listener.local_addr()?;
    let (sender, receiver) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("demo-portal".into())
        .spawn(move || {
            let system = actix_web::rt::System::new();
            system.block_on(async move {
                match crate::serve(listener, config) {
                    Ok(server) => {
                        let _ = sender.send(Ok(server.handle()));
                        if let Err(error) = server.await {
                            tracing::error!("demo portal stopped: {error}");
                        }
                    }
                    Err(error) => {
                        let _ = sender.send(Err(error));
                    }
                }
            });
        })?;
    let handle = receiver
        .recv()
        .map_err(|_| std::io::Error::other("demo portal thread ended before starting"))??;
    Ok(PortalThread {
        address,
        handle,
        thread: Some(thread),
    })
}

impl Drop for PortalThread {
    fn drop(&mut self) {
        // `stop` returns a future that completes when the server is down; the server's own
        // thread drives it, so it is enough to ask and then join that thread.
        drop(self.handle.stop(false));
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serves_until_dropped() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let portal = spawn(listener, PortalConfig::default()).unwrap();
        let address = portal.address();
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        use std::io::{Read, Write};
        write!(
            stream,
            "GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        assert!(response.starts_with("HTTP/1.1 200"), "{response}");
        drop(portal);
        assert!(
            std::net::TcpStream::connect(address).is_err(),
            "stopped after drop"
        );
    }
}
