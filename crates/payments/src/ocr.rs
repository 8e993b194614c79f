//! OCR behind a small trait: pages of words with boxes, the TSV reader that
//! builds them, and the tesseract CLI implementation (a subprocess with a
//! timeout, one thread).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tesseract_lib::{Engine, TesseractError};

use image::GrayImage;

use crate::error::PaymentsError;
use crate::text;

/// Tesseract page segmentation modes worth trying on screenshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageMode {
    /// `--psm 4`: one column of text of variable sizes.
    Column,
    /// `--psm 6`: one uniform block; best on plain two-column bill screens.
    Block,
    /// `--psm 11`: sparse text; finds labels that block mode garbles.
    Sparse,
    /// `--psm 6` with the Latin model limited to digits, `*` and amount
    /// punctuation: cropped rows (the amount, the card number) re-read to
    /// check the page read.
    Digits,
    /// `--psm 13`: one raw line, no layout analysis. A cropped row read
    /// alone: the layout analysis drops a whole line of `6200 **** ****
    /// 6219` as not text when its glyphs are 24 px or more.
    Line,
}

impl PageMode {
    pub fn psm(self) -> u8 {
        match self {
            Self::Column => 4,
            Self::Block => 6,
            Self::Sparse => 11,
            Self::Digits => 6,
            Self::Line => 13,
        }
    }
}

/// One recognised word with its box in image pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    pub text: String,
    pub left: i32,
    pub top: i32,
    pub width: i32,
    pub height: i32,
    /// Tesseract confidence, 0–100.
    pub conf: f32,
    /// Tesseract's block, paragraph and line numbers.
    pub line_key: (u32, u32, u32),
}

/// One visual line: words on the same row, left to right, normalised.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub text: String,
    pub top: i32,
    pub bottom: i32,
    pub left: i32,
    pub right: i32,
    /// Mean word confidence (100 for text that did not come from OCR).
    pub conf: f32,
    /// The words with their left and right edges, in order (empty for
    /// text that did not come from OCR).
    pub words: Vec<(String, i32, i32)>,
    /// Confidence of the last word with a digit in it (100 if none): where
    /// an amount or a card's last four digits stand. A number tesseract all
    /// but rejected is not to be trusted.
    pub digit_conf: f32,
    /// Top and bottom of the words with a digit or a star (None if none,
    /// or for text that did not come from OCR): a photo's line may stretch
    /// over noise read beside it (the slip's edge, the table under it).
    pub number_rows: Option<(i32, i32)>,
}

/// Below this a word's digits are not trusted (tesseract gives ~0 to words
/// it could not make sense of, such as `621700*Az*xxx2513`).
pub const MIN_DIGIT_CONF: f32 = 10.0;

/// What OCR read on one image.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OcrPage {
    pub lines: Vec<Line>,
}

impl OcrPage {
    /// Builds a page from plain text, one line per line (tests, and text
    /// another reader produced). Geometry is synthetic: lines 40 px apart.
    pub fn from_text(s: &str) -> Self {
        let lines = s
            .lines()
            .map(text::normalize)
            .filter(|l| !l.is_empty())
            .enumerate()
            .map(|(i, text)| {
                let top = i32::try_from(i).unwrap_or(i32::MAX / 64) * 40;
                Line {
                    right: i32::try_from(text.chars().count()).unwrap_or(0) * 20,
                    text,
                    top,
                    bottom: top + 30,
                    left: 0,
                    conf: 100.0,
                    words: Vec::new(),
                    digit_conf: 100.0,
                    number_rows: None,
                }
            })
            .collect();
        Self { lines }
    }

    /// Builds a page from tesseract's `tsv` output.
    pub fn from_tsv(tsv: &str) -> Self {
        let words = tsv.lines().skip(1).filter_map(parse_tsv_word).collect();
        Self {
            lines: build_lines(words),
        }
    }

    /// The page as text, one line per line.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            out.push_str(&line.text);
            out.push('\n');
        }
        out
    }

    /// Mean confidence over lines weighted by their length.
    pub fn mean_conf(&self) -> f32 {
        let (sum, n) = self.lines.iter().fold((0.0f32, 0usize), |(s, n), l| {
            let len = l.text.chars().count();
            #[expect(clippy::cast_precision_loss, reason = "line lengths are small")]
            (s + l.conf * len as f32, n + len)
        });
        if n == 0 {
            0.0
        } else {
            #[expect(clippy::cast_precision_loss, reason = "text lengths are small")]
            let n = n as f32;
            sum / n
        }
    }
}

/// One `level 5` (word) row of tesseract's TSV.
fn parse_tsv_word(row: &str) -> Option<Word> {
    let cols: Vec<&str> = row.split('\t').collect();
    if cols.len() < 12 || cols[0] != "5" {
        return None;
    }
    let text = text::normalize(cols[11]);
    if text.is_empty() {
        return None;
    }
    let num = |i: usize| cols[i].trim().parse::<i32>().ok();
    let key = |i: usize| cols[i].trim().parse::<u32>().ok();
    let conf: f32 = cols[10].trim().parse().ok()?;
    // Icons and specks come back as lone symbols with near-zero confidence.
    let symbol_only = text.chars().all(|c| !c.is_alphanumeric());
    if symbol_only && conf < 30.0 {
        return None;
    }
    Some(Word {
        text,
        left: num(6)?,
        top: num(7)?,
        width: num(8)?,
        height: num(9)?,
        conf,
        line_key: (key(2)?, key(3)?, key(4)?),
    })
}

/// Groups words into visual lines: tesseract's own lines first, then lines
/// that share a row (a label and its value found as two blocks in sparse
/// mode) are merged.
fn build_lines(words: Vec<Word>) -> Vec<Line> {
    let mut groups: Vec<Vec<Word>> = Vec::new();
    for word in words {
        match groups.last_mut() {
            Some(g) if g.first().is_some_and(|w| w.line_key == word.line_key) => g.push(word),
            _ => groups.push(vec![word]),
        }
    }
    groups.sort_by_key(|g| g.iter().map(|w| w.top + w.height / 2).sum::<i32>() / len_i32(g));
    let mut rows: Vec<Vec<Word>> = Vec::new();
    for group in groups {
        let span = vertical_span(&group);
        let target = rows.iter_mut().rev().take(3).find(|row| {
            let other = vertical_span(row);
            let overlap = span.1.min(other.1) - span.0.max(other.0);
            let smaller = (span.1 - span.0).min(other.1 - other.0).max(1);
            let (l, r) = horizontal_span(&group);
            let (ol, or) = horizontal_span(row);
            overlap * 10 >= smaller * 6 && (r <= ol || l >= or)
        });
        match target {
            Some(row) => row.extend(group),
            None => rows.push(group),
        }
    }
    rows.into_iter().filter_map(join_row).collect()
}

fn len_i32(v: &[Word]) -> i32 {
    i32::try_from(v.len()).unwrap_or(i32::MAX).max(1)
}

fn vertical_span(words: &[Word]) -> (i32, i32) {
    let top = words.iter().map(|w| w.top).min().unwrap_or(0);
    let bottom = words.iter().map(|w| w.top + w.height).max().unwrap_or(0);
    (top, bottom)
}

fn horizontal_span(words: &[Word]) -> (i32, i32) {
    let left = words.iter().map(|w| w.left).min().unwrap_or(0);
    let right = words.iter().map(|w| w.left + w.width).max().unwrap_or(0);
    (left, right)
}

/// Joins a row's words left to right: ideographs close together are glued,
/// anything else gets a space.
fn join_row(mut row: Vec<Word>) -> Option<Line> {
    row.sort_by_key(|w| w.left);
    let mut heights: Vec<i32> = row.iter().map(|w| w.height).collect();
    heights.sort_unstable();
    let typical = heights.get(heights.len() / 2).copied().unwrap_or(1).max(1);
    let mut out = String::new();
    let mut prev: Option<&Word> = None;
    for w in &row {
        if let Some(p) = prev {
            let gap = w.left - (p.left + p.width);
            let cjk_pair = p.text.chars().last().is_some_and(text::is_cjk)
                && w.text.chars().next().is_some_and(text::is_cjk);
            if !(cjk_pair && gap * 10 < typical * 6) {
                out.push(' ');
            }
        }
        out.push_str(&w.text);
        prev = Some(w);
    }
    let (top, bottom) = vertical_span(&row);
    let (left, right) = horizontal_span(&row);
    let conf = row.iter().map(|w| w.conf).sum::<f32>()
        / f32::from(u16::try_from(row.len()).unwrap_or(u16::MAX));
    let digit_conf = row
        .iter()
        .rev()
        .find(|w| w.text.chars().any(|c| c.is_ascii_digit()))
        .map_or(100.0, |w| w.conf);
    let numbers: Vec<&Word> = row.iter().filter(|w| is_number_word(&w.text)).collect();
    let number_rows = (!numbers.is_empty()).then(|| {
        let top = numbers.iter().map(|w| w.top).min().unwrap_or(top);
        let bottom = numbers
            .iter()
            .map(|w| w.top + w.height)
            .max()
            .unwrap_or(bottom);
        (top, bottom)
    });
    let words = row
        .iter()
        .map(|w| (w.text.clone(), w.left, w.left + w.width))
        .collect();
    let text = text::normalize(&out);
    (!text.is_empty()).then_some(Line {
        text,
        top,
        bottom,
        left,
        right,
        conf,
        words,
        digit_conf,
        number_rows,
    })
}

/// Whether a word is (part of) a number: it holds a digit or a mask star.
pub fn is_number_word(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit() || c == '*')
}

/// Reads text from an image.
pub trait Ocr {
    /// Recognises a greyscale image in the given mode.
    fn recognize(&self, image: &GrayImage, mode: PageMode) -> Result<OcrPage, PaymentsError>;

    /// Recognises a photo (a POS slip) in the given mode. Receipt printers
    /// slash or dot their zeros; readers that have a model for that use it.
    fn recognize_photo(&self, image: &GrayImage, mode: PageMode) -> Result<OcrPage, PaymentsError> {
        self.recognize(image, mode)
    }
}

/// Tesseract: in this process through libtesseract when it can be loaded (each model loaded
/// once per `Tesseract` and kept warm), else the `tesseract` program, one run per image.
#[derive(Debug, Clone)]
pub struct Tesseract {
    pub program: PathBuf,
    /// `-l` argument; `chi_sim` alone reads the digits and Latin letters of
    /// these screens as well as `chi_sim+eng` and loads in half the time.
    pub languages: String,
    pub timeout: Duration,
    /// Resolution announced to tesseract; it scales its size limits for
    /// blobs and lines by it.
    pub dpi: u32,
    /// Model for `PageMode::Digits` re-reads (`eng`: loads fast, and digits
    /// are all it has to read).
    pub digits_language: String,
    /// `-l` argument for photos (POS slips): receipt printers slash or dot
    /// their zeros, which `chi_sim` alone reads as `6` or `9` (`2625/12/15`);
    /// with the Latin model beside it they read as `0`.
    pub photo_languages: String,
    /// Use libtesseract in this process when it loads. Loading `chi_sim` costs ~0.1 s of CPU,
    /// which the program pays on every page (two to four per screenshot).
    pub in_process: bool,
    engines: Engines,
}

/// The warm models of one `Tesseract`: one for pages, one for digit re-reads. A clone starts
/// cold, so that clones can run on other threads.
#[derive(Debug, Default)]
struct Engines {
    page: Mutex<Option<Engine>>,
    digits: Mutex<Option<Engine>>,
    photo: Mutex<Option<Engine>>,
}

impl Clone for Engines {
    fn clone(&self) -> Self {
        Self::default()
    }
}

/// Photos hold no light-on-dark text: tesseract need not try each doubtful line inverted
/// (~7% of a slip's time).
const PHOTO_CONFIG: &[(&str, &str)] = &[("tessedit_do_invert", "0")];

/// Digits, the mask star and amount punctuation: without the whitelist the Latin model reads
/// `****` as `KKKK`.
const DIGITS_WHITELIST: &str = "0123456789*.,-+";

impl Default for Tesseract {
    fn default() -> Self {
        Self {
            program: PathBuf::from("tesseract"),
            languages: "chi_sim".to_owned(),
            timeout: Duration::from_secs(30),
            dpi: 150,
            digits_language: "eng".to_owned(),
            photo_languages: "chi_sim+eng".to_owned(),
            in_process: true,
            engines: Engines::default(),
        }
    }
}

impl Tesseract {
    /// What will read pages, for the operator's log: the library in this process (with its
    /// version) or the program; an error says what is missing. The languages are checked by
    /// the program (`--list-langs`, a child process): loading them here would keep ~30 MiB of
    /// model in a server that may never read a screenshot.
    pub fn backend(&self) -> Result<String, PaymentsError> {
        let library = self
            .in_process
            .then(tesseract_lib::version)
            .flatten()
            .map(|version| format!("libtesseract {version} in process"));
        match (library, self.check()) {
            (Some(library), Ok(())) => Ok(library),
            (None, Ok(())) => Ok(format!("the {} program", self.program.display())),
            (Some(library), Err(error)) => {
                Ok(format!("{library} (languages not verified: {error})"))
            }
            (None, Err(error)) => Err(error),
        }
    }

    /// Checks that the program runs and has the languages; the error says
    /// what is missing.
    pub fn check(&self) -> Result<(), PaymentsError> {
        let out = Command::new(&self.program)
            .arg("--list-langs")
            .output()
            .map_err(|e| {
                PaymentsError::TesseractMissing(format!("{}: {e}", self.program.display()))
            })?;
        let listed = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        let installed: Vec<&str> = listed.lines().map(str::trim).collect();
        for lang in self
            .languages
            .split('+')
            .chain(self.photo_languages.split('+'))
            .chain([self.digits_language.as_str()])
        {
            if !installed.contains(&lang) {
                return Err(PaymentsError::TesseractMissing(format!(
                    "language {lang} not installed"
                )));
            }
        }
        Ok(())
    }
}

impl Ocr for Tesseract {
    fn recognize(&self, image: &GrayImage, mode: PageMode) -> Result<OcrPage, PaymentsError> {
        self.recognize_as(image, mode, false)
    }

    fn recognize_photo(&self, image: &GrayImage, mode: PageMode) -> Result<OcrPage, PaymentsError> {
        self.recognize_as(image, mode, mode != PageMode::Digits)
    }
}

impl Tesseract {
    /// Reads a page with the page languages, or the photo languages.
    fn recognize_as(
        &self,
        image: &GrayImage,
        mode: PageMode,
        photo: bool,
    ) -> Result<OcrPage, PaymentsError> {
        if self.in_process {
            match self.recognize_in_process(image, mode, photo) {
                Ok(page) => return Ok(page),
                // No library or no model here: the program may still work (or say why not).
                Err(InProcess::Unavailable(why)) => {
                    tracing::debug!("libtesseract unusable ({why}); running the program");
                }
                Err(InProcess::Failed(error)) => return Err(error),
            }
        }
        self.recognize_with_program(image, mode, photo)
    }
}

/// Why the in-process engine did not produce a page.
enum InProcess {
    /// The library or the model is missing: fall back to the program.
    Unavailable(String),
    Failed(PaymentsError),
}

impl Tesseract {
    fn recognize_in_process(
        &self,
        image: &GrayImage,
        mode: PageMode,
        photo: bool,
    ) -> Result<OcrPage, InProcess> {
        let digits = mode == PageMode::Digits;
        let slot = if digits {
            &self.engines.digits
        } else if photo {
            &self.engines.photo
        } else {
            &self.engines.page
        };
        // A poisoned slot only means another recognition panicked; the engine is still whole.
        let mut slot = slot
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.is_none() {
            let engine = if digits {
                Engine::new(
                    None,
                    &self.digits_language,
                    &[("tessedit_char_whitelist", DIGITS_WHITELIST)],
                )
            } else if photo {
                Engine::new(None, &self.photo_languages, PHOTO_CONFIG)
            } else {
                Engine::new(None, &self.languages, &[])
            };
            *slot = Some(engine.map_err(|e| InProcess::Unavailable(e.to_string()))?);
        }
        let Some(engine) = slot.as_mut() else {
            return Err(InProcess::Unavailable("no engine".to_owned()));
        };
        let tsv = engine
            .recognize_tsv(
                image.as_raw(),
                image.width(),
                image.height(),
                mode.psm(),
                self.dpi,
                self.timeout,
            )
            .map_err(|e| {
                InProcess::Failed(match e {
                    TesseractError::Timeout(_) => PaymentsError::Timeout(self.timeout.as_secs()),
                    other => PaymentsError::Tesseract(other.to_string()),
                })
            })?;
        Ok(OcrPage::from_tsv(&tsv))
    }

    /// One run of the `tesseract` program, the image as PGM on its stdin.
    fn recognize_with_program(
        &self,
        image: &GrayImage,
        mode: PageMode,
        photo: bool,
    ) -> Result<OcrPage, PaymentsError> {
        let mut command = Command::new(&self.program);
        command.args(["stdin", "stdout", "-l"]);
        if mode == PageMode::Digits {
            // Without the whitelist the Latin model reads `****` as `KKKK`.
            command.args([
                self.digits_language.as_str(),
                "-c",
                &format!("tessedit_char_whitelist={DIGITS_WHITELIST}"),
            ]);
        } else if photo {
            command.arg(&self.photo_languages);
            for (name, value) in PHOTO_CONFIG {
                command.args(["-c", &format!("{name}={value}")]);
            }
        } else {
            command.arg(&self.languages);
        }
        let mut child = command
            .arg("--psm")
            .arg(mode.psm().to_string())
            // Telling tesseract a density avoids its guess and warning.
            .arg("--dpi")
            .arg(self.dpi.to_string())
            .arg("tsv")
            // Several recognitions run side by side in the service; one
            // thread each is faster overall than OpenMP's spinning.
            .env("OMP_THREAD_LIMIT", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                PaymentsError::TesseractMissing(format!("{}: {e}", self.program.display()))
            })?;
        let pgm = encode_pgm(image);
        let stdin = child.stdin.take();
        let writer = std::thread::spawn(move || {
            if let Some(mut stdin) = stdin {
                // A write error means tesseract exited early; its status says why.
                let _ = stdin.write_all(&pgm);
            }
        });
        let mut stdout = child.stdout.take();
        let reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(out) = stdout.as_mut() {
                let _ = out.read_to_end(&mut buf);
            }
            buf
        });
        let mut stderr = child.stderr.take();
        let err_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(err) = stderr.as_mut() {
                let _ = err.read_to_end(&mut buf);
            }
            buf
        });
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if started.elapsed() > self.timeout => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(PaymentsError::Timeout(self.timeout.as_secs()));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(3)),
                Err(e) => return Err(PaymentsError::Tesseract(e.to_string())),
            }
        };
        let _ = writer.join();
        let out = reader.join().unwrap_or_default();
        let err = err_reader.join().unwrap_or_default();
        if !status.success() {
            return Err(PaymentsError::Tesseract(format!(
                "{status}: {}",
                String::from_utf8_lossy(&err).trim()
            )));
        }
        Ok(OcrPage::from_tsv(&String::from_utf8_lossy(&out)))
    }
}

/// Binary PGM: the cheapest format tesseract (leptonica) reads from stdin.
fn encode_pgm(image: &GrayImage) -> Vec<u8> {
    let header = format!("P5\n{} {}\n255\n", image.width(), image.height());
    let mut out = Vec::with_capacity(header.len() + image.as_raw().len());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(image.as_raw());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TSV: &str = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext
5\t1\t1\t1\t1\t1\t243\t23\t63\t23\t95.7\t账单
5\t1\t1\t1\t1\t2\t319\t22\t24\t24\t96.9\t详情
5\t1\t2\t1\t1\t1\t25\t337\t49\t18\t96.8\t支付
5\t1\t2\t1\t1\t2\t76\t337\t30\t18\t93.0\t时间
5\t1\t3\t1\t1\t1\t175\t339\t106\t15\t92.3\t2025-03-11
5\t1\t3\t1\t1\t2\t288\t339\t79\t15\t90.0\t12:03:45
5\t1\t4\t1\t1\t1\t141\t530\t18\t33\t0.0\t。
";

    #[test]
    fn tsv_rows_become_lines() {
        let page = OcrPage::from_tsv(TSV);
        let texts: Vec<&str> = page.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(texts, ["账单详情", "支付时间 2025-03-11 12:03:45"]);
        assert!(page.mean_conf() > 90.0);
    }

    #[test]
    fn text_pages() {
        let page = OcrPage::from_text("a\n\n 金额：５８．００ \n");
        assert_eq!(page.text(), "a\n金额:58.00\n");
    }

    #[test]
    fn pgm_header() {
        let img = GrayImage::new(3, 2);
        assert!(encode_pgm(&img).starts_with(b"P5\n3 2\n255\n"));
    }
}
