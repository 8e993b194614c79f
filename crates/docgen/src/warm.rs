//! A warm LibreOffice: one long-lived headless soffice listening on a private UNO pipe, driven
//! by a small Python helper (`warm_helper.py`) that loads and stores documents on request.
//! Starting LibreOffice costs about a second; a conversion through a running one costs tens
//! of milliseconds, which is what keeps saving the invoice table fast.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::lifetime;
use crate::office::{self, EXIT_RESTART, Office};

const HELPER: &str = include_str!("warm_helper.py");

/// How often a fresh profile may make soffice.bin ask for a restart before we give up.
const MAX_RESTARTS: u32 = 3;

/// Why the warm office could not do a conversion.
#[derive(Debug)]
pub enum WarmError {
    /// The Python helper has no `uno` module: warm mode is not possible here.
    NoUno(String),
    /// LibreOffice or the helper did not come up.
    Start(String),
    /// The process died (crash, killed): restart and try again.
    Died,
    /// No answer in time; both processes have been killed.
    Timeout,
    /// LibreOffice answered that it could not convert this document.
    Failed(String),
}

/// Messages of the helper on its stdout.
#[derive(Debug, Deserialize)]
struct Answer {
    #[serde(default)]
    ready: bool,
    #[serde(default)]
    ok: bool,
    fatal: Option<String>,
    detail: Option<String>,
    error: Option<String>,
}

/// A running soffice plus its helper. Dropping it shuts both down.
#[derive(Debug)]
pub struct WarmOffice {
    soffice: Child,
    helper: Child,
    requests: Option<ChildStdin>,
    answers: Receiver<String>,
    reader: Option<JoinHandle<()>>,
    pipe_name: String,
    soffice_log: PathBuf,
    helper_log: PathBuf,
    conversions: u64,
}

impl WarmOffice {
    /// Starts soffice on a pipe unique to this process and connects the helper to it, which
    /// then preloads the document filters. `profile` is a LibreOffice user profile directory
    /// that nothing else uses; `scratch` holds logs and the preload documents.
    pub fn start(
        office: &Office,
        python: &Path,
        profile: &Path,
        scratch: &Path,
        startup: Duration,
    ) -> Result<Self, WarmError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let pipe_name = format!(
            "docgen-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let soffice_log = scratch.join("warm-soffice.log");
        let helper_log = scratch.join("warm-helper.log");
        let deadline = Instant::now() + startup;

        let mut soffice = spawn_soffice(office, profile, &pipe_name, &soffice_log)
            .map_err(|e| WarmError::Start(format!("无法启动 LibreOffice（{e}）")))?;
        let mut helper = Command::new(python);
        helper
            .arg("-c")
            .arg(HELPER)
            .arg(&pipe_name)
            .arg(startup.as_secs_f64().to_string())
            .arg(scratch)
            .env("TMPDIR", scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log_file(&helper_log));
        let helper = lifetime::spawn(helper);
        let mut helper = match helper {
            Ok(helper) => helper,
            Err(e) => {
                office::kill(&mut soffice);
                return Err(WarmError::Start(format!("无法启动 Python（{e}）")));
            }
        };
        let requests = helper.stdin.take();
        let (sender, answers) = mpsc::channel();
        let reader = helper.stdout.take().map(|stdout| {
            std::thread::spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            })
        });
        let mut warm = WarmOffice {
            soffice,
            helper,
            requests,
            answers,
            reader,
            pipe_name,
            soffice_log,
            helper_log,
            conversions: 0,
        };
        warm.wait_ready(office, profile, deadline)?;
        Ok(warm)
    }

    fn wait_ready(
        &mut self,
        office: &Office,
        profile: &Path,
        deadline: Instant,
    ) -> Result<(), WarmError> {
        let mut restarts = 0;
        loop {
            match self.answers.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => {
                    let answer: Answer = serde_json::from_str(&line)
                        .map_err(|_| WarmError::Start(format!("辅助进程输出无法识别：{line}")))?;
                    if answer.ready {
                        return Ok(());
                    }
                    let detail = answer.detail.unwrap_or_default();
                    return Err(match answer.fatal.as_deref() {
                        Some("no-uno") => WarmError::NoUno(detail),
                        _ => WarmError::Start(format!("无法连接 LibreOffice（{detail}）")),
                    });
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(WarmError::Start(format!(
                        "辅助进程退出：{}",
                        office::log_excerpt(&self.helper_log)
                    )));
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
            if Instant::now() >= deadline {
                return Err(WarmError::Start("LibreOffice 启动超时".to_owned()));
            }
            if let Ok(Some(status)) = self.soffice.try_wait() {
                if status.code() == Some(EXIT_RESTART) && restarts < MAX_RESTARTS {
                    restarts += 1;
                    self.soffice =
                        spawn_soffice(office, profile, &self.pipe_name, &self.soffice_log)
                            .map_err(|e| {
                                WarmError::Start(format!("无法启动 LibreOffice（{e}）"))
                            })?;
                    continue;
                }
                return Err(WarmError::Start(format!(
                    "LibreOffice 退出（{status}）：{}",
                    office::log_excerpt(&self.soffice_log)
                )));
            }
        }
    }

    /// Converts `input` to `output` with the LibreOffice export filter `filter`.
    pub fn convert(
        &mut self,
        input: &Path,
        output: &Path,
        filter: &str,
        timeout: Duration,
    ) -> Result<(), WarmError> {
        if !matches!(self.soffice.try_wait(), Ok(None)) {
            return Err(WarmError::Died);
        }
        let request = serde_json::json!({
            "op": "convert",
            "in": input.to_string_lossy(),
            "out": output.to_string_lossy(),
            "filter": filter,
        });
        let Some(requests) = self.requests.as_mut() else {
            return Err(WarmError::Died);
        };
        if writeln!(requests, "{request}")
            .and_then(|()| requests.flush())
            .is_err()
        {
            return Err(WarmError::Died);
        }
        match self.answers.recv_timeout(timeout) {
            Ok(line) => {
                self.conversions += 1;
                match serde_json::from_str::<Answer>(&line) {
                    Ok(answer) if answer.ok => Ok(()),
                    Ok(answer) => Err(WarmError::Failed(answer.error.unwrap_or(line))),
                    Err(_) => Err(WarmError::Failed(line)),
                }
            }
            Err(RecvTimeoutError::Disconnected) => Err(WarmError::Died),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(WarmError::Timeout)
            }
        }
    }

    /// Conversions done so far; the owner recycles the process after many, since a
    /// long-running LibreOffice slowly grows.
    pub fn conversions(&self) -> u64 {
        self.conversions
    }

    /// Process id of soffice, for tests that kill it to check the restart.
    pub fn pid(&self) -> u32 {
        self.soffice.id()
    }

    /// Ends both processes at once.
    fn kill(&mut self) {
        self.requests = None;
        office::kill(&mut self.helper);
        office::kill(&mut self.soffice);
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        remove_pipe_files(&self.pipe_name);
    }
}

impl Drop for WarmOffice {
    /// Asks LibreOffice to exit cleanly (it then removes its pipe), and kills what is still
    /// running after a short grace period.
    fn drop(&mut self) {
        if let Some(mut requests) = self.requests.take() {
            let _ = writeln!(requests, r#"{{"op":"quit"}}"#);
        }
        let grace = Instant::now() + Duration::from_secs(3);
        let _ = office::wait_with_deadline(&mut self.helper, grace);
        let _ = office::wait_with_deadline(&mut self.soffice, grace);
        self.kill();
    }
}

fn spawn_soffice(
    office: &Office,
    profile: &Path,
    pipe_name: &str,
    log: &Path,
) -> std::io::Result<Child> {
    let mut command = Command::new(&office.program);
    command
        .args([
            "--headless",
            "--invisible",
            "--nologo",
            "--norestore",
            "--nodefault",
            "--nolockcheck",
        ])
        .arg(format!(
            "-env:UserInstallation={}",
            office::file_url(profile)
        ))
        .arg(format!(
            "--accept=pipe,name={pipe_name};urp;StarOffice.ComponentContext"
        ))
        // Its temporary folders (lu*.tmp) go to the scratch directory and away with it.
        .env("TMPDIR", log.parent().unwrap_or(profile))
        .stdin(Stdio::null())
        .stdout(log_file(log))
        .stderr(log_file(log));
    let child = lifetime::spawn(command)?;
    // The log lives in the scratch directory, which is where the pid is recorded.
    if let Some(scratch) = log.parent() {
        lifetime::record(scratch, child.id());
    }
    Ok(child)
}

/// A log file for a child's output, or nowhere if it cannot be created.
fn log_file(path: &Path) -> Stdio {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_or_else(|_| Stdio::null(), Stdio::from)
}

/// LibreOffice's named pipes are sockets in /tmp named `OSL_PIPE_<uid>_<name>`; a killed
/// soffice leaves its one behind.
fn remove_pipe_files(pipe_name: &str) {
    let Ok(entries) = std::fs::read_dir("/tmp") else {
        return;
    };
    let suffix = format!("_{pipe_name}");
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("OSL_PIPE_") && name.ends_with(&suffix) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Removes LibreOffice's pipe sockets in /tmp (`OSL_PIPE_<uid>_…`, ours by their owner) that
/// nothing listens on any more: the warm converters' `docgen-<pid>-<n>` pipes and each
/// profile's `SingleOfficeIPC_<hash>` pipe that a killed or stopped soffice left behind.
/// LibreOffice always puts them in /tmp, whatever `TMPDIR` says. A live LibreOffice (ours or
/// another program's) accepts the connection and keeps its pipe.
pub(crate) fn remove_orphan_pipes() -> usize {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir("/tmp") else {
        return 0;
    };
    let Ok(own_uid) = std::fs::metadata("/proc/self").map(|m| m.uid()) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let ours = name.to_str().is_some_and(|n| n.starts_with("OSL_PIPE_"))
            && entry.metadata().is_ok_and(|m| m.uid() == own_uid);
        if !ours {
            continue;
        }
        let refused = match std::os::unix::net::UnixStream::connect(entry.path()) {
            Ok(_) => false,
            Err(error) => error.kind() == std::io::ErrorKind::ConnectionRefused,
        };
        if refused && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}
