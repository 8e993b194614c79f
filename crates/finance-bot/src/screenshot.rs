//! Saving a PNG of the page when a submission fails, under a name that says when, and one
//! after every step when a flow is tried (`reimburse flow try`).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use thirtyfour::WebDriver;

/// Longest a screenshot may take; a stuck page must not hold up closing the browser.
const SCREENSHOT_TIMEOUT: Duration = Duration::from_secs(5);

/// Takes a screenshot of the whole window and saves it as `submit-failure-<UTC time>.png` in
/// `dir` (created if needed). `None` if the browser cannot deliver one.
pub async fn save_failure_screenshot(driver: &WebDriver, dir: &Path) -> Option<PathBuf> {
    let png = match tokio::time::timeout(SCREENSHOT_TIMEOUT, driver.screenshot_as_png()).await {
        Ok(Ok(png)) => png,
        Ok(Err(e)) => {
            tracing::warn!("无法截取页面：{}", crate::driver::short_error(&e));
            return None;
        }
        Err(_) => {
            tracing::warn!("截取页面超时");
            return None;
        }
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        tracing::warn!("无法创建截图目录 {}：{e}", dir.display());
        return None;
    }
    let stamp = timestamp(SystemTime::now());
    let path = (0..100)
        .map(|n| {
            let suffix = if n == 0 {
                String::new()
            } else {
                format!("-{n}")
            };
            dir.join(format!("submit-failure-{stamp}{suffix}.png"))
        })
        .find(|p| !p.exists())?;
    match write_whole(dir, &path, &png) {
        Ok(()) => Some(path),
        Err(e) => {
            tracing::warn!("无法保存截图 {}：{e}", path.display());
            None
        }
    }
}

/// A screenshot after each step, numbered in order: `001-第1步-打开登录页.png`,
/// `007-第5.2步（第1行）-填写金额.png`.
#[derive(Debug)]
pub(crate) struct StepShots {
    dir: PathBuf,
    taken: usize,
    /// Every file written, in order.
    pub(crate) saved: Vec<PathBuf>,
}

impl StepShots {
    pub(crate) fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            taken: 0,
            saved: Vec::new(),
        }
    }

    /// The next number, for files saved beside the shots (a challenge's picture).
    pub(crate) fn next_path(&mut self, what: &str) -> PathBuf {
        self.taken += 1;
        let safe: String = what
            .chars()
            .map(|c| {
                if "/\\:*?\"<>|".contains(c) || c.is_control() {
                    '_'
                } else {
                    c
                }
            })
            // An unnamed step's label is its selector: long enough to be told apart.
            .take(48)
            .collect();
        self.dir.join(format!("{:03}-{safe}.png", self.taken))
    }

    /// Saves the page after the step at `position`; a picture that cannot be had is noted in
    /// the log and skipped (the try goes on).
    pub(crate) async fn take(
        &mut self,
        driver: &WebDriver,
        position: &crate::error::StepPosition,
        label: &str,
    ) {
        let png = match tokio::time::timeout(SCREENSHOT_TIMEOUT, driver.screenshot_as_png()).await {
            Ok(Ok(png)) => png,
            _ => {
                tracing::warn!("{position}「{label}」之后无法截取页面");
                return;
            }
        };
        let path = self.next_path(&format!("{position}-{label}"));
        self.save(&path, &png);
    }

    pub(crate) fn save(&mut self, path: &Path, png: &[u8]) {
        if let Err(e) =
            std::fs::create_dir_all(&self.dir).and_then(|()| write_whole(&self.dir, path, png))
        {
            tracing::warn!("无法保存截图 {}：{e}", path.display());
            return;
        }
        self.saved.push(path.to_path_buf());
    }
}

/// Writes `bytes` to a hidden temp file beside `path` and renames it there, so a full disk
/// leaves no truncated picture in the session, only an error.
fn write_whole(dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut temp = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
    std::io::Write::write_all(&mut temp, bytes)?;
    temp.as_file().sync_all()?;
    temp.persist_noclobber(path).map_err(|e| e.error)?;
    Ok(())
}

/// `20261121-060305-123` (UTC), sortable and safe in file names.
fn timestamp(now: SystemTime) -> String {
    let since = now.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (y, m, d) = domain::civil_from_days(i64::try_from(secs / 86_400).unwrap_or(i64::MAX));
    let rest = secs % 86_400;
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}-{:03}",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_calendar_times() {
        let t = UNIX_EPOCH + Duration::from_millis(1_795_240_985_123);
        assert_eq!(timestamp(t), "20261121-060305-123");
        assert_eq!(timestamp(UNIX_EPOCH), "19700101-000000-000");
    }
}
