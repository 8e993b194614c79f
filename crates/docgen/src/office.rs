//! Finding LibreOffice and a Python with its UNO bridge, and the small process chores both
//! conversion modes share: waiting with a deadline, killing, log excerpts, file URLs.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::error::DocError;

/// The Debian package that provides what we need: soffice plus the Writer filters, no GUI.
pub const DEBIAN_PACKAGE: &str = "libreoffice-writer-nogui";

/// Exit status of soffice.bin after it created a fresh profile: "start me again". oosplash
/// normally does that; we run soffice.bin ourselves, so we do.
pub const EXIT_RESTART: i32 = 81;

/// A located LibreOffice.
#[derive(Debug, Clone)]
pub struct Office {
    /// The program to run: `soffice.bin` when found, which makes it our direct child so a
    /// timeout kill really ends it. Otherwise a launcher such as `soffice`, whose kill may
    /// leave its soffice.bin running.
    pub program: PathBuf,
}

/// Places LibreOffice is installed by Debian and by the official packages.
const KNOWN_DIRS: [&str; 4] = [
    "/usr/lib/libreoffice/program",
    "/usr/local/lib/libreoffice/program",
    "/opt/libreoffice/program",
    "/usr/lib64/libreoffice/program",
];

/// Finds LibreOffice: `configured` if given, else `soffice`/`libreoffice` on PATH, else the
/// usual install directories.
pub fn locate(configured: Option<&Path>) -> Result<Office, DocError> {
    let candidates: Vec<PathBuf> = match configured {
        Some(path) => vec![path.to_path_buf()],
        None => ["soffice", "libreoffice"]
            .iter()
            .filter_map(|name| which(name))
            .chain(KNOWN_DIRS.iter().map(|dir| Path::new(dir).join("soffice")))
            .collect(),
    };
    for candidate in candidates {
        if !candidate.is_file() {
            continue;
        }
        let resolved = std::fs::canonicalize(&candidate).unwrap_or_else(|_| candidate.clone());
        let bin = if resolved.file_name().is_some_and(|n| n == "soffice.bin") {
            resolved.clone()
        } else {
            resolved.with_file_name("soffice.bin")
        };
        if !bin.is_file() {
            // Some distributions install a wrapper script elsewhere; run it as it is.
            return Ok(Office { program: candidate });
        }
        if let Some(dir) = bin.parent()
            && !dir.join("libswlo.so").is_file()
        {
            return Err(DocError::LibreOfficeMissing(format!(
                "缺少 Writer 组件，请安装 Debian 软件包 {DEBIAN_PACKAGE}"
            )));
        }
        return Ok(Office { program: bin });
    }
    Err(DocError::LibreOfficeMissing(match configured {
        Some(path) => format!(
            "找不到 {}，请安装 Debian 软件包 {DEBIAN_PACKAGE}",
            path.display()
        ),
        None => format!("未找到 soffice，请安装 Debian 软件包 {DEBIAN_PACKAGE}"),
    }))
}

/// Finds a Python that can `import uno` (Debian: python3-uno for /usr/bin/python3; the
/// official packages bundle `program/python`). None when there is none.
pub fn find_uno_python(office: &Office, configured: Option<&Path>) -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    match configured {
        Some(path) => candidates.push(path.to_path_buf()),
        None => {
            if let Some(dir) = office.program.parent() {
                candidates.push(dir.join("python"));
            }
            // The system interpreter first: a PATH python3 may be a virtualenv without uno.
            candidates.push(PathBuf::from("/usr/bin/python3"));
            candidates.extend(which("python3"));
        }
    }
    candidates
        .into_iter()
        .filter(|c| c.is_file())
        .find(|python| imports_uno(python))
}

fn imports_uno(python: &Path) -> bool {
    let child = Command::new(python)
        .args(["-c", "import uno"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match child {
        Ok(mut child) => matches!(
            wait_with_deadline(&mut child, Instant::now() + Duration::from_secs(20)),
            Ok(Some(status)) if status.success()
        ),
        Err(_) => false,
    }
}

/// Searches PATH for an executable file.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// Waits for `child` until `deadline`; `Ok(None)` when it is still running then.
pub fn wait_with_deadline(
    child: &mut Child,
    deadline: Instant,
) -> std::io::Result<Option<ExitStatus>> {
    // Polling is fine here: conversions take tens of milliseconds to seconds.
    let mut pause = Duration::from_millis(2);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(None);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(25));
    }
}

/// Kills `child` and reaps it, ignoring "already exited".
pub fn kill(child: &mut Child) {
    if let Ok(None) = child.try_wait() {
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// The last part of a log file, for error messages: enough to see what LibreOffice said.
pub fn log_excerpt(path: &Path) -> String {
    const MAX_BYTES: u64 = 600;
    let Ok(mut file) = std::fs::File::open(path) else {
        return String::new();
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if file
        .seek(SeekFrom::Start(len.saturating_sub(MAX_BYTES)))
        .is_err()
    {
        return String::new();
    }
    let mut bytes = Vec::new();
    if file.read_to_end(&mut bytes).is_err() {
        return String::new();
    }
    String::from_utf8_lossy(&bytes)
        .lines()
        // This warning appears on every run without Java and explains nothing.
        .filter(|line| !line.contains("javaldx") && !line.trim().is_empty())
        .collect::<Vec<_>>()
        .join(" / ")
}

/// A `file://` URL for a local absolute path, as LibreOffice's `-env:UserInstallation` wants.
pub fn file_url(path: &Path) -> String {
    let mut url = String::from("file://");
    for byte in path.to_string_lossy().bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            url.push(char::from(byte));
        } else {
            url.push_str(&format!("%{byte:02X}"));
        }
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_are_percent_encoded() {
        assert_eq!(
            file_url(Path::new("/tmp/a b/出库")),
            "file:///tmp/a%20b/%E5%87%BA%E5%BA%93"
        );
    }

    #[test]
    fn a_configured_missing_office_names_the_package() {
        let error = locate(Some(Path::new("/nonexistent/soffice"))).unwrap_err();
        assert!(matches!(error, DocError::LibreOfficeMissing(_)));
        assert!(error.to_string().contains(DEBIAN_PACKAGE), "{error}");
    }

    #[test]
    fn log_excerpt_drops_noise() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        std::fs::write(
            &path,
            "Warning: failed to launch javaldx\n\nError: source file could not be loaded\n",
        )
        .unwrap();
        assert_eq!(log_excerpt(&path), "Error: source file could not be loaded");
        assert_eq!(log_excerpt(&dir.path().join("none")), "");
    }
}
