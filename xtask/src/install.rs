//! Installing the Debian packages the service and its tests use (apt-get as root, else the
//! exact command to run).

use anyhow::{Context, bail};
use std::process::Command;

/// Debian packages, each with a command that proves it is installed. Later features add theirs
/// here (Chromium, LibreOffice, tesseract), so `cargo xtask test` on a fresh machine installs
/// everything in one go.
const PACKAGES: &[(&str, &str)] = &[("ca-certificates", "update-ca-certificates")];

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
        .unwrap_or(false)
}

fn has_command(command: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {command} >/dev/null 2>&1")])
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// Installs whatever of `PACKAGES` is missing.
pub fn ensure_system_packages() -> anyhow::Result<()> {
    let missing: Vec<&str> = PACKAGES
        .iter()
        .filter(|(_, probe)| !has_command(probe))
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
