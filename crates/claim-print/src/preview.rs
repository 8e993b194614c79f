//! A PNG of the package's first page for the page's preview, by poppler's `pdftoppm` (already
//! a dependency of the service for OCR), the PDF on stdin, killed at a deadline.

use crate::PrintError;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const DEADLINE: Duration = Duration::from_secs(20);
/// The preview's longest side in pixels: enough to read the header at a glance.
const LONG_SIDE: u32 = 900;
/// A PNG of that size is far below this; more means something is wrong.
const MAX_PNG: u64 = 16 * 1024 * 1024;

/// Page 1 of `pdf` as a PNG.
pub fn preview_png(pdf: &[u8]) -> Result<Vec<u8>, PrintError> {
    let error = |message: String| PrintError::Preview(message);
    let mut child = Command::new("pdftoppm")
        .args(["-png", "-f", "1", "-l", "1", "-singlefile", "-scale-to"])
        .arg(LONG_SIDE.to_string())
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| error(format!("pdftoppm: {e}")))?;
    let input = pdf.to_vec();
    let mut stdin = child.stdin.take();
    // A PDF larger than the pipe's buffer would block a writer on this thread.
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(&input);
        }
        drop(stdin);
    });
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = s.take(MAX_PNG).read_to_end(&mut out);
        }
        out
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < DEADLINE => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(error(format!("pdftoppm 超过 {} 秒", DEADLINE.as_secs())));
            }
        }
    };
    let _ = writer.join();
    let png = reader.join().unwrap_or_default();
    if !status.success() || !png.starts_with(b"\x89PNG") {
        return Err(error(format!("pdftoppm 退出状态 {status}")));
    }
    Ok(png)
}
