//! `reimburse flow check`: the shipped flow passes; a misspelt key, an unknown variable and a
//! missing flow are each reported with their line, and the exit code fails.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code: a failed step should abort loudly"
)]

mod common;

use std::process::Command;

fn check(path: &std::path::Path) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_reimburse"))
        .args(["flow", "check"])
        .arg(path)
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn the_shipped_flow_passes_and_mistakes_are_named_with_their_lines() {
    let (ok, out) = check(&common::workspace().join("flows/demo-portal.toml"));
    assert!(ok, "{out}");
    assert!(out.contains("流程检查通过"), "{out}");

    let dir = tempfile::tempdir().unwrap();
    let misspelt = dir.path().join("misspelt.toml");
    std::fs::write(
        &misspelt,
        "[portal]\nname = \"x\"\n\n[[flows.general]]\naction = \"click\"\nselecter = \"#a\"\n",
    )
    .unwrap();
    let (ok, out) = check(&misspelt);
    assert!(!ok);
    assert!(
        out.contains("misspelt.toml:") && out.contains("selecter"),
        "{out}"
    );

    let unknown = dir.path().join("unknown.toml");
    std::fs::write(
        &unknown,
        "[portal]\nname = \"x\"\n\n[[flows.general]]\naction = \"fill\"\nselector = \"#a\"\n\
         value = \"{{claim.purpos}}\"\n",
    )
    .unwrap();
    let (ok, out) = check(&unknown);
    assert!(!ok);
    assert!(
        out.contains("unknown.toml:7: ") && out.contains("claim.purpos"),
        "{out}"
    );
    assert!(
        out.contains("[flows.travel]"),
        "a missing flow is named: {out}"
    );
}
