//! File-name rules: making uploaded names safe, and validating names taken from requests.

use std::fmt;

/// Longest stored name in bytes; well under the 255 of common file systems, leaving room for
/// a clash counter.
const MAX_NAME_BYTES: usize = 200;

/// Why a file name was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileNameError {
    /// Nothing is left of the name (or it was empty).
    Empty,
    /// The name could reach outside the session directory or hide a file (a separator, a
    /// leading dot, a control character, overlong).
    Unsafe,
}

impl fmt::Display for FileNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Empty => "empty file name",
            Self::Unsafe => "unsafe file name",
        })
    }
}

impl std::error::Error for FileNameError {}

fn is_invisible_control(c: char) -> bool {
    // Bidirectional overrides can make `evil\u{202e}fdp.exe` display as `evilexe.pdf`.
    c.is_control()
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
}

/// Makes a client-supplied file name safe to store, keeping everything else (Chinese
/// included): the last path component only, no control or bidi characters, no characters
/// Windows forbids, no leading dots or surrounding spaces, at most 200 bytes with the
/// extension kept.
pub fn sanitize_upload_name(raw: &str) -> Result<String, FileNameError> {
    let last = raw.rsplit(['/', '\\']).next().unwrap_or_default();
    let cleaned: String = last
        .chars()
        .filter(|c| !is_invisible_control(*c))
        .map(|c| {
            if matches!(c, '<' | '>' | ':' | '"' | '|' | '?' | '*') {
                '_'
            } else {
                c
            }
        })
        .collect();
    let trimmed = cleaned
        .trim()
        .trim_start_matches(['.', ' '])
        .trim_end_matches(['.', ' ']);
    if trimmed.is_empty() {
        return Err(FileNameError::Empty);
    }
    Ok(truncate_keeping_extension(trimmed, MAX_NAME_BYTES))
}

fn truncate_keeping_extension(name: &str, max: usize) -> String {
    if name.len() <= max {
        return name.to_owned();
    }
    let (stem, extension) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && ext.len() <= 10 => (stem, Some(ext)),
        _ => (name, None),
    };
    let budget = max - extension.map_or(0, |e| e.len() + 1);
    let mut end = budget.min(stem.len());
    while !stem.is_char_boundary(end) {
        end -= 1;
    }
    match extension {
        Some(ext) => format!("{}.{ext}", &stem[..end]),
        None => stem[..end].to_owned(),
    }
}

/// The n-th alternative of a name that clashes: `发票.pdf` → `发票 (2).pdf`.
pub fn numbered_name(name: &str, n: u32) -> String {
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{stem} ({n}).{ext}"),
        _ => format!("{name} ({n})"),
    }
}

/// Checks a file name taken from a request path or body: it must name a plain file inside the
/// session directory, so no separators, no leading dot (which also refuses `..` and our hidden
/// bookkeeping files), no control characters, nothing empty or overlong.
pub fn validate_stored_name(name: &str) -> Result<(), FileNameError> {
    if name.is_empty() {
        return Err(FileNameError::Empty);
    }
    let unsafe_name = name.len() > 255
        || name.starts_with('.')
        || name.contains(['/', '\\'])
        || name.chars().any(is_invisible_control);
    if unsafe_name {
        Err(FileNameError::Unsafe)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_chinese_names() {
        assert_eq!(
            sanitize_upload_name("发票 2024.pdf").unwrap(),
            "发票 2024.pdf"
        );
    }

    #[test]
    fn strips_directories_and_dots() {
        assert_eq!(sanitize_upload_name("../../etc/passwd").unwrap(), "passwd");
        assert_eq!(
            sanitize_upload_name("C:\\Users\\x\\票.pdf").unwrap(),
            "票.pdf"
        );
        assert_eq!(sanitize_upload_name(".hidden.pdf").unwrap(), "hidden.pdf");
        assert_eq!(
            sanitize_upload_name("..").unwrap_err(),
            FileNameError::Empty
        );
        assert_eq!(
            sanitize_upload_name("dir/").unwrap_err(),
            FileNameError::Empty
        );
    }

    #[test]
    fn removes_control_and_bidi_characters() {
        assert_eq!(sanitize_upload_name("a\u{0}b.pdf").unwrap(), "ab.pdf");
        assert_eq!(
            sanitize_upload_name("x\u{202e}fdp.exe").unwrap(),
            "xfdp.exe"
        );
        assert_eq!(sanitize_upload_name("a\nb.png").unwrap(), "ab.png");
    }

    #[test]
    fn percent_sequences_are_plain_characters() {
        assert_eq!(sanitize_upload_name("%2e%2e%2f").unwrap(), "%2e%2e%2f");
    }

    #[test]
    fn long_names_keep_their_extension() {
        let long = format!("{}.pdf", "票".repeat(200));
        let safe = sanitize_upload_name(&long).unwrap();
        assert!(safe.len() <= MAX_NAME_BYTES);
        assert!(safe.ends_with("票.pdf"), "{safe}");
    }

    #[test]
    fn numbered_alternatives() {
        assert_eq!(numbered_name("发票.pdf", 2), "发票 (2).pdf");
        assert_eq!(numbered_name("noext", 3), "noext (3)");
    }

    #[test]
    fn stored_names_are_validated() {
        assert!(validate_stored_name("易耗品、出库单.doc").is_ok());
        assert!(validate_stored_name("invoice_summary.csv").is_ok());
        for bad in [
            "",
            "..",
            "../x",
            "a/b",
            "a\\b",
            ".secret.key",
            "a\u{0}b",
            "..%2f",
        ] {
            assert!(validate_stored_name(bad).is_err(), "{bad:?}");
        }
    }
}
