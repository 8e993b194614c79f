//! The release `reimburse serve` the benchmarks measure: started on free ports with a
//! temporary data directory, the way `cargo xtask run` starts it.

#![allow(dead_code, reason = "each benchmark uses a part of it")]

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running server; killed when dropped.
pub struct ReleaseServer {
    pub child: Child,
    pub base: String,
    pub client: reqwest::Client,
    /// The server's data directory, removed when dropped.
    pub data_dir: tempfile::TempDir,
}

impl ReleaseServer {
    /// Starts the default set-up (demo portal included, on a free port) and waits until it
    /// answers.
    pub async fn start() -> Self {
        let data_dir = tempfile::tempdir().unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(env!("CARGO_BIN_EXE_reimburse"))
            .args([
                "serve",
                "--addr",
                &format!("127.0.0.1:{port}"),
                "--portal-addr",
                "127.0.0.1:0",
                "--data-dir",
            ])
            .arg(data_dir.path())
            // The workspace root, as `cargo xtask run` starts it: templates/ and flows/ are there.
            .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."))
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let server = Self {
            child,
            base: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::new(),
            data_dir,
        };
        // Any answer, a 404 included, means it is listening.
        while server
            .client
            .get(format!("{}/", server.base))
            .send()
            .await
            .is_err()
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        server
    }

    /// A new session's id.
    pub async fn new_session(&self) -> String {
        let response = self
            .client
            .post(format!("{}/api/session", self.base))
            .send()
            .await
            .unwrap();
        let body: serde_json::Value = response.json().await.unwrap();
        body["session_id"].as_str().unwrap().to_owned()
    }
}

impl Drop for ReleaseServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
