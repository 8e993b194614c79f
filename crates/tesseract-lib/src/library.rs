//! Opening libtesseract once per process and resolving the C functions the engine calls.

use std::ffi::{CStr, c_char, c_int, c_uchar, c_void};
use std::sync::OnceLock;

use libloading::Library;

use crate::error::TesseractError;

/// `TessBaseAPI*` and `ETEXT_DESC*`: opaque to us.
pub(crate) type Handle = *mut c_void;

/// Names tried in order: Debian 12/13 ship `.so.5`; `.so.4` is the same C API.
const LIBRARY_NAMES: &[&str] = &[
    "libtesseract.so.5",
    "libtesseract.so.4",
    "libtesseract.so",
    "libtesseract.5.dylib",
    "libtesseract.dylib",
];

/// The C API functions, copied out of the library. They stay valid because the library is
/// kept loaded for the life of the process (it lives in a static).
#[derive(Debug)]
pub(crate) struct Api {
    _library: Library,
    /// Kept open for `set_max_active_levels`; absent when tesseract was built without OpenMP.
    _openmp: Option<Library>,
    pub create: unsafe extern "C" fn() -> Handle,
    pub delete: unsafe extern "C" fn(Handle),
    pub end: unsafe extern "C" fn(Handle),
    pub init3: unsafe extern "C" fn(Handle, *const c_char, *const c_char) -> c_int,
    pub set_variable: unsafe extern "C" fn(Handle, *const c_char, *const c_char) -> c_int,
    pub set_page_seg_mode: unsafe extern "C" fn(Handle, c_int),
    pub set_image: unsafe extern "C" fn(Handle, *const c_uchar, c_int, c_int, c_int, c_int),
    pub set_source_resolution: unsafe extern "C" fn(Handle, c_int),
    pub recognize: unsafe extern "C" fn(Handle, Handle) -> c_int,
    pub get_tsv_text: unsafe extern "C" fn(Handle, c_int) -> *mut c_char,
    pub delete_text: unsafe extern "C" fn(*const c_char),
    pub clear: unsafe extern "C" fn(Handle),
    pub monitor_create: unsafe extern "C" fn() -> Handle,
    pub monitor_delete: unsafe extern "C" fn(Handle),
    pub monitor_set_deadline_msecs: unsafe extern "C" fn(Handle, c_int),
    pub version: unsafe extern "C" fn() -> *const c_char,
    /// `omp_set_max_active_levels`: 0 keeps tesseract's OpenMP regions on the calling thread.
    /// The program is told the same with `OMP_THREAD_LIMIT=1`; in a process, where that
    /// variable is read once at load time, this call is the per-thread equivalent. Several
    /// engines run side by side, one per core, and OpenMP's spinning helpers would only
    /// fight them.
    pub set_max_active_levels: Option<unsafe extern "C" fn(c_int)>,
}

static API: OnceLock<Result<Api, TesseractError>> = OnceLock::new();

/// The loaded API, opening the library on first use.
pub(crate) fn api() -> Result<&'static Api, TesseractError> {
    API.get_or_init(load).as_ref().map_err(Clone::clone)
}

/// Whether libtesseract can be used in this process.
pub fn available() -> bool {
    api().is_ok()
}

/// The library's version (`5.3.0`), if it is available.
pub fn version() -> Option<String> {
    let api = api().ok()?;
    // SAFETY: TessVersion returns a pointer to a static NUL-terminated string.
    let text = unsafe { (api.version)() };
    if text.is_null() {
        return None;
    }
    // SAFETY: non-null, NUL-terminated, static (see above).
    Some(
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned(),
    )
}

fn open_first(names: &[&str]) -> Result<Library, String> {
    let mut errors = Vec::new();
    for name in names {
        // SAFETY: loading a shared library runs its initialisers. libtesseract's and its
        // dependencies' (leptonica, libgomp, libstdc++) are ordinary C/C++ static
        // constructors with no preconditions on the loading program.
        match unsafe { Library::new(name) } {
            Ok(library) => return Ok(library),
            Err(error) => errors.push(error.to_string()),
        }
    }
    Err(errors.join("; "))
}

/// Copies a function pointer out of the library.
///
/// # Safety
/// `T` must be the function's true C signature.
unsafe fn symbol<T: Copy>(library: &Library, name: &str) -> Result<T, TesseractError> {
    // SAFETY: the caller guarantees the signature; the pointer outlives this call because
    // the library is stored with it in the `Api` static and never unloaded.
    unsafe { library.get::<T>(name.as_bytes()) }
        .map(|s| *s)
        .map_err(|e| TesseractError::LibraryMissing(format!("{name}: {e}")))
}

fn load() -> Result<Api, TesseractError> {
    let library = open_first(LIBRARY_NAMES).map_err(TesseractError::LibraryMissing)?;
    // Already mapped as libtesseract's dependency when it was built with OpenMP: this only
    // takes another reference to it.
    let openmp = open_first(&["libgomp.so.1"]).ok();
    // SAFETY: each signature below is copied from tesseract's capi.h (stable since 4.0):
    // pointers are `TessBaseAPI*`/`ETEXT_DESC*`/`char*`, `BOOL`, enums and sizes are `int`.
    unsafe {
        let set_max_active_levels = match &openmp {
            Some(gomp) => symbol(gomp, "omp_set_max_active_levels").ok(),
            None => None,
        };
        Ok(Api {
            create: symbol(&library, "TessBaseAPICreate")?,
            delete: symbol(&library, "TessBaseAPIDelete")?,
            end: symbol(&library, "TessBaseAPIEnd")?,
            init3: symbol(&library, "TessBaseAPIInit3")?,
            set_variable: symbol(&library, "TessBaseAPISetVariable")?,
            set_page_seg_mode: symbol(&library, "TessBaseAPISetPageSegMode")?,
            set_image: symbol(&library, "TessBaseAPISetImage")?,
            set_source_resolution: symbol(&library, "TessBaseAPISetSourceResolution")?,
            recognize: symbol(&library, "TessBaseAPIRecognize")?,
            get_tsv_text: symbol(&library, "TessBaseAPIGetTsvText")?,
            delete_text: symbol(&library, "TessDeleteText")?,
            clear: symbol(&library, "TessBaseAPIClear")?,
            monitor_create: symbol(&library, "TessMonitorCreate")?,
            monitor_delete: symbol(&library, "TessMonitorDelete")?,
            monitor_set_deadline_msecs: symbol(&library, "TessMonitorSetDeadlineMSecs")?,
            version: symbol(&library, "TessVersion")?,
            set_max_active_levels,
            _library: library,
            _openmp: openmp,
        })
    }
}
