//! One loaded model that recognises grey images into tesseract's TSV, image after image.

use std::ffi::{CStr, CString, c_int};
use std::path::Path;
use std::ptr::NonNull;
use std::time::{Duration, Instant};

use crate::error::TesseractError;
use crate::library::{Api, api};

/// A `TessBaseAPI` with its language loaded. Not shared between threads at once (every
/// method takes `&mut self`); moving it to another thread is fine.
#[derive(Debug)]
pub struct Engine {
    api: &'static Api,
    handle: NonNull<std::ffi::c_void>,
    language: String,
}

// SAFETY: a TessBaseAPI has no thread affinity (no thread-locals, no thread-bound handles);
// it only must not be used by two threads at once, which `&mut self` on every use rules out.
unsafe impl Send for Engine {}

/// The header tesseract's TSV renderer writes before the rows `GetTsvText` returns; added so
/// the text reads the same as the program's output.
const TSV_HEADER: &str = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n";

fn c_string(what: &str, s: &str) -> Result<CString, TesseractError> {
    CString::new(s).map_err(|_| TesseractError::Input(format!("{what} contains NUL")))
}

fn c_int_of(what: &str, n: u64) -> Result<c_int, TesseractError> {
    c_int::try_from(n).map_err(|_| TesseractError::Input(format!("{what} {n} is too large")))
}

impl Engine {
    /// Loads `language` (`chi_sim`, `eng`, `chi_sim+eng`) from `datapath` (tesseract's own
    /// default when `None`) and sets `variables` (`tessedit_char_whitelist` …).
    pub fn new(
        datapath: Option<&Path>,
        language: &str,
        variables: &[(&str, &str)],
    ) -> Result<Self, TesseractError> {
        let api = api()?;
        let lang = c_string("language", language)?;
        let path = datapath
            .map(|p| c_string("data path", &p.to_string_lossy()))
            .transpose()?;
        // SAFETY: TessBaseAPICreate has no preconditions; null means out of memory.
        let raw = unsafe { (api.create)() };
        let handle = NonNull::new(raw).ok_or(TesseractError::Recognition)?;
        // From here `Drop` frees the handle on every path.
        let engine = Self {
            api,
            handle,
            language: language.to_owned(),
        };
        let path_ptr = path.as_ref().map_or(std::ptr::null(), |p| p.as_ptr());
        // SAFETY: a live handle and NUL-terminated strings that outlive the call; a null
        // datapath asks for tesseract's default, as the C API documents.
        let status = unsafe { (api.init3)(engine.handle.as_ptr(), path_ptr, lang.as_ptr()) };
        if status != 0 {
            return Err(TesseractError::Language(language.to_owned()));
        }
        for (name, value) in variables {
            let n = c_string("variable", name)?;
            let v = c_string("value", value)?;
            // SAFETY: a live, initialised handle and NUL-terminated strings.
            let set = unsafe { (api.set_variable)(engine.handle.as_ptr(), n.as_ptr(), v.as_ptr()) };
            if set == 0 {
                return Err(TesseractError::Input(format!("unknown variable {name}")));
            }
        }
        Ok(engine)
    }

    /// The loaded language.
    pub fn language(&self) -> &str {
        &self.language
    }

    /// Recognises an 8-bit grey image (`pixels` row by row, `width` × `height`) with page
    /// segmentation mode `psm` at `dpi`, stopping at `timeout`; returns tesseract's TSV with
    /// its header line, as `tesseract … tsv` prints it.
    pub fn recognize_tsv(
        &mut self,
        pixels: &[u8],
        width: u32,
        height: u32,
        psm: u8,
        dpi: u32,
        timeout: Duration,
    ) -> Result<String, TesseractError> {
        let expected = u64::from(width) * u64::from(height);
        if width == 0 || height == 0 || pixels.len() as u64 != expected {
            return Err(TesseractError::Input(format!(
                "{width}×{height} image with {} bytes",
                pixels.len()
            )));
        }
        let w = c_int_of("width", u64::from(width))?;
        let h = c_int_of("height", u64::from(height))?;
        let ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        let deadline = c_int_of("timeout", ms)?;
        let api = self.api;
        let handle = self.handle.as_ptr();
        if let Some(limit_nesting) = api.set_max_active_levels {
            // SAFETY: omp_set_max_active_levels takes any non-negative int.
            unsafe { limit_nesting(0) };
        }
        // SAFETY: a live handle; the pixel buffer holds exactly `height` rows of `width` bytes
        // (checked above) and tesseract copies it before returning. PSM values outside the
        // enum are rejected by tesseract, not undefined.
        unsafe {
            (api.set_page_seg_mode)(handle, c_int::from(psm));
            (api.set_image)(handle, pixels.as_ptr(), w, h, 1, w);
            (api.set_source_resolution)(handle, c_int_of("dpi", u64::from(dpi))?);
        }
        let started = Instant::now();
        // SAFETY: TessMonitorCreate has no preconditions.
        let monitor = unsafe { (api.monitor_create)() };
        if !monitor.is_null() {
            // SAFETY: a live monitor; the deadline counts from now.
            unsafe { (api.monitor_set_deadline_msecs)(monitor, deadline) };
        }
        // SAFETY: a live handle with an image set; the monitor is live or null (allowed).
        let status = unsafe { (api.recognize)(handle, monitor) };
        if !monitor.is_null() {
            // SAFETY: created above, used by no one after recognition returned.
            unsafe { (api.monitor_delete)(monitor) };
        }
        let result = if started.elapsed() >= timeout {
            Err(TesseractError::Timeout(ms))
        } else if status != 0 {
            Err(TesseractError::Recognition)
        } else {
            self.take_tsv()
        };
        // SAFETY: a live handle; frees the image and results, keeps the model loaded.
        unsafe { (api.clear)(handle) };
        result
    }

    fn take_tsv(&mut self) -> Result<String, TesseractError> {
        // SAFETY: a live handle after a successful Recognize; page number 0.
        let text = unsafe { (self.api.get_tsv_text)(self.handle.as_ptr(), 0) };
        if text.is_null() {
            return Err(TesseractError::Recognition);
        }
        // SAFETY: tesseract returns a NUL-terminated string it allocated.
        let body = unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: the string came from GetTsvText and is freed exactly once, here.
        unsafe { (self.api.delete_text)(text) };
        Ok(format!("{TSV_HEADER}{body}"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // SAFETY: the handle is live and owned by this engine; End releases the model,
        // Delete the object; neither is used again.
        unsafe {
            (self.api.end)(self.handle.as_ptr());
            (self.api.delete)(self.handle.as_ptr());
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

    use super::*;

    /// A blank page comes back as TSV with its header and no word rows. (Reading real text
    /// is tested where the screenshots are: payments' tests/recognition.rs.)
    #[test]
    fn blank_page_has_no_words() {
        let Ok(mut engine) = Engine::new(None, "eng", &[]) else {
            eprintln!("libtesseract or eng not installed; skipped");
            return;
        };
        let pixels = vec![255u8; 200 * 100];
        let tsv = engine
            .recognize_tsv(&pixels, 200, 100, 6, 150, Duration::from_secs(10))
            .unwrap();
        assert!(tsv.starts_with("level\t"));
        assert!(!tsv.lines().any(|l| l.starts_with("5\t")));
    }

    #[test]
    fn wrong_buffer_size_is_refused() {
        let Ok(mut engine) = Engine::new(None, "eng", &[]) else {
            return;
        };
        let err = engine
            .recognize_tsv(&[255; 10], 20, 20, 6, 150, Duration::from_secs(1))
            .unwrap_err();
        assert!(matches!(err, TesseractError::Input(_)));
    }

    #[test]
    fn missing_language_is_an_error() {
        if !crate::available() {
            return;
        }
        let err = Engine::new(None, "no_such_language", &[]).unwrap_err();
        assert_eq!(err, TesseractError::Language("no_such_language".into()));
    }
}
