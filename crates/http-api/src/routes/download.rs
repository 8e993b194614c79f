//! GET /api/download: one file of the session, as an attachment with a UTF-8 file name.

use crate::{ApiError, AppState};
use actix_files::NamedFile;
use actix_web::http::header::{
    Charset, ContentDisposition, DispositionParam, DispositionType, ExtendedValue,
};
use actix_web::{HttpRequest, HttpResponse, mime, web};

pub(crate) async fn download(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    request: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let (session_id, file_name) = path.into_inner();
    let session = state.store.session(&session_id)?;
    let file_path = session.existing_file(&file_name)?;
    let file = NamedFile::open_async(&file_path)
        .await
        .map_err(|_| ApiError::FileNotFound)?
        .set_content_type(content_type_for(&file_name))
        .set_content_disposition(attachment(&file_name))
        .use_etag(true)
        .use_last_modified(true);
    Ok(file.into_response(&request))
}

/// Content types fixed by the interface: CSV and Word documents, everything else octet-stream.
fn content_type_for(file_name: &str) -> mime::Mime {
    let lower = file_name.to_ascii_lowercase();
    let text = if lower.ends_with(".csv") {
        "text/csv; charset=utf-8"
    } else if lower.ends_with(".doc") {
        "application/msword"
    } else {
        "application/octet-stream"
    };
    text.parse().unwrap_or(mime::APPLICATION_OCTET_STREAM)
}

/// `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded name>`: old
/// clients use the fallback, every current browser the UTF-8 name.
fn attachment(file_name: &str) -> ContentDisposition {
    let fallback: String = file_name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    ContentDisposition {
        disposition: DispositionType::Attachment,
        parameters: vec![
            DispositionParam::Filename(fallback),
            DispositionParam::FilenameExt(ExtendedValue {
                charset: Charset::Ext("UTF-8".into()),
                language_tag: None,
                value: file_name.as_bytes().to_vec(),
            }),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_follow_the_interface() {
        assert_eq!(
            content_type_for("a.CSV").to_string(),
            "text/csv; charset=utf-8"
        );
        assert_eq!(
            content_type_for("易耗品、出库单.doc").to_string(),
            "application/msword"
        );
        assert_eq!(
            content_type_for("x.pdf").to_string(),
            "application/octet-stream"
        );
    }

    #[test]
    fn disposition_carries_the_utf8_name() {
        let header = attachment("易耗品、出库单.doc").to_string();
        assert!(header.starts_with("attachment"), "{header}");
        assert!(header.contains("filename*=UTF-8''%E6%98%93"), "{header}");
        assert!(header.contains("filename=\"_______.doc\""), "{header}");
    }
}
