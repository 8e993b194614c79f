//! Reading a multipart form submission into memory: text fields and files, within size caps.

use crate::error::PortalError;
use crate::model::Attachment;
use actix_multipart::Multipart;
use futures_util::StreamExt;
use sha2::{Digest, Sha256};

/// Longest text field kept; a longer one is cut (no form field here needs more).
const MAX_TEXT_BYTES: usize = 64 * 1024;
/// Most parts read from one submission.
const MAX_PARTS: usize = 5_000;

/// The size caps of one submission.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub file_bytes: usize,
    pub request_bytes: usize,
}

/// One uploaded file with its bytes.
#[derive(Debug, Clone)]
pub(crate) struct ReceivedFile {
    pub field: String,
    pub name: String,
    pub bytes: Vec<u8>,
}

impl ReceivedFile {
    pub fn attachment(&self) -> Attachment {
        let digest = Sha256::digest(&self.bytes);
        Attachment {
            field: self.field.clone(),
            name: self.name.clone(),
            size: self.bytes.len() as u64,
            sha256: digest.iter().map(|b| format!("{b:02x}")).collect(),
        }
    }
}

/// What a submission carried, plus the problems met while reading it (shown on the form).
#[derive(Debug, Default)]
pub(crate) struct Received {
    pub fields: Vec<(String, String)>,
    pub files: Vec<ReceivedFile>,
    pub problems: Vec<String>,
}

impl Received {
    /// The first value of text field `name`, or empty.
    pub fn value(&self, name: &str) -> String {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }
}

/// Reads the whole submission. A file over the cap is skipped with a problem noted and reading
/// goes on, so the rest of the form can be shown again; past the whole-request cap reading stops.
pub(crate) async fn receive(
    payload: &mut Multipart,
    limits: Limits,
) -> Result<Received, PortalError> {
    let mut received = Received::default();
    let mut total = 0usize;
    let mut parts = 0usize;
    // Never poll the stream again after it ended or failed: actix-multipart panics on that.
    while let Some(field) = payload.next().await {
        let mut field = field.map_err(malformed)?;
        parts += 1;
        if parts > MAX_PARTS {
            received.problems.push("提交的字段过多".to_owned());
            return Ok(received);
        }
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field
            .content_disposition()
            .and_then(|cd| cd.get_filename())
            .map(str::to_owned);
        let cap = if file_name.is_some() {
            limits.file_bytes
        } else {
            MAX_TEXT_BYTES
        };
        let mut bytes = Vec::new();
        let mut over = false;
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(malformed)?;
            total += chunk.len();
            if total > limits.request_bytes {
                received.problems.push(format!(
                    "提交内容过大（合计不超过 {} MiB）",
                    limits.request_bytes / (1024 * 1024)
                ));
                return Ok(received);
            }
            if over {
                continue;
            }
            if bytes.len() + chunk.len() > cap {
                over = true;
                if file_name.is_some() {
                    // The file is refused anyway; free its bytes now.
                    bytes = Vec::new();
                } else {
                    let room = cap.saturating_sub(bytes.len());
                    bytes.extend_from_slice(chunk.get(..room).unwrap_or_default());
                }
            } else {
                bytes.extend_from_slice(&chunk);
            }
        }
        match file_name {
            // An empty file input still sends a part, with an empty file name and no content.
            Some(file_name) if file_name.is_empty() && bytes.is_empty() => {}
            Some(file_name) if over => received.problems.push(format!(
                "附件过大：{file_name}（单个文件不超过 {} MiB）",
                limits.file_bytes / (1024 * 1024)
            )),
            Some(file_name) => received.files.push(ReceivedFile {
                field: name,
                name: file_name,
                bytes,
            }),
            None => {
                if over {
                    received.problems.push(format!("字段内容过长：{name}"));
                }
                received
                    .fields
                    .push((name, String::from_utf8_lossy(&bytes).into_owned()));
            }
        }
    }
    Ok(received)
}

fn malformed(error: actix_multipart::MultipartError) -> PortalError {
    PortalError::Malformed(error.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attachment_hashes_the_content() {
        let file = ReceivedFile {
            field: "invoice-files".into(),
            name: "a.pdf".into(),
            bytes: b"hello world".to_vec(),
        };
        let attachment = file.attachment();
        assert_eq!(attachment.size, 11);
        assert_eq!(
            attachment.sha256,
            "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"
        );
    }
}
