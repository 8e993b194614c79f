//! Installing the Debian packages the service and its tests use (apt-get as root, else the
//! exact command to run).

use anyhow::{Context, bail};
use std::process::Command;

/// Debian packages the service and its tests use, with why. `cargo xtask test` and
/// `cargo xtask run` install whatever is missing, so a fresh machine needs nothing by hand.
const PACKAGES: &[(&str, &str)] = &[
    ("ca-certificates", "HTTPS to a configured LLM endpoint"),
    (
        "file",
        "tests check that the .doc is a Composite Document File V2",
    ),
    (
        "libreoffice-writer-nogui",
        "converts the filled .docx to a Word 97 .doc",
    ),
    (
        "python3-uno",
        "keeps one LibreOffice warm, so a save converts in ~100 ms",
    ),
    (
        "catdoc",
        "tests read the produced .doc with an independent reader",
    ),
    (
        "chromium",
        "the finance bot's browser; renders the screenshot fixtures",
    ),
    ("chromium-driver", "WebDriver for the finance bot"),
    (
        "fonts-noto-cjk",
        "Chinese text in the browser and in rendered documents",
    ),
    (
        "poppler-utils",
        "pdftoppm renders invoice pages whose text layer is missing or lies, for OCR",
    ),
    (
        "postgresql",
        "the ledger's tests and bench run against a throwaway PostgreSQL cluster",
    ),
    (
        "poppler-data",
        "lets pdftoppm draw the non-embedded Chinese fonts of old invoices",
    ),
];

pub(crate) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
        .unwrap_or(false)
}

fn is_installed(package: &str) -> bool {
    Command::new("dpkg-query")
        .args(["-W", "-f=${Status}", package])
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).contains("install ok installed"))
        .unwrap_or(false)
}

/// Installs whatever of `PACKAGES` is missing.
pub fn ensure_system_packages() -> anyhow::Result<()> {
    let missing: Vec<&str> = PACKAGES
        .iter()
        .filter(|(package, _)| !is_installed(package))
        .map(|(package, _)| *package)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    let install = format!(
        "apt-get install -y --no-install-recommends {}",
        missing.join(" ")
    );
    if !is_root() {
        bail!("missing system packages; run as root:\n  apt-get update && {install}");
    }
    eprintln!("xtask: installing {}", missing.join(" "));
    let update = Command::new("apt-get")
        .arg("update")
        .status()
        .context("apt-get update")?;
    if !update.success() {
        bail!("apt-get update failed");
    }
    let status = Command::new("sh")
        .args(["-c", &install])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .context("apt-get install")?;
    if !status.success() {
        bail!("`{install}` failed");
    }
    Ok(())
}
