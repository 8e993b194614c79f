//! `generate`: template file in, `易耗品、出库单.docx` and `易耗品、出库单.doc` out, each
//! published atomically so a reader never sees half a document.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::convert::Converter;
use crate::error::DocError;
use crate::fill;
use crate::model::OutboundDoc;

/// Name of the generated Word 97 document; fixed by the interface, character for character.
pub const DOC_FILE_NAME: &str = "易耗品、出库单.doc";
/// Name of the filled .docx kept beside it.
pub const DOCX_FILE_NAME: &str = "易耗品、出库单.docx";
/// Where the template lives, relative to the project root.
pub const DEFAULT_TEMPLATE: &str = "templates/易耗品出库单.docx";

/// The files written by [`generate`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// `out_dir/易耗品、出库单.doc`.
    pub doc_path: PathBuf,
    /// `out_dir/易耗品、出库单.docx`.
    pub docx_path: PathBuf,
    /// Placeholders of the template that were left unfilled (typos, misplaced item fields),
    /// for the session log; empty for a correct template.
    pub unknown_placeholders: Vec<String>,
}

/// Fills the template at `template_path` with `doc`, converts it to .doc and writes both files
/// into `out_dir`. Nothing is written unless both succeed, so a failure keeps the previous
/// pair of documents intact.
pub fn generate(
    template_path: &Path,
    doc: &OutboundDoc,
    out_dir: &Path,
    converter: &Converter,
) -> Result<Generated, DocError> {
    let template = std::fs::read(template_path).map_err(|source| match source.kind() {
        std::io::ErrorKind::NotFound => DocError::TemplateMissing {
            path: template_path.to_path_buf(),
        },
        _ => DocError::TemplateRead {
            path: template_path.to_path_buf(),
            source,
        },
    })?;
    let filled = fill::fill(&template, doc)?;
    if !filled.unknown_placeholders.is_empty() {
        tracing::warn!(
            template = %template_path.display(),
            unknown = ?filled.unknown_placeholders,
            "template placeholders left unfilled"
        );
    }
    let doc_bytes = converter.convert_docx_to_doc(&filled.docx)?;
    let docx_path = out_dir.join(DOCX_FILE_NAME);
    let doc_path = out_dir.join(DOC_FILE_NAME);
    write_atomic(&docx_path, &filled.docx)?;
    write_atomic(&doc_path, &doc_bytes)?;
    Ok(Generated {
        doc_path,
        docx_path,
        unknown_placeholders: filled.unknown_placeholders,
    })
}

/// Temp file in the same directory (named `.tmp-*`, so session listings skip it), fsync,
/// rename over the target, fsync of the directory so the rename itself survives a crash.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), DocError> {
    let failed = |source| DocError::Write {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    // An ordinary file's mode rather than tempfile's private 0600: it is a download.
    let mut temp = tempfile::Builder::new()
        .prefix(".tmp-docgen-")
        .permissions(std::fs::Permissions::from_mode(0o644))
        .tempfile_in(dir)
        .map_err(failed)?;
    temp.write_all(bytes).map_err(failed)?;
    temp.as_file().sync_all().map_err(failed)?;
    temp.persist(path).map_err(|e| failed(e.error))?;
    // Failing to sync the directory only weakens durability, never correctness.
    if let Ok(handle) = std::fs::File::open(dir) {
        let _ = handle.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_atomic_replaces_and_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(DOC_FILE_NAME);
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, [DOC_FILE_NAME]);
    }

    #[test]
    fn write_atomic_into_a_missing_directory_fails_clearly() {
        let error = write_atomic(Path::new("/nonexistent/dir/x.doc"), b"x").unwrap_err();
        assert!(
            error.to_string().starts_with("写入文件失败（x.doc）"),
            "{error}"
        );
    }

    #[test]
    fn the_file_names_are_the_interfaces() {
        assert_eq!(
            DOC_FILE_NAME,
            "\u{6613}\u{8017}\u{54c1}\u{3001}\u{51fa}\u{5e93}\u{5355}.doc"
        );
    }
}
