//! Reading a posted claim form (`multipart/form-data`, as `fetch` with a `FormData` sends it)
//! into its text fields and files, within size limits.

use actix_multipart::Multipart;
use futures_util::StreamExt;

/// Largest single attachment (real systems state a per-file limit beside the file input).
pub(crate) const MAX_FILE_BYTES: usize = 20 * 1024 * 1024;
/// Largest whole post.
const MAX_TOTAL_BYTES: usize = 60 * 1024 * 1024;
/// Largest text field; a longer one is not a form a person filled in.
const MAX_FIELD_BYTES: usize = 64 * 1024;

/// Why a post could not be read at all (before any field is validated).
#[derive(Debug, thiserror::Error)]
pub(crate) enum FormError {
    #[error("附件 {0} 超过 20MB，请压缩后重新上传")]
    FileTooLarge(String),
    #[error("提交的内容过大")]
    TooLarge,
    #[error("提交的数据格式不正确")]
    Malformed,
}

/// An uploaded file.
#[derive(Debug)]
pub(crate) struct PostedFile {
    pub(crate) name: String,
    pub(crate) bytes: Vec<u8>,
}

/// The text fields in posting order (`inv_no[]` repeats once per row) and the files.
#[derive(Debug, Default)]
pub(crate) struct PostedForm {
    fields: Vec<(String, String)>,
    pub(crate) files: Vec<PostedFile>,
}

impl PostedForm {
    /// The first value of a field, trimmed; empty when absent.
    pub(crate) fn value(&self, name: &str) -> &str {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.trim())
    }

    /// Every value of a repeated field, trimmed, in posting order.
    pub(crate) fn values(&self, name: &str) -> Vec<&str> {
        self.fields
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.trim())
            .collect()
    }

    #[cfg(test)]
    pub(crate) fn from_fields(fields: &[(&str, &str)], files: Vec<PostedFile>) -> Self {
        let fields = fields
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect();
        Self { fields, files }
    }
}

/// Reads the whole post. A file part with an empty file name is what a browser sends for a file
/// input left empty, and is skipped.
pub(crate) async fn read(mut payload: Multipart) -> Result<PostedForm, FormError> {
    let mut form = PostedForm::default();
    let mut total = 0_usize;
    while let Some(field) = payload.next().await {
        let mut field = field.map_err(|_| FormError::Malformed)?;
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field
            .content_disposition()
            .and_then(|cd| cd.get_filename())
            .map(str::to_owned);
        let limit = if file_name.is_some() {
            MAX_FILE_BYTES
        } else {
            MAX_FIELD_BYTES
        };
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|_| FormError::Malformed)?;
            total += chunk.len();
            if total > MAX_TOTAL_BYTES {
                return Err(FormError::TooLarge);
            }
            if bytes.len() + chunk.len() > limit {
                return Err(match file_name {
                    Some(file) => FormError::FileTooLarge(file),
                    None => FormError::TooLarge,
                });
            }
            bytes.extend_from_slice(&chunk);
        }
        match file_name {
            // Only the `files` input holds attachments; another file part is not part of a claim.
            Some(file) if file.is_empty() || name != "files" => {}
            Some(file) => form.files.push(PostedFile { name: file, bytes }),
            None => {
                let text = String::from_utf8(bytes).map_err(|_| FormError::Malformed)?;
                form.fields.push((name, text));
            }
        }
    }
    Ok(form)
}
