//! Extracting every invoice document of a session, one file at a time, each failure contained.

use crate::cache::{self, Cached};

/// Cache namespace of extracted invoices; a new reader (here: page OCR for text layers that
/// lie) gets a new one, so that what the old one refused is read again.
const INVOICE_READER: &str = "invoice-ocr";

/// The OCR for invoice pages, shared by every session; its models load on first use.
static PAGE_OCR: std::sync::LazyLock<page_ocr::PageOcr> =
    std::sync::LazyLock::new(page_ocr::PageOcr::new);
use crate::summary::one_line;
use domain::{Event, FileStatus, InvoiceRecord};
use session_store::Session;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What happened to one file.
#[derive(Debug, Clone)]
pub enum FileOutcome {
    /// The invoice read from the file.
    Extracted(Box<InvoiceRecord>),
    /// Why the file could not be read as an invoice, in the user's words.
    Failed(String),
}

/// One invoice document of the session and its outcome.
#[derive(Debug, Clone)]
pub struct ExtractedFile {
    /// The file's name in the session.
    pub file: String,
    /// The SHA-256 of its bytes, hex (empty when it could not be read): the same file
    /// uploaded twice has the same digest.
    pub digest: String,
    /// What was read from it.
    pub outcome: FileOutcome,
}

/// Extracts every uploaded PDF, XML and OFD, in upload order, emitting `file_progress` events:
/// `processing`, then `done` with a summary, `cached` when the same bytes were extracted before
/// in this session, or `error` with the reason. One bad file never stops the others.
pub fn extract_documents(session: &Session) -> Vec<ExtractedFile> {
    let files = match session.list_files() {
        Ok(files) => files,
        Err(error) => {
            let _ = session.log("ERROR", "extractor", &format!("无法列出会话文件：{error}"));
            return Vec::new();
        }
    };
    files
        .into_iter()
        .filter(|f| f.kind.is_invoice_document())
        .map(|f| extract_one(session, &f.name))
        .collect()
}

fn emit(
    session: &Session,
    file: &str,
    status: FileStatus,
    summary: Option<String>,
    error: Option<String>,
) {
    let event = Event::FileProgress {
        file: file.to_owned(),
        status,
        summary,
        error,
    };
    if let Err(error) = session.emit(&event) {
        tracing::warn!(session = %session.id(), "cannot write file event: {error}");
    }
}

fn extract_one(session: &Session, file: &str) -> ExtractedFile {
    emit(session, file, FileStatus::Processing, None, None);
    let bytes = match session.existing_file(file).and_then(|path| {
        std::fs::read(&path).map_err(|source| session_store::StoreError::Io { path, source })
    }) {
        Ok(bytes) => bytes,
        Err(error) => {
            return failed(
                session,
                file,
                String::new(),
                format!("无法读取文件：{error}"),
            );
        }
    };
    let digest = cache::digest(&bytes);
    if let Some(cached) = cache::load::<Cached>(session, INVOICE_READER, &digest) {
        return match cached {
            Cached::Record(record) => {
                emit(
                    session,
                    file,
                    FileStatus::Cached,
                    Some(one_line(&record)),
                    None,
                );
                let _ = session.log("INFO", "extractor", &format!("{file}：使用缓存结果"));
                ExtractedFile {
                    file: file.to_owned(),
                    digest,
                    outcome: FileOutcome::Extracted(record),
                }
            }
            Cached::Error(message) => failed(session, file, digest, message),
        };
    }
    // The extractor is written not to panic; this is the last line of defence so that one
    // hostile file can never take the run down with it.
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        extraction::extract_with(&bytes, file, Some(&*PAGE_OCR))
    }));
    match outcome {
        Ok(Ok(record)) => {
            cache::store(
                session,
                INVOICE_READER,
                &digest,
                &Cached::Record(Box::new(record.clone())),
            );
            let summary = one_line(&record);
            let _ = session.log("INFO", "extractor", &format!("{file}：{summary}"));
            emit(session, file, FileStatus::Done, Some(summary), None);
            ExtractedFile {
                file: file.to_owned(),
                digest,
                outcome: FileOutcome::Extracted(Box::new(record)),
            }
        }
        Ok(Err(error)) => {
            let message = error.to_string();
            cache::store(
                session,
                INVOICE_READER,
                &digest,
                &Cached::Error(message.clone()),
            );
            failed(session, file, digest, message)
        }
        Err(_) => failed(session, file, digest, "提取时发生内部错误".to_owned()),
    }
}

fn failed(session: &Session, file: &str, digest: String, message: String) -> ExtractedFile {
    let _ = session.log("WARN", "extractor", &format!("{file}：{message}"));
    emit(
        session,
        file,
        FileStatus::Error,
        None,
        Some(message.clone()),
    );
    ExtractedFile {
        file: file.to_owned(),
        digest,
        outcome: FileOutcome::Failed(message),
    }
}
