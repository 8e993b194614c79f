//! config.json on disk: the six string fields, the password encrypted with the data dir's key.

use crate::session::read_json_at;
use crate::{SecretKey, StoreError, write_atomic};
use domain::{ConfigField, SessionConfig};
use serde_json::{Map, Value};
use std::path::Path;

pub(crate) fn write(
    path: &Path,
    key: &SecretKey,
    config: &SessionConfig,
) -> Result<(), StoreError> {
    let bytes = serde_json::to_vec_pretty(&sealed(key, config)?).map_err(|e| StoreError::Json {
        file: "config.json".into(),
        message: e.to_string(),
    })?;
    write_atomic(path, &bytes)
}

/// The configuration as stored: the six string fields, the password encrypted.
pub(crate) fn sealed(key: &SecretKey, config: &SessionConfig) -> Result<Value, StoreError> {
    let mut map = Map::new();
    for field in ConfigField::ALL {
        let value = match field {
            ConfigField::Password => key.encrypt(config.password.expose())?,
            ConfigField::Username => config.username.clone(),
            ConfigField::DefaultName => config.default_name.clone(),
            ConfigField::DefaultCardNo => config.default_card_no.clone(),
            ConfigField::DefaultPersonId => config.default_person_id.clone(),
            ConfigField::ConsumableStorage => config.consumable_storage.clone(),
        };
        map.insert(field.name().into(), Value::String(value));
    }
    Ok(Value::Object(map))
}

/// Reads config.json. With a key the password is decrypted; without one it is left empty,
/// for views that never show it (so a lost key never hides the other fields).
pub(crate) fn read(
    path: &Path,
    key: Option<&SecretKey>,
) -> Result<Option<SessionConfig>, StoreError> {
    let Some(value) = read_json_at(path, "config.json")? else {
        return Ok(None);
    };
    opened(&value, key).map(Some)
}

/// A stored configuration read back; without a key the password is left empty.
pub(crate) fn opened(value: &Value, key: Option<&SecretKey>) -> Result<SessionConfig, StoreError> {
    let Value::Object(map) = value else {
        return Err(StoreError::Json {
            file: "config.json".into(),
            message: "not an object".into(),
        });
    };
    let mut config = SessionConfig::default();
    for field in ConfigField::ALL {
        let Some(Value::String(stored)) = map.get(field.name()) else {
            continue;
        };
        let value = match (field, key) {
            (ConfigField::Password, Some(key)) => key.decrypt(stored)?,
            (ConfigField::Password, None) => String::new(),
            _ => stored.clone(),
        };
        config.set(field, value);
    }
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::Password;

    #[test]
    fn password_is_encrypted_on_disk_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let key = SecretKey::load_or_create(&dir.path().join("k")).unwrap();
        let path = dir.path().join("config.json");
        let config = SessionConfig {
            username: "1001".into(),
            password: Password::new("s3cret-密码"),
            consumable_storage: "仓库A".into(),
            ..SessionConfig::default()
        };
        write(&path, &key, &config).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("s3cret"), "{text}");
        assert!(text.contains("仓库A"));
        assert_eq!(read(&path, Some(&key)).unwrap(), Some(config.clone()));
        let public = read(&path, None).unwrap().unwrap();
        assert!(public.password.is_empty());
        assert_eq!(public.consumable_storage, "仓库A");
    }

    #[test]
    fn absent_file_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let key = SecretKey::load_or_create(&dir.path().join("k")).unwrap();
        assert_eq!(
            read(&dir.path().join("config.json"), Some(&key)).unwrap(),
            None
        );
    }
}
