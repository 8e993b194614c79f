//! The browser's lifetime: a chromedriver child process (or a remote WebDriver such as Selenium
//! Grid), one Chromium session with a throw-away profile, and a guard that closes both on
//! success, failure, timeout and panic.

use rustix::process::{Pid, Signal, kill_process, kill_process_group};
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tempfile::TempDir;
use thirtyfour::{ChromiumLikeCapabilities, DesiredCapabilities, WebDriver};

/// Chromium switches every session gets. Without the background-networking ones Chromium's
/// own connections are refused on a closed network and slow everything down.
pub const CHROMIUM_ARGS: [&str; 10] = [
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
];

/// Where the WebDriver comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WebDriverTarget {
    /// Start this chromedriver on a free local port, driving this Chromium.
    Local {
        chromedriver_path: PathBuf,
        chromium_path: PathBuf,
    },
    /// Use a running WebDriver server (e.g. `http://grid:4444`); nothing is spawned.
    Remote { url: String },
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
                caps.set_binary(&chromium_path.display().to_string())
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
                kill_strays(run_dir.path());
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
    fn spawn(path: &Path, log: &Path, cwd: &Path) -> Result<Self, String> {
        let port = free_port().map_err(|e| format!("找不到空闲端口：{e}"))?;
        let child = Command::new(path)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .current_dir(cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("无法启动 chromedriver（{}）：{e}", path.display()))?;
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
    builder.prefix("finance-bot-");
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

/// Kills any process still running with our profile directory on its command line (Chromium
/// helpers that left the process group, should there be any).
fn kill_strays(marker: &Path) {
    let marker = marker.display().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
            .and_then(Pid::from_raw)
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        if String::from_utf8_lossy(&cmdline).contains(&marker) {
            let _ = kill_process(pid, Signal::KILL);
        }
    }
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
