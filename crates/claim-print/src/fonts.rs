//! The fonts a package is set in: the CJK fonts of the machine (Debian's fonts-noto-cjk, which
//! `cargo xtask install` installs), read once per process, plus any font an institution puts in
//! a `fonts/` folder beside its own template. typst-pdf embeds only the glyphs used (subsets).

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use typst::foundations::Bytes;
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;

/// Where the machine's CJK fonts are looked for, in order.
pub const FONT_DIRS: &[&str] = &[
    "/usr/share/fonts/opentype/noto",
    "/usr/share/fonts/truetype/noto",
    "/usr/share/fonts/opentype",
    "/usr/share/fonts/truetype",
];

/// Largest font file read (Noto CJK collections are about 20–30 MB).
const MAX_FONT_BYTES: u64 = 64 * 1024 * 1024;

/// A set of fonts and their book.
#[derive(Debug)]
pub(crate) struct Fonts {
    pub(crate) book: LazyHash<FontBook>,
    pub(crate) fonts: Vec<Font>,
}

impl Fonts {
    fn from_files(files: &[PathBuf]) -> Self {
        let fonts: Vec<Font> = files.iter().flat_map(|path| read_font(path)).collect();
        Self {
            book: LazyHash::new(FontBook::from_fonts(&fonts)),
            fonts,
        }
    }

    /// These fonts followed by `extra`.
    pub(crate) fn with(&self, extra: &[PathBuf]) -> Self {
        let mut fonts = self.fonts.clone();
        fonts.extend(extra.iter().flat_map(|path| read_font(path)));
        Self {
            book: LazyHash::new(FontBook::from_fonts(&fonts)),
            fonts,
        }
    }
}

fn read_font(path: &Path) -> Vec<Font> {
    let small = std::fs::metadata(path).is_ok_and(|m| m.len() <= MAX_FONT_BYTES);
    match std::fs::read(path) {
        Ok(bytes) if small => Font::iter(Bytes::new(bytes)).collect(),
        _ => Vec::new(),
    }
}

/// The machine's CJK fonts, read on first use and kept for the life of the process.
pub(crate) fn system_fonts() -> Arc<Fonts> {
    static FONTS: OnceLock<Arc<Fonts>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let files: Vec<PathBuf> = FONT_DIRS
                .iter()
                .find_map(|dir| {
                    let found = font_files(Path::new(dir), true);
                    (!found.is_empty()).then_some(found)
                })
                .unwrap_or_default();
            Arc::new(Fonts::from_files(&files))
        })
        .clone()
}

/// Font files in `dir` (not recursive), sorted; only CJK ones when `cjk_only` (the system
/// folders hold many fonts a claim never uses, each costing start-up time).
pub(crate) fn font_files(dir: &Path, cjk_only: bool) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().to_ascii_lowercase())
                .unwrap_or_default();
            let font = [".ttf", ".otf", ".ttc", ".otc"]
                .iter()
                .any(|e| name.ends_with(e));
            font && (!cjk_only || name.contains("cjk"))
        })
        .collect();
    out.sort();
    out
}

/// How many font faces the machine gives a package (0 means packages cannot be made).
pub fn font_count() -> usize {
    system_fonts().fonts.len()
}
