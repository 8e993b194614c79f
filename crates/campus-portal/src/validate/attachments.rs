//! The attached invoice files: at least one, each a PDF, OFD or XML invoice by name and by its
//! first bytes (the check real systems make so a renamed photo is refused).

use sha2::{Digest, Sha256};

use crate::claims::Attachment;
use crate::form::PostedFile;

/// The attachments' records, or the refusal.
pub(crate) fn check(files: &[PostedFile]) -> Result<Vec<Attachment>, String> {
    if files.is_empty() {
        return Err("请上传发票附件".to_owned());
    }
    files.iter().map(one).collect()
}

fn one(file: &PostedFile) -> Result<Attachment, String> {
    let name = &file.name;
    let extension = name
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    let (kind, looks_right) = match extension.as_str() {
        "pdf" => ("PDF", file.bytes.starts_with(b"%PDF")),
        // An OFD is a zip archive.
        "ofd" => ("OFD", file.bytes.starts_with(b"PK\x03\x04")),
        "xml" => ("XML", looks_like_xml(&file.bytes)),
        _ => {
            return Err(format!(
                "附件 {name} 格式不支持，仅支持 PDF、OFD、XML 格式的发票文件"
            ));
        }
    };
    if file.bytes.is_empty() {
        return Err(format!("附件 {name} 是空文件"));
    }
    if !looks_right {
        return Err(format!("附件 {name} 不是有效的 {kind} 文件"));
    }
    Ok(Attachment {
        name: name.clone(),
        size: u64::try_from(file.bytes.len()).unwrap_or(u64::MAX),
        sha256: Sha256::digest(&file.bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    })
}

/// Starts with `<` after an optional UTF-8 byte-order mark and white space.
fn looks_like_xml(bytes: &[u8]) -> bool {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    body.iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'<')
}
