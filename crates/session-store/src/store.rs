//! The data dir: creating and opening sessions, and start-up recovery.

use crate::reserve::Reserve;
use crate::session::OWNER_FILE;
use crate::{SecretKey, Session, StoreError, run};
use domain::SessionId;
use std::fs;
use std::path::{Path, PathBuf};

/// Tunables of the store.
#[derive(Debug, Clone)]
pub struct StoreOptions {
    /// Largest accepted upload, in bytes.
    pub max_upload_bytes: u64,
}

impl Default for StoreOptions {
    fn default() -> Self {
        Self {
            max_upload_bytes: 50 * 1024 * 1024,
        }
    }
}

/// The data dir: `secret.key` and `sessions/<session_id>/`.
#[derive(Debug, Clone)]
pub struct Store {
    sessions_dir: PathBuf,
    key: SecretKey,
    options: StoreOptions,
    reserve: Reserve,
}

impl Store {
    /// Opens (creating when needed) a data dir. A relative path is made absolute here, once,
    /// so every component (the browser's file upload among them) sees absolute paths.
    pub fn open(data_dir: &Path, options: StoreOptions) -> Result<Self, StoreError> {
        let data_dir = std::path::absolute(data_dir).map_err(StoreError::io(data_dir))?;
        let sessions_dir = data_dir.join("sessions");
        fs::create_dir_all(&sessions_dir).map_err(StoreError::io(&sessions_dir))?;
        let key = SecretKey::load_or_create(&data_dir.join("secret.key"))?;
        Ok(Self {
            sessions_dir,
            key,
            options,
            reserve: Reserve::open(&data_dir),
        })
    }

    /// The options the store was opened with.
    pub fn options(&self) -> &StoreOptions {
        &self.options
    }

    /// Creates a session with a fresh random id.
    pub fn create_session(&self) -> Result<Session, StoreError> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| StoreError::Secret(e.to_string()))?;
        let id = SessionId::from_random_bytes(bytes);
        let path = self.sessions_dir.join(id.as_str());
        fs::create_dir(&path).map_err(StoreError::io(&path))?;
        Ok(self.session_at(id, path))
    }

    /// Creates a session that belongs to `owner` (a signed-in user): the owner is written
    /// before the id is handed out, so no one else ever sees it ownerless.
    pub fn create_owned_session(&self, owner: &str) -> Result<Session, StoreError> {
        let session = self.create_session()?;
        session.write_json_hidden(OWNER_FILE, &serde_json::json!({ "username": owner }))?;
        Ok(session)
    }

    /// A configuration as it is kept outside a session (a user's saved defaults): JSON text
    /// with the password encrypted under the data dir's key, as in config.json.
    pub fn seal_config(&self, config: &domain::SessionConfig) -> Result<String, StoreError> {
        Ok(crate::config_file::sealed(&self.key, config)?.to_string())
    }

    /// A configuration sealed by [`Store::seal_config`], the password decrypted.
    pub fn open_config(&self, sealed: &str) -> Result<domain::SessionConfig, StoreError> {
        let value: serde_json::Value =
            serde_json::from_str(sealed).map_err(|e| StoreError::Json {
                file: "defaults".into(),
                message: e.to_string(),
            })?;
        crate::config_file::opened(&value, Some(&self.key))
    }

    /// The data dir's secret key (it encrypts stored passwords; keys for other purposes are
    /// derived from it with [`SecretKey::derive`]).
    pub fn secret(&self) -> &SecretKey {
        &self.key
    }

    /// Opens an existing session by the raw id from a request; any id that is malformed or
    /// unknown is `SessionNotFound`.
    pub fn session(&self, raw_id: &str) -> Result<Session, StoreError> {
        let id = SessionId::parse(raw_id).map_err(|_| StoreError::SessionNotFound)?;
        let path = self.sessions_dir.join(id.as_str());
        if path.is_dir() {
            Ok(self.session_at(id, path))
        } else {
            Err(StoreError::SessionNotFound)
        }
    }

    fn session_at(&self, id: SessionId, path: PathBuf) -> Session {
        Session::new(
            id,
            path,
            self.key.clone(),
            self.options.max_upload_bytes,
            self.reserve.clone(),
        )
    }

    /// The data dir (absolute).
    pub fn data_dir(&self) -> &Path {
        self.sessions_dir.parent().unwrap_or(&self.sessions_dir)
    }

    /// Removes what a crash left half-written in the sessions: `.upload-*.part` uploads and
    /// `.tmp-*` files of atomic writes. Call at start-up, before serving. Returns how many.
    pub fn remove_crash_leftovers(&self) -> Result<usize, StoreError> {
        let entries =
            fs::read_dir(&self.sessions_dir).map_err(StoreError::io(&self.sessions_dir))?;
        let mut removed = 0;
        for entry in entries.flatten() {
            let Ok(files) = fs::read_dir(entry.path()) else {
                continue;
            };
            for file in files.flatten() {
                let name = file.file_name();
                let name = name.to_string_lossy();
                let leftover = (name.starts_with(".upload-") && name.ends_with(".part"))
                    || name.starts_with(".tmp-");
                if !leftover {
                    continue;
                }
                let path = file.path();
                let gone = if path.is_dir() {
                    fs::remove_dir_all(&path)
                } else {
                    fs::remove_file(&path)
                };
                if gone.is_ok() {
                    removed += 1;
                }
            }
        }
        Ok(removed)
    }

    /// Closes every run that a crash or a kill left open, so no client waits on it forever.
    /// Returns the sessions that were closed.
    pub fn recover_interrupted_runs(&self) -> Result<Vec<SessionId>, StoreError> {
        let entries =
            fs::read_dir(&self.sessions_dir).map_err(StoreError::io(&self.sessions_dir))?;
        let mut closed = Vec::new();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(session) = name.to_str().and_then(|n| self.session(n).ok()) else {
                continue;
            };
            if run::close_if_interrupted(&session)? {
                closed.push(session.id().clone());
            }
        }
        Ok(closed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_and_reopens_sessions() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let session = store.create_session().unwrap();
        let again = store.session(session.id().as_str()).unwrap();
        assert_eq!(again.path(), session.path());
        assert!(matches!(
            store.session("00000000-0000-4000-8000-000000000000"),
            Err(StoreError::SessionNotFound)
        ));
        assert!(matches!(
            store.session("../.."),
            Err(StoreError::SessionNotFound)
        ));
    }

    #[test]
    fn crash_leftovers_are_removed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let session = store.create_session().unwrap();
        for name in [".upload-0123.part", ".tmp-4567", "a.pdf", ".cache"] {
            fs::write(session.path().join(name), b"x").unwrap();
        }
        fs::create_dir(session.path().join(".tmp-docgen-1")).unwrap();
        assert_eq!(store.remove_crash_leftovers().unwrap(), 3);
        let mut left: Vec<String> = fs::read_dir(session.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, [".cache", "a.pdf"]);
    }

    #[test]
    fn a_relative_data_dir_is_made_absolute() {
        let store = Store::open(
            Path::new("../../target/test-relative-data-dir"),
            StoreOptions::default(),
        )
        .unwrap();
        assert!(store.data_dir().is_absolute());
        assert!(store.create_session().unwrap().path().is_absolute());
    }

    #[test]
    fn ids_are_distinct() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), StoreOptions::default()).unwrap();
        let a = store.create_session().unwrap();
        let b = store.create_session().unwrap();
        assert_ne!(a.id(), b.id());
    }
}
