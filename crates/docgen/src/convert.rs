//! `Converter`: .docx to Word 97 .doc with LibreOffice. Conversions are serialised behind one
//! mutex (LibreOffice fails silently when two runs share a profile) and go through a warm
//! LibreOffice when Python's UNO bridge is available, else through a one-shot
//! `soffice --convert-to` per document.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::error::DocError;
use crate::lifetime::{self, SCRATCH_PREFIX};
use crate::office::{self, EXIT_RESTART, Office};
use crate::warm::{WarmError, WarmOffice};

/// LibreOffice's export filter for Word 97-2003 documents.
const DOC_FILTER: &str = "MS Word 97";

/// How conversions are run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConvertMode {
    /// Warm when a Python with `uno` is found (Debian: python3-uno), else cold.
    #[default]
    Auto,
    /// Always through a long-lived LibreOffice; an error if it cannot be started.
    Warm,
    /// One `soffice --convert-to` process per conversion (about a second each).
    Cold,
}

/// Settings of a [`Converter`]. `Default` finds everything on its own.
#[derive(Debug, Clone)]
pub struct ConverterConfig {
    /// Warm, cold, or warm when possible.
    pub mode: ConvertMode,
    /// `soffice` (or `soffice.bin`) to use; None searches PATH and the usual directories.
    pub soffice: Option<PathBuf>,
    /// Python with the `uno` module; None tries LibreOffice's own, `/usr/bin/python3`, `python3`.
    pub python: Option<PathBuf>,
    /// Longest a single conversion may take before LibreOffice is killed.
    pub timeout: Duration,
    /// Longest the warm LibreOffice may take to start.
    pub startup_timeout: Duration,
    /// The warm LibreOffice is restarted after this many conversions, to bound its memory.
    pub recycle_after: u64,
    /// Where scratch directories (profiles, logs, pid files) are made; None: the system's
    /// temp dir. A service gives its own, and cleans it at start with
    /// [`crate::reap_leftovers`].
    pub work_dir: Option<PathBuf>,
}

impl Default for ConverterConfig {
    fn default() -> Self {
        ConverterConfig {
            mode: ConvertMode::Auto,
            soffice: None,
            python: None,
            timeout: Duration::from_secs(60),
            startup_timeout: Duration::from_secs(60),
            recycle_after: 500,
            work_dir: None,
        }
    }
}

/// Converts .docx to .doc. Share one per service (it is `Sync`); the warm LibreOffice starts
/// at the first conversion (or [`Converter::warm_up`]) and ends when the converter is dropped.
#[derive(Debug)]
pub struct Converter {
    config: ConverterConfig,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    // Declared first so it is dropped (and LibreOffice stopped) before the scratch directory
    // holding its profile is removed.
    warm: Option<WarmOffice>,
    office: Option<Office>,
    /// None: not looked for yet; Some(None): there is no Python with uno.
    python: Option<Option<PathBuf>>,
    scratch: Option<TempDir>,
    next_id: u64,
    /// When a warm start last failed in auto mode; cold conversions are used for a while
    /// rather than waiting for a start that fails on every save.
    warm_failed_at: Option<Instant>,
}

/// How long auto mode stays cold after a failed warm start.
const WARM_RETRY_AFTER: Duration = Duration::from_secs(600);

impl Default for Converter {
    fn default() -> Self {
        Converter::new(ConverterConfig::default())
    }
}

impl Converter {
    /// A converter; nothing is started or looked up until it is used.
    pub fn new(config: ConverterConfig) -> Self {
        Converter {
            config,
            state: Mutex::new(State::default()),
        }
    }

    /// Checks that LibreOffice is installed, without starting it.
    pub fn check_installed(&self) -> Result<(), DocError> {
        let mut state = self.lock();
        self.office(&mut state).map(|_| ())
    }

    /// Starts the warm LibreOffice now (for a service: at start-up, off the request path).
    /// Does nothing in cold mode or without Python's uno in auto mode.
    pub fn warm_up(&self) -> Result<(), DocError> {
        if self.config.mode == ConvertMode::Cold {
            return Ok(());
        }
        let mut state = self.lock();
        let office = self.office(&mut state)?;
        match self.ensure_warm(&mut state, &office) {
            Ok(()) => Ok(()),
            Err(WarmError::NoUno(_)) if self.config.mode == ConvertMode::Auto => Ok(()),
            Err(error) => Err(self.warm_error(error)),
        }
    }

    /// Stops the warm LibreOffice, if running; the next conversion starts it again.
    pub fn shutdown(&self) {
        let mut state = self.lock();
        state.warm = None;
    }

    /// Process id of the warm soffice, if one is running. For tests of the restart.
    #[doc(hidden)]
    pub fn warm_pid(&self) -> Option<u32> {
        self.lock().warm.as_ref().map(WarmOffice::pid)
    }

    /// Converts a .docx document to a Word 97 .doc.
    pub fn convert_docx_to_doc(&self, docx: &[u8]) -> Result<Vec<u8>, DocError> {
        let mut state = self.lock();
        let office = self.office(&mut state)?;
        let scratch = scratch_dir(&mut state, self.config.work_dir.as_deref())?;
        state.next_id += 1;
        let input = scratch.join(format!("in-{}.docx", state.next_id));
        // One-shot soffice names its output after the input, so the warm path does too.
        let output = input.with_extension("doc");
        std::fs::write(&input, docx).map_err(|source| DocError::Setup {
            what: "写入临时文件",
            source,
        })?;
        let result = self
            .convert_file(&mut state, &office, &input, &output)
            .and_then(|()| read_output(&output));
        let _ = std::fs::remove_file(&input);
        let _ = std::fs::remove_file(&output);
        result
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves nothing half-done that matters here.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn office(&self, state: &mut State) -> Result<Office, DocError> {
        if let Some(office) = &state.office {
            return Ok(office.clone());
        }
        // Not cached on failure, so installing LibreOffice while the service runs works.
        let office = office::locate(self.config.soffice.as_deref())?;
        state.office = Some(office.clone());
        Ok(office)
    }

    fn convert_file(
        &self,
        state: &mut State,
        office: &Office,
        input: &Path,
        output: &Path,
    ) -> Result<(), DocError> {
        if self.config.mode == ConvertMode::Cold {
            return self.convert_cold(state, office, input, output);
        }
        let recently_failed = state
            .warm_failed_at
            .is_some_and(|at| at.elapsed() < WARM_RETRY_AFTER);
        if self.config.mode == ConvertMode::Auto && recently_failed {
            return self.convert_cold(state, office, input, output);
        }
        // A second try after a restart covers a warm LibreOffice that died since last use.
        for _ in 0..2 {
            if let Err(error) = self.ensure_warm(state, office) {
                return match error {
                    WarmError::NoUno(_) | WarmError::Start(_)
                        if self.config.mode == ConvertMode::Auto =>
                    {
                        tracing::warn!(
                            ?error,
                            "warm LibreOffice unavailable, converting with a one-shot soffice"
                        );
                        if matches!(error, WarmError::Start(_)) {
                            state.warm_failed_at = Some(Instant::now());
                        }
                        self.convert_cold(state, office, input, output)
                    }
                    error => Err(self.warm_error(error)),
                };
            }
            let Some(warm) = state.warm.as_mut() else {
                continue;
            };
            match warm.convert(input, output, DOC_FILTER, self.config.timeout) {
                Ok(()) => return Ok(()),
                Err(WarmError::Died) => {
                    tracing::warn!("warm LibreOffice died, restarting it");
                    state.warm = None;
                }
                Err(error) => {
                    if matches!(error, WarmError::Timeout) {
                        state.warm = None;
                    }
                    return Err(self.warm_error(error));
                }
            }
        }
        Err(DocError::ConversionFailed(
            "LibreOffice 反复意外退出".to_owned(),
        ))
    }

    fn ensure_warm(&self, state: &mut State, office: &Office) -> Result<(), WarmError> {
        if let Some(warm) = &state.warm
            && warm.conversions() >= self.config.recycle_after
        {
            state.warm = None;
        }
        if state.warm.is_some() {
            return Ok(());
        }
        let python = match &state.python {
            Some(found) => found.clone(),
            None => {
                let found = office::find_uno_python(office, self.config.python.as_deref());
                state.python = Some(found.clone());
                found
            }
        };
        let Some(python) = python else {
            return Err(WarmError::NoUno(
                "未找到带 uno 模块的 Python（Debian 软件包 python3-uno）".to_owned(),
            ));
        };
        let scratch = scratch_dir(state, self.config.work_dir.as_deref())
            .map_err(|e| WarmError::Start(e.to_string()))?;
        let started = Instant::now();
        let warm = WarmOffice::start(
            office,
            &python,
            &scratch.join("warm-profile"),
            &scratch,
            self.config.startup_timeout,
        );
        match warm {
            Ok(warm) => {
                state.warm_failed_at = None;
                tracing::info!(
                    elapsed_ms = started.elapsed().as_millis() as u64,
                    "warm LibreOffice started"
                );
                state.warm = Some(warm);
                Ok(())
            }
            Err(WarmError::NoUno(detail)) => {
                state.python = Some(None);
                Err(WarmError::NoUno(detail))
            }
            Err(error) => Err(error),
        }
    }

    fn warm_error(&self, error: WarmError) -> DocError {
        match error {
            WarmError::NoUno(detail) => {
                DocError::ConversionFailed(format!("无法使用常驻 LibreOffice：{detail}"))
            }
            WarmError::Start(detail) => DocError::ConversionFailed(detail),
            WarmError::Died => DocError::ConversionFailed("LibreOffice 意外退出".to_owned()),
            WarmError::Timeout => DocError::ConversionTimeout {
                seconds: self.config.timeout.as_secs(),
            },
            WarmError::Failed(detail) => {
                DocError::ConversionFailed(format!("LibreOffice 无法转换该文档（{detail}）"))
            }
        }
    }

    /// One `soffice --convert-to` run, writing `<input stem>.doc` beside the input.
    fn convert_cold(
        &self,
        state: &mut State,
        office: &Office,
        input: &Path,
        output: &Path,
    ) -> Result<(), DocError> {
        let scratch = scratch_dir(state, self.config.work_dir.as_deref())?;
        let profile = scratch.join("cold-profile");
        let log = scratch.join("cold-soffice.log");
        let deadline = Instant::now() + self.config.timeout;
        // A fresh profile makes soffice.bin exit with "restart me" once.
        for _ in 0..3 {
            let _ = std::fs::remove_file(&log);
            let log_file = |what| {
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&log)
                    .map_err(|source| DocError::Setup { what, source })
            };
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
                    office::file_url(&profile)
                ))
                .args(["--convert-to", "doc:MS Word 97", "--outdir"])
                .arg(&scratch)
                .arg(input)
                // Its temporary folders (lu*.tmp) go to the scratch directory, not /tmp.
                .env("TMPDIR", &scratch)
                .stdin(Stdio::null())
                .stdout(log_file("创建日志文件")?)
                .stderr(log_file("创建日志文件")?);
            let mut child = lifetime::spawn(command).map_err(|source| match source.kind() {
                std::io::ErrorKind::NotFound => {
                    DocError::LibreOfficeMissing(format!("无法运行 {}", office.program.display()))
                }
                _ => DocError::Setup {
                    what: "启动 LibreOffice",
                    source,
                },
            })?;
            lifetime::record(&scratch, child.id());
            let status = office::wait_with_deadline(&mut child, deadline).map_err(|source| {
                DocError::Setup {
                    what: "等待 LibreOffice",
                    source,
                }
            })?;
            match status {
                None => {
                    office::kill(&mut child);
                    return Err(DocError::ConversionTimeout {
                        seconds: self.config.timeout.as_secs(),
                    });
                }
                Some(status) if status.code() == Some(EXIT_RESTART) => continue,
                // soffice exits 0 even when it could not load the input: the output file is
                // the real verdict.
                Some(status) if status.success() && output.is_file() => return Ok(()),
                Some(status) if status.success() => {
                    return Err(DocError::ConversionFailed(format!(
                        "LibreOffice 未生成 .doc 文件（模板可能已损坏）：{}",
                        office::log_excerpt(&log)
                    )));
                }
                Some(status) => {
                    return Err(DocError::ConversionFailed(format!(
                        "LibreOffice 退出（{status}）：{}",
                        office::log_excerpt(&log)
                    )));
                }
            }
        }
        Err(DocError::ConversionFailed(format!(
            "LibreOffice 无法初始化配置目录：{}",
            office::log_excerpt(&log)
        )))
    }
}

fn scratch_dir(state: &mut State, work_dir: Option<&Path>) -> Result<PathBuf, DocError> {
    if let Some(dir) = &state.scratch {
        return Ok(dir.path().to_path_buf());
    }
    let parent = work_dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
    std::fs::create_dir_all(&parent).map_err(|source| DocError::Setup {
        what: "创建临时目录",
        source,
    })?;
    let dir = tempfile::Builder::new()
        .prefix(SCRATCH_PREFIX)
        .tempdir_in(parent)
        .map_err(|source| DocError::Setup {
            what: "创建临时目录",
            source,
        })?;
    let path = dir.path().to_path_buf();
    state.scratch = Some(dir);
    Ok(path)
}

fn read_output(output: &Path) -> Result<Vec<u8>, DocError> {
    match std::fs::read(output) {
        Ok(bytes) if !bytes.is_empty() => Ok(bytes),
        _ => Err(DocError::ConversionFailed(
            "LibreOffice 未生成 .doc 文件（模板可能已损坏）".to_owned(),
        )),
    }
}
