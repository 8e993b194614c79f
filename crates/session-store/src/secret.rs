//! The data dir's secret key (mode 0600) and encryption of passwords at rest.

use crate::StoreError;
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use chacha20poly1305::aead::{Aead, KeyInit};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use sha2::{Digest, Sha256};
use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

const KEY_LEN: usize = 32;
const NONCE_LEN: usize = 12;
/// Prefix of an encrypted value, so a reader can tell it from clear text and a future format.
const PREFIX: &str = "enc:v1:";

/// The key that encrypts passwords in config.json. Loaded from `secret.key` in the data dir,
/// created there with mode 0600 on first start.
#[derive(Clone)]
pub struct SecretKey([u8; KEY_LEN]);

impl fmt::Debug for SecretKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SecretKey(***)")
    }
}

impl SecretKey {
    /// Loads the key file, creating it when absent, and tightens its mode to 0600.
    pub fn load_or_create(path: &Path) -> Result<Self, StoreError> {
        match fs::read(path) {
            Ok(bytes) => {
                let key: [u8; KEY_LEN] = bytes.as_slice().try_into().map_err(|_| {
                    StoreError::Secret(format!(
                        "{} must hold exactly {KEY_LEN} bytes",
                        path.display()
                    ))
                })?;
                fs::set_permissions(path, fs::Permissions::from_mode(0o600))
                    .map_err(StoreError::io(path))?;
                Ok(Self(key))
            }
            Err(error) if error.kind() == ErrorKind::NotFound => Self::create(path),
            Err(error) => Err(StoreError::io(path)(error)),
        }
    }

    fn create(path: &Path) -> Result<Self, StoreError> {
        let mut key = [0u8; KEY_LEN];
        getrandom::fill(&mut key).map_err(|e| StoreError::Secret(e.to_string()))?;
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .map_err(StoreError::io(path))?;
        file.write_all(&key).map_err(StoreError::io(path))?;
        file.sync_all().map_err(StoreError::io(path))?;
        Ok(Self(key))
    }

    /// A 32-byte key for another purpose (`label`), derived so that neither key reveals the
    /// other: SHA-256 over a domain tag, the label and this key.
    pub fn derive(&self, label: &str) -> [u8; KEY_LEN] {
        let mut hasher = Sha256::new();
        hasher.update(b"reimburse derived key\0");
        hasher.update(label.as_bytes());
        hasher.update(b"\0");
        hasher.update(self.0);
        hasher.finalize().into()
    }

    /// Encrypts a secret to `enc:v1:<base64(nonce ‖ ciphertext)>`; "" stays "".
    pub fn encrypt(&self, clear: &str) -> Result<String, StoreError> {
        if clear.is_empty() {
            return Ok(String::new());
        }
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(|e| StoreError::Secret(e.to_string()))?;
        let cipher = ChaCha20Poly1305::new(Key::from_slice(&self.0));
        let sealed = cipher
            .encrypt(Nonce::from_slice(&nonce), clear.as_bytes())
            .map_err(|_| StoreError::Secret("encryption failed".into()))?;
        let mut blob = nonce.to_vec();
        blob.extend_from_slice(&sealed);
        Ok(format!("{PREFIX}{}", BASE64.encode(blob)))
    }

    /// Decrypts a value written by `encrypt`. A value without the prefix is refused rather
    /// than taken as clear text, so a hand-edited file cannot smuggle a clear password in.
    pub fn decrypt(&self, stored: &str) -> Result<String, StoreError> {
        if stored.is_empty() {
            return Ok(String::new());
        }
        let encoded = stored
            .strip_prefix(PREFIX)
            .ok_or_else(|| StoreError::Secret("password is not encrypted".into()))?;
        let blob = BASE64
            .decode(encoded)
            .map_err(|_| StoreError::Secret("password is not valid base64".into()))?;
        if blob.len() <= NONCE_LEN {
            return Err(StoreError::Secret("password blob too short".into()));
        }
        let (nonce, sealed) = blob.split_at(NONCE_LEN);
        let cipher = ChaCha20Poly1305::new(Key::from_slice(&self.0));
        let clear = cipher
            .decrypt(Nonce::from_slice(nonce), sealed)
            .map_err(|_| {
                StoreError::Secret("password cannot be decrypted with this data dir's key".into())
            })?;
        String::from_utf8(clear).map_err(|_| StoreError::Secret("password is not UTF-8".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creates_a_0600_key_and_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("secret.key");
        let key = SecretKey::load_or_create(&path).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let sealed = key.encrypt("密码 hunter2").unwrap();
        assert!(sealed.starts_with(PREFIX));
        assert!(!sealed.contains("hunter2"));
        let again = SecretKey::load_or_create(&path).unwrap();
        assert_eq!(again.decrypt(&sealed).unwrap(), "密码 hunter2");
        assert_eq!(key.encrypt("").unwrap(), "");
    }

    #[test]
    fn refuses_foreign_or_tampered_values() {
        let dir = tempfile::tempdir().unwrap();
        let key = SecretKey::load_or_create(&dir.path().join("k")).unwrap();
        let other = SecretKey::load_or_create(&dir.path().join("k2")).unwrap();
        let sealed = key.encrypt("pw").unwrap();
        assert!(other.decrypt(&sealed).is_err());
        assert!(key.decrypt("pw").is_err());
        assert!(key.decrypt("enc:v1:!!!").is_err());
        assert!(key.decrypt("enc:v1:AAAA").is_err());
        assert!(format!("{key:?}").contains("***"));
    }

    #[test]
    fn a_key_file_of_the_wrong_size_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k");
        fs::write(&path, b"short").unwrap();
        assert!(SecretKey::load_or_create(&path).is_err());
    }
}
