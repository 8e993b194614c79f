//! One page to a grey image, by poppler's `pdftoppm`: the PDF goes in on stdin and the PGM
//! comes out on stdout, so nothing touches the disk; the child is killed at a deadline.

use crate::error::PageOcrError;
use crate::gray::Gray;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longer side of a rendering, in pixels: 300 dpi on A4, ~420 dpi on an invoice page
/// (8-point labels come out 45 px tall), and at most 12 MP whatever the page claims.
pub const LONG_SIDE: u32 = 3508;

/// How long a page may take to render.
const DEADLINE: Duration = Duration::from_secs(20);

/// Renders page `index` (0-based) of `pdf` with its longer side `long_side` pixels, by
/// `pdftoppm` (a child process, killed if it takes longer than 20 s).
pub fn render_page(pdf: &[u8], index: usize, long_side: u32) -> Result<Gray, PageOcrError> {
    let page = (index + 1).to_string();
    let mut child = Command::new("pdftoppm")
        .args([
            "-gray",
            "-f",
            &page,
            "-l",
            &page,
            "-singlefile",
            "-scale-to",
        ])
        .arg(long_side.to_string())
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| PageOcrError::Render(format!("pdftoppm: {e}")))?;
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
    let limit = u64::from(long_side) * u64::from(long_side) + 64;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = s.take(limit).read_to_end(&mut out);
        }
        out
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < DEADLINE => {
                std::thread::sleep(Duration::from_millis(5))
            }
            Ok(None) | Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(PageOcrError::Timeout(DEADLINE.as_secs()));
            }
        }
    };
    let _ = writer.join();
    let bytes = reader.join().unwrap_or_default();
    if !status.success() {
        return Err(PageOcrError::Render(format!(
            "pdftoppm exited with {status}"
        )));
    }
    Gray::from_pgm(&bytes).ok_or_else(|| PageOcrError::Render("pdftoppm wrote no image".into()))
}
