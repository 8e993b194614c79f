//! The release `reimburse serve` the benchmarks measure: started on free ports with a
//! temporary data directory, the way `cargo xtask run` starts it.

#![allow(dead_code, reason = "each benchmark uses a part of it")]

use reqwest::multipart::{Form, Part};
use std::collections::BTreeMap;
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

    /// A new session with these files uploaded (not timed).
    pub async fn session_with_files(&self, files: &[(String, Vec<u8>)]) -> String {
        let id = self.new_session().await;
        for (name, bytes) in files {
            let form = Form::new().part("file", Part::bytes(bytes.clone()).file_name(name.clone()));
            let response = self
                .client
                .post(format!("{}/api/upload/{id}", self.base))
                .multipart(form)
                .send()
                .await
                .unwrap();
            assert!(response.status().is_success(), "upload of {name} failed");
        }
        id
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

/// `wanted` screenshot fixtures, taken round-robin over the screen types so every type is in.
pub fn screenshots(wanted: usize) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/screenshots");
    let mut by_type: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let is_image = path.extension().is_some_and(|e| e == "png" || e == "jpg");
        if !is_image {
            continue;
        }
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let kind = stem
            .rsplit_once('_')
            .map_or(stem.clone(), |(k, _)| k.to_owned());
        by_type.entry(kind).or_default().push(path);
    }
    for list in by_type.values_mut() {
        list.sort();
    }
    let mut picked = Vec::new();
    let mut round = 0;
    while picked.len() < wanted {
        let before = picked.len();
        for list in by_type.values() {
            if let Some(path) = list.get(round)
                && picked.len() < wanted
            {
                picked.push(path.clone());
            }
        }
        assert!(picked.len() > before, "not enough screenshot fixtures");
        round += 1;
    }
    picked
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(p).unwrap())
        })
        .collect()
}
