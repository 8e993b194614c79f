//! The crates as a library: `tests/library-user`, a program outside the workspace that
//! depends on the library crates as any other program would, extracts the corpus invoices,
//! classifies them and validates them as one claim judged today. Its findings and judgement
//! must be the service's for the same files (the same issues, the same `can_submit`).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod common;
mod grade;

use common::{json_of, start, workspace};
use grade::corpus_missing;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the outside program with the workspace's lock file (the same dependency versions)
/// in its own target dir, and returns its binary.
fn build_library_user() -> PathBuf {
    let dir = workspace().join("tests/library-user");
    // Copied every time: a lock left from an earlier build would pin old versions.
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let target = workspace().join("target/library-user");
    let status = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(&target)
        .status()
        .unwrap();
    assert!(status.success(), "the outside program does not build");
    target.join("debug/library-user")
}

/// The corpus's invoice files (PDF, OFD, XML), copied into one folder, sorted by name.
fn invoice_folder(corpus: &Path, into: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("pdf" | "ofd" | "xml")
            )
        })
        .collect();
    files.sort();
    std::fs::create_dir_all(into).unwrap();
    for file in &files {
        std::fs::copy(file, into.join(file.file_name().unwrap())).unwrap();
    }
    files
}

/// The service's judgement of the same files: uploaded in name order, the agent run once.
async fn service_report(files: &[PathBuf], data: &Path) -> Value {
    std::fs::create_dir_all(data).unwrap();
    let server = start(data);
    let client = reqwest::Client::new();
    let id = server.create_session(&client).await;
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        server
            .upload(&client, &id, &name, std::fs::read(file).unwrap())
            .await;
    }
    let url = server.url(&format!("/api/agent/process/{id}"));
    let started = client.post(url).json(&json!({})).send().await.unwrap();
    assert_eq!(started.status(), 200, "{}", started.text().await.unwrap());
    server.events_until_done(&id).await;
    let state = json_of(client.get(server.url(&format!("/api/agent/state/{id}")))).await;
    state["validation_reports"]
        .as_array()
        .and_then(|reports| reports.last())
        .cloned()
        .unwrap_or_else(|| panic!("no validation report: {state}"))
}

#[tokio::test]
async fn an_outside_program_judges_the_corpus_as_the_service_does() {
    let Some(corpus) = grade::corpus_dirs().into_iter().next() else {
        return corpus_missing("the library user's comparison");
    };
    let temp = tempfile::tempdir().unwrap();
    let files = invoice_folder(&corpus, &temp.path().join("invoices"));
    let program = build_library_user();
    let output = Command::new(&program)
        .arg(temp.path().join("invoices"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let library: Value = serde_json::from_slice(&output.stdout).unwrap();
    let service = service_report(&files, &temp.path().join("data")).await;

    assert!(
        library["issues"].as_array().is_some_and(|i| !i.is_empty()),
        "a claim with no finance account must have findings: {library}"
    );
    assert_eq!(library["issues"], service["issues"]);
    for key in [
        "can_submit",
        "missing_fields",
        "missing_materials",
        "semantic_issues",
        "notices",
    ] {
        assert_eq!(
            library["judgement"][key], service["judgement"][key],
            "{key}"
        );
    }
}
