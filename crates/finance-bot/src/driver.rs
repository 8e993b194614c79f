//! The browser's lifetime: a chromedriver child process (or a remote WebDriver such as Selenium
//! Grid), one Chromium session with a throw-away profile, and a guard that closes both on
//! success, failure, timeout and panic.
//!
//! Everything a local browser writes stays in its run directory (mode 0700, under the
//! service's work dir): the profile, Chromium's temporary files (`TMPDIR` points there) and
//! chromedriver's log, which is 0600 and kept at warning level because at info level it holds
//! every command, the typed password included. chromedriver dies with the service and Chromium
//! with chromedriver (parent-death signals), and [`reap_leftovers`] kills whatever a `kill -9`
//! still left (every Chromium process carries the run directory in its environment) and
//! removes the directories.

use rustix::process::{Pid, Signal, kill_process_group};
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;
use thirtyfour::{
    CapabilitiesHelper, ChromiumLikeCapabilities, DesiredCapabilities, LoggingPrefsLogLevel,
    WebDriver,
};

/// Chromium switches every session gets. Without the background-networking ones Chromium's
/// own connections are refused on a closed network and slow everything down. No crash
/// reporter: a crash dump holds the page's memory, the typed password included, and its
/// handler outlives the browser outside the run directory.
pub const CHROMIUM_ARGS: [&str; 12] = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--no-default-browser-check",
    "--window-size=1366,1000",
    "--disable-crash-reporter",
    "--disable-breakpad",
];

/// Where the WebDriver comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebDriverTarget {
    /// Start this chromedriver on a free local port, driving this Chromium.
    Local {
        /// The chromedriver binary.
        chromedriver_path: PathBuf,
        /// The Chromium binary.
        chromium_path: PathBuf,
    },
    /// Use a running WebDriver server (e.g. `http://grid:4444`); nothing is spawned.
    Remote {
        /// The server's address.
        url: String,
    },
}

impl Default for WebDriverTarget {
    /// Debian's packages: `chromium` and `chromium-driver`.
    fn default() -> Self {
        Self::Local {
            chromedriver_path: PathBuf::from("/usr/bin/chromedriver"),
            chromium_path: PathBuf::from("/usr/bin/chromium"),
        }
    }
}

/// Prefix of the run directories browsers get in the work dir.
const RUN_DIR_PREFIX: &str = "finance-bot-";

/// How long a session may take to quit before the processes are killed outright.
const QUIT_TIMEOUT: Duration = Duration::from_secs(5);
/// How often a starting chromedriver is asked whether it is ready.
const STATUS_POLL: Duration = Duration::from_millis(50);

/// A running browser session. [`Browser::close`] ends it politely; dropping it without that
/// (a panic, a cancelled future) still kills chromedriver and Chromium.
#[derive(Debug)]
pub struct Browser {
    driver: Option<WebDriver>,
    process: Option<DriverProcess>,
    /// Holds Chromium's profile; removed after the processes are gone.
    run_dir: Option<TempDir>,
}

impl Browser {
    /// Starts chromedriver if local, then a Chromium session. Errors are Chinese messages.
    pub async fn start(
        target: &WebDriverTarget,
        headless: bool,
        work_dir: Option<&Path>,
        startup_timeout: Duration,
        request_timeout: Duration,
    ) -> Result<Self, String> {
        let mut caps = DesiredCapabilities::chrome();
        // The page's errors (failed loads, uncaught exceptions) are kept in memory for
        // `browser_log`; nothing the page merely logs.
        caps.set_logging_prefs("browser", LoggingPrefsLogLevel::Severe)
            .map_err(|e| format!("浏览器参数无效：{e}"))?;
        // A page's confirm()/alert() stays open until a step handles it: an expected one is
        // accepted by `accept_dialog`, an unexpected one ends the step with its text (the
        // default would dismiss it unseen, and a refused claim would wait for a timeout).
        caps.set("unhandledPromptBehavior", "ignore")
            .map_err(|e| format!("浏览器参数无效：{e}"))?;
        let mut args: Vec<String> = CHROMIUM_ARGS.iter().map(|a| (*a).to_owned()).collect();
        if headless {
            args.insert(0, "--headless=new".to_owned());
        }
        let mut browser = Self {
            driver: None,
            process: None,
            run_dir: None,
        };
        let url = match target {
            WebDriverTarget::Remote { url } => url.clone(),
            WebDriverTarget::Local {
                chromedriver_path,
                chromium_path,
            } => {
                let run_dir = make_run_dir(work_dir)?;
                let profile = run_dir.path().join("profile");
                args.push(format!("--user-data-dir={}", profile.display()));
                let binary = tied_to_driver(chromium_path, run_dir.path());
                caps.set_binary(&binary.display().to_string())
                    .map_err(|e| format!("浏览器参数无效：{e}"))?;
                let log = run_dir.path().join("chromedriver.log");
                let process = DriverProcess::spawn(chromedriver_path, &log, run_dir.path())?;
                let url = format!("http://127.0.0.1:{}", process.port);
                browser.process = Some(process);
                browser.run_dir = Some(run_dir);
                if let Some(process) = browser.process.as_mut() {
                    process.wait_ready(startup_timeout).await?;
                }
                url
            }
        };
        for arg in &args {
            caps.add_arg(arg)
                .map_err(|e| format!("浏览器参数无效：{e}"))?;
        }
        let connect = WebDriver::builder(url.as_str(), caps).request_timeout(request_timeout);
        let driver = tokio::time::timeout(startup_timeout, connect)
            .await
            .map_err(|_| {
                format!(
                    "启动浏览器超时（{}秒）",
                    startup_timeout.as_secs_f64().ceil()
                )
            })?
            .map_err(|e| format!("无法启动浏览器（WebDriver {url}）：{}", short_error(&e)))?;
        browser.driver = Some(driver);
        Ok(browser)
    }

    /// The session; `None` only after [`Browser::close`].
    pub fn driver(&self) -> Option<&WebDriver> {
        self.driver.as_ref()
    }

    /// Quits the session (closing the browser), then makes sure every process is gone and
    /// removes the profile.
    pub async fn close(mut self) {
        if let Some(driver) = self.driver.take() {
            let quitting = driver.clone();
            if tokio::time::timeout(QUIT_TIMEOUT, quitting.quit())
                .await
                .is_err()
            {
                tracing::warn!("WebDriver 会话未能按时退出，强制结束浏览器");
            }
            // After a quit that timed out, stop thirtyfour's blocking teardown on drop: the
            // processes are killed below instead.
            let _ = driver.leak();
        }
        self.kill_processes();
    }

    /// Ends everything at once without talking to the session (it is stuck in a command that
    /// will not return in time): kills local processes; a remote session is left to the
    /// server's own timeout.
    pub fn abandon(mut self) {
        if let Some(driver) = self.driver.take() {
            let _ = driver.leak();
        }
        self.kill_processes();
    }

    fn kill_processes(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
            if let Some(run_dir) = &self.run_dir {
                // Gone before the caller frees its pool slot: the pool's bound is real.
                child_lifetime::kill_marked_and_wait(
                    &run_dir.path().display().to_string(),
                    QUIT_TIMEOUT,
                );
            }
        }
        if let Some(run_dir) = self.run_dir.take()
            && let Err(e) = run_dir.close()
        {
            tracing::warn!("无法删除浏览器临时目录：{e}");
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(driver) = self.driver.take() {
            if self.process.is_some() {
                // The processes die right below; a polite quit would only block.
                let _ = driver.leak();
            } else {
                // Remote: thirtyfour's drop ends the session on its own thread.
                drop(driver);
            }
        }
        self.kill_processes();
    }
}

/// The chromedriver child, in a process group of its own so Chromium (its child) can be killed
/// with it.
#[derive(Debug)]
struct DriverProcess {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl DriverProcess {
    /// Starts chromedriver in `run_dir`, with Chromium's temporary files there too, and
    /// records its pid for [`reap_leftovers`].
    fn spawn(path: &Path, log: &Path, run_dir: &Path) -> Result<Self, String> {
        let port = free_port().map_err(|e| format!("找不到空闲端口：{e}"))?;
        create_private_log(log)?;
        let temp = run_dir.join("tmp");
        std::fs::create_dir(&temp).map_err(|e| format!("无法创建浏览器临时目录：{e}"))?;
        let mut command = Command::new(path);
        command
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            // At info level every command is logged with its arguments: typed text included.
            .arg("--log-level=WARNING")
            .current_dir(run_dir)
            // Chromium inherits both: its temporary files stay in the run dir, and every
            // process of it carries the run dir's path, by which a later start finds it.
            .env("TMPDIR", &temp)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0);
        let child = child_lifetime::spawn(command)
            .map_err(|e| format!("无法启动 chromedriver（{}）：{e}", path.display()))?;
        if let Err(error) = child_lifetime::record(run_dir, child.id()) {
            tracing::warn!("无法记录 chromedriver 进程号：{error}");
        }
        Ok(Self {
            child,
            port,
            log: log.to_owned(),
        })
    }

    /// Waits until `/status` says ready.
    async fn wait_ready(&mut self, timeout: Duration) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(format!(
                    "chromedriver 启动后立即退出（{status}）{}",
                    self.log_tail()
                ));
            }
            let port = self.port;
            let ready = tokio::task::spawn_blocking(move || status_ready(port))
                .await
                .unwrap_or(false);
            if ready {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "chromedriver 在{}秒内未就绪{}",
                    timeout.as_secs(),
                    self.log_tail()
                ));
            }
            tokio::time::sleep(STATUS_POLL).await;
        }
    }

    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().rev().take(3).collect();
        if lines.is_empty() {
            String::new()
        } else {
            let lines: Vec<&str> = lines.into_iter().rev().collect();
            format!("：{}", lines.join(" / "))
        }
    }

    /// Kills the whole group (chromedriver and the Chromium it started) and reaps chromedriver.
    fn kill(&mut self) {
        let pid = Pid::from_child(&self.child);
        let _ = kill_process_group(pid, Signal::KILL);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for DriverProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

fn make_run_dir(work_dir: Option<&Path>) -> Result<TempDir, String> {
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(RUN_DIR_PREFIX)
        .permissions(std::fs::Permissions::from_mode(0o700));
    match work_dir {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("无法创建工作目录 {}：{e}", dir.display()))?;
            builder.tempdir_in(dir)
        }
        None => builder.tempdir(),
    }
    .map_err(|e| format!("无法创建浏览器临时目录：{e}"))
}

/// Where util-linux's `setpriv` is, which can give Chromium a parent-death signal.
const SETPRIV: &str = "/usr/bin/setpriv";

/// The browser binary for chromedriver to start: a wrapper script in the run folder that
/// starts Chromium with a parent-death signal, so Chromium dies with chromedriver (which dies
/// with the service) instead of living on under PID 1 until the next start reaps it. Without
/// `setpriv`, Chromium itself (the reaping still covers it).
fn tied_to_driver(chromium: &Path, run_dir: &Path) -> PathBuf {
    if !Path::new(SETPRIV).is_file() {
        return chromium.to_owned();
    }
    let quoted = format!(
        "'{}'",
        chromium.display().to_string().replace('\'', r"'\''")
    );
    let script = format!("#!/bin/sh\nexec {SETPRIV} --pdeathsig KILL -- {quoted} \"$@\"\n");
    let wrapper = run_dir.join("chromium");
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o700)
        .open(&wrapper)
        .and_then(|mut file| file.write_all(script.as_bytes()));
    match written {
        Ok(()) => wrapper,
        Err(error) => {
            tracing::warn!("无法创建浏览器启动脚本：{error}");
            chromium.to_owned()
        }
    }
}

/// chromedriver's log, created readable by the service's user alone before chromedriver
/// opens it (it keeps the mode of a file that exists).
fn create_private_log(log: &Path) -> Result<(), String> {
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(log)
        .map(drop)
        .map_err(|e| format!("无法创建 chromedriver 日志：{e}"))
}

/// What [`reap_leftovers`] cleaned: browser processes (chromedriver, Chromium) killed and run
/// directories removed.
pub use child_lifetime::ReapedDirs;

/// Cleans what browsers of an earlier run of the service left in `work_dir` (the
/// [`crate::BotOptions::work_dir`] it gave them): kills chromedriver and every Chromium
/// process still carrying a run directory's path, then removes the directories. Call at
/// start-up, before any submission.
pub fn reap_leftovers(work_dir: &Path) -> ReapedDirs {
    child_lifetime::reap_scratch_dirs(work_dir, RUN_DIR_PREFIX, QUIT_TIMEOUT)
}

fn free_port() -> std::io::Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))?;
    Ok(listener.local_addr()?.port())
}

/// One `GET /status`, true when chromedriver answers `"ready": true`.
fn status_ready(port: u16) -> bool {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let Ok(mut stream) = TcpStream::connect_timeout(&addr, Duration::from_millis(500)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut response = String::new();
    let _ = stream.read_to_string(&mut response);
    response.replace(' ', "").contains("\"ready\":true")
}

/// The first line of a WebDriver error, without stack traces.
pub fn short_error(error: &thirtyfour::error::WebDriverError) -> String {
    let text = error.to_string();
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or_default()
        .chars()
        .take(300)
        .collect()
}
