//! One session directory: its files, logs, configuration and uploads.

/// The hidden file naming the session's owner.
pub(crate) const OWNER_FILE: &str = ".owner.json";

use crate::event_log::{LogFile, append_line};
use crate::reserve::Reserve;
use crate::{
    CONFIG_FILE, SecretKey, StoreError, UploadSink, config_file, utc_timestamp, write_atomic,
};
use domain::{Event, FileKind, LogLine, SessionConfig, SessionId, validate_stored_name};
use serde::Serialize;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// An uploaded file as GET /api/files lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedFile {
    /// The stored name.
    pub name: String,
    /// What kind of file it is (by its name; its content was checked at upload).
    #[serde(rename = "type")]
    pub kind: FileKind,
    /// Size in bytes.
    pub size: u64,
}

/// A session directory that exists on disk: its files, logs, configuration and uploads. Made
/// by [`Store::create_session`](crate::Store::create_session) or opened by
/// [`Store::session`](crate::Store::session); clones name the same directory.
#[derive(Debug, Clone)]
pub struct Session {
    id: SessionId,
    path: PathBuf,
    key: SecretKey,
    max_upload_bytes: u64,
    reserve: Reserve,
}

impl Session {
    pub(crate) fn new(
        id: SessionId,
        path: PathBuf,
        key: SecretKey,
        max_upload_bytes: u64,
        reserve: Reserve,
    ) -> Self {
        Self {
            id,
            path,
            key,
            max_upload_bytes,
            reserve,
        }
    }

    /// The data dir's reserved space, for the writes that end a job.
    pub(crate) fn reserve(&self) -> &Reserve {
        &self.reserve
    }

    /// The session's id.
    pub fn id(&self) -> &SessionId {
        &self.id
    }

    /// The session's directory (absolute).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path of a file named by a client; the name is validated so it stays inside the
    /// session directory and off the hidden bookkeeping files.
    pub fn file_path(&self, name: &str) -> Result<PathBuf, StoreError> {
        validate_stored_name(name)?;
        Ok(self.path.join(name))
    }

    /// Like `file_path`, but the file must exist as a regular file.
    pub fn existing_file(&self, name: &str) -> Result<PathBuf, StoreError> {
        let path = self.file_path(name)?;
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_file() => Ok(path),
            _ => Err(StoreError::FileNotFound(name.to_owned())),
        }
    }

    /// The path of one of the session's logs.
    pub fn log_path(&self, log: LogFile) -> PathBuf {
        self.path.join(log.file_name())
    }

    /// Uploaded PDFs and images, oldest first (upload order), then by name.
    pub fn list_files(&self) -> Result<Vec<ListedFile>, StoreError> {
        let entries = fs::read_dir(&self.path).map_err(StoreError::io(&self.path))?;
        let mut files: Vec<(SystemTime, ListedFile)> = Vec::new();
        for entry in entries.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if name.starts_with('.')
                || name.starts_with(crate::GENERATED_IMAGE_PREFIX)
                || crate::GENERATED_FILES.contains(&name.as_str())
            {
                continue;
            }
            let Some(kind) = FileKind::from_name(&name) else {
                continue;
            };
            let Ok(meta) = entry.metadata() else { continue };
            if !meta.is_file() {
                continue;
            }
            let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            files.push((
                modified,
                ListedFile {
                    name,
                    kind,
                    size: meta.len(),
                },
            ));
        }
        files.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
        Ok(files.into_iter().map(|(_, file)| file).collect())
    }

    /// Starts streaming an upload to disk under a safe version of `raw_name`.
    pub fn begin_upload(&self, raw_name: &str) -> Result<UploadSink, StoreError> {
        UploadSink::begin(&self.path, raw_name, self.max_upload_bytes)
    }

    /// Appends an event to the log it belongs in.
    pub fn emit(&self, event: &Event) -> Result<(), StoreError> {
        let Some(log) = LogFile::for_event(event) else {
            return Ok(());
        };
        let line = match event {
            Event::Log(line) => line.to_line(),
            other => serde_json::to_string(other).map_err(|e| StoreError::Json {
                file: log.file_name().into(),
                message: e.to_string(),
            })?,
        };
        append_line(&self.log_path(log), &self.relative_paths(&line))
    }

    /// Appends a plain line to session.log.
    pub fn log(&self, level: &str, module: &str, message: &str) -> Result<(), StoreError> {
        let line = LogLine {
            time: utc_timestamp(),
            level: level.to_owned(),
            module: module.to_owned(),
            message: message.to_owned(),
        };
        append_line(
            &self.log_path(LogFile::Session),
            &self.relative_paths(&line.to_line()),
        )
    }

    /// `text` with this session's directory and the data dir taken off every absolute path
    /// in it: clients see `x.png` and `sessions/…`, never where the data dir lives. The last
    /// net under whatever message a component wrote (logs, events, results).
    pub fn relative_paths(&self, text: &str) -> String {
        let mut text = text.to_owned();
        let session_dir = self.path.to_string_lossy();
        let data_dir = self
            .path
            .parent()
            .and_then(Path::parent)
            .map(|dir| dir.to_string_lossy().into_owned());
        for dir in [Some(session_dir.into_owned()), data_dir]
            .into_iter()
            .flatten()
        {
            if dir.len() > 1 && text.contains(dir.as_str()) {
                text = text.replace(&format!("{dir}/"), "").replace(&dir, ".");
            }
        }
        text
    }

    /// Writes a JSON document atomically.
    pub fn write_json(&self, name: &str, value: &impl Serialize) -> Result<(), StoreError> {
        let path = self.file_path(name)?;
        let bytes = serde_json::to_vec_pretty(value).map_err(|e| StoreError::Json {
            file: name.into(),
            message: e.to_string(),
        })?;
        write_atomic(&path, &bytes)
    }

    /// Writes a generated file (a PDF, a picture) atomically under a validated name: a reader
    /// sees the old file or the new one, never half of one.
    pub fn write_file(&self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        write_atomic(&self.file_path(name)?, bytes)
    }

    /// Writes a JSON document that must land even on a full disk (the state a client reads
    /// to learn how a job ended): it may draw on the data dir's reserved space.
    pub fn write_json_reserved(
        &self,
        name: &str,
        value: &impl Serialize,
    ) -> Result<(), StoreError> {
        self.reserve.write_with(|| self.write_json(name, value))
    }

    /// Reads a JSON document; `None` when absent.
    pub fn read_json(&self, name: &str) -> Result<Option<serde_json::Value>, StoreError> {
        read_json_at(&self.file_path(name)?, name)
    }

    /// The user the session belongs to; `None` for a session created with sign-in off.
    pub fn owner(&self) -> Option<String> {
        self.read_json_hidden(OWNER_FILE)?
            .get("username")?
            .as_str()
            .map(str::to_owned)
    }

    /// Reads a hidden bookkeeping JSON file (name starting with a dot); `None` when absent or
    /// unreadable.
    pub fn read_json_hidden(&self, name: &str) -> Option<serde_json::Value> {
        if !name.starts_with('.') || name.contains('/') {
            return None;
        }
        read_json_at(&self.path.join(name), name).ok().flatten()
    }

    /// Writes a hidden bookkeeping JSON file atomically.
    pub fn write_json_hidden(&self, name: &str, value: &impl Serialize) -> Result<(), StoreError> {
        if !name.starts_with('.') || name.contains('/') {
            return Err(StoreError::BadFileName(domain::FileNameError::Unsafe));
        }
        let bytes = serde_json::to_vec_pretty(value).map_err(|e| StoreError::Json {
            file: name.into(),
            message: e.to_string(),
        })?;
        write_atomic(&self.path.join(name), &bytes)
    }

    /// The session's config.json, the password decrypted; `None` when there is none yet.
    pub fn read_config(&self) -> Result<Option<SessionConfig>, StoreError> {
        config_file::read(&self.path.join(CONFIG_FILE), Some(&self.key))
    }

    /// The session's config.json without decrypting the password (left empty).
    pub fn read_public_config(&self) -> Result<Option<SessionConfig>, StoreError> {
        config_file::read(&self.path.join(CONFIG_FILE), None)
    }

    /// Writes config.json with the password encrypted. It is what the person typed and is
    /// written before a job starts, so it may draw on the reserved space like a job's end.
    pub fn write_config(&self, config: &SessionConfig) -> Result<(), StoreError> {
        let path = self.path.join(CONFIG_FILE);
        self.reserve
            .write_with(|| config_file::write(&path, &self.key, config))
    }
}

pub(crate) fn read_json_at(
    path: &Path,
    name: &str,
) -> Result<Option<serde_json::Value>, StoreError> {
    match fs::read(path) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| StoreError::Json {
                file: name.into(),
                message: e.to_string(),
            }),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(StoreError::io(path)(error)),
    }
}

#[cfg(test)]
mod tests {
    use crate::{LogFile, Store, StoreOptions};
    use domain::{Event, FileStatus};

    #[test]
    fn generated_files_are_written_whole_under_valid_names_only() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let session = store.create_session().unwrap();
        session.write_file("报销材料.pdf", b"one").unwrap();
        session.write_file("报销材料.pdf", b"two").unwrap();
        assert_eq!(
            std::fs::read(session.path().join("报销材料.pdf")).unwrap(),
            b"two"
        );
        assert!(session.write_file("../escape.pdf", b"x").is_err());
        assert!(session.write_file(".hidden", b"x").is_err());
        // The service's own package is not an upload: no run reads it back as an invoice.
        session.write_file(crate::PACKAGE_PREVIEW, b"png").unwrap();
        assert!(session.list_files().unwrap().is_empty());
    }

    #[test]
    fn messages_carry_no_absolute_path() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let session = store.create_session().unwrap();
        let inside = session.path().join("a.png").display().to_string();
        let data = dir.path().join("secret.key").display().to_string();
        session
            .log("ERROR", "pipeline", &format!("{inside} / {data}"))
            .unwrap();
        session
            .emit(&Event::FileProgress {
                file: "a.png".into(),
                status: FileStatus::Error,
                summary: None,
                error: Some(format!("cannot read {inside}")),
            })
            .unwrap();
        session
            .finish_run(&serde_json::json!({"ok": false, "error": inside}))
            .unwrap();
        for name in [
            LogFile::Session.file_name(),
            LogFile::FileEvents.file_name(),
            "result.json",
        ] {
            let text = std::fs::read_to_string(session.path().join(name)).unwrap();
            let root = dir.path().display().to_string();
            assert!(!text.contains(&root), "{name}: {text}");
            assert!(text.contains("a.png"), "{name}: {text}");
        }
    }
}
