//! The session configuration (config.json): six string fields, the password kept unprintable.

use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;

/// A finance-system password. It has no `Display`, its `Debug` is masked and it does not
/// implement `Serialize`, so it cannot leak through a log line or a JSON response by accident.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    /// Wraps a clear-text password.
    pub fn new(clear: impl Into<String>) -> Self {
        Self(clear.into())
    }

    /// The clear text, for the two places that need it: encryption at rest and the login form.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether no password is set.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() {
            "Password(\"\")"
        } else {
            "Password(***)"
        })
    }
}

impl<'de> Deserialize<'de> for Password {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Self)
    }
}

/// The six fields of a session's configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct SessionConfig {
    /// The finance-system login, which is also the employee number (工号).
    pub username: String,
    /// The finance-system password.
    pub password: Password,
    /// The claimant's name, written to the table's 人员姓名 column.
    pub default_name: String,
    /// The official card (公务卡) number for the 公务卡号 column when a screenshot shows none.
    pub default_card_no: String,
    /// The employee number for the table's 工号 column, when it differs from `username`.
    pub default_person_id: String,
    /// The storage place (存放地点) written on the outbound-stock document.
    pub consumable_storage: String,
}

/// The configuration fields by wire name, for partial updates from request bodies and for the
/// rules that ask for a field (`field = "default_name"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfigField {
    /// [`SessionConfig::username`].
    Username,
    /// [`SessionConfig::password`].
    Password,
    /// [`SessionConfig::default_name`].
    DefaultName,
    /// [`SessionConfig::default_card_no`].
    DefaultCardNo,
    /// [`SessionConfig::default_person_id`].
    DefaultPersonId,
    /// [`SessionConfig::consumable_storage`].
    ConsumableStorage,
}

impl ConfigField {
    /// Every field, in the interface's order.
    pub const ALL: [ConfigField; 6] = [
        Self::Username,
        Self::Password,
        Self::DefaultName,
        Self::DefaultCardNo,
        Self::DefaultPersonId,
        Self::ConsumableStorage,
    ];

    /// The wire name (`default_name`), as in config.json and request bodies.
    pub fn name(self) -> &'static str {
        match self {
            Self::Username => "username",
            Self::Password => "password",
            Self::DefaultName => "default_name",
            Self::DefaultCardNo => "default_card_no",
            Self::DefaultPersonId => "default_person_id",
            Self::ConsumableStorage => "consumable_storage",
        }
    }
}

impl SessionConfig {
    /// Sets one field from its string value.
    pub fn set(&mut self, field: ConfigField, value: String) {
        match field {
            ConfigField::Username => self.username = value,
            ConfigField::Password => self.password = Password::new(value),
            ConfigField::DefaultName => self.default_name = value,
            ConfigField::DefaultCardNo => self.default_card_no = value,
            ConfigField::DefaultPersonId => self.default_person_id = value,
            ConfigField::ConsumableStorage => self.consumable_storage = value,
        }
    }

    /// Whether the field holds more than blanks (the password only as set or not: it is never
    /// exposed for this).
    pub fn is_set(&self, field: ConfigField) -> bool {
        match field {
            ConfigField::Password => !self.password.is_empty(),
            ConfigField::Username => !self.username.trim().is_empty(),
            ConfigField::DefaultName => !self.default_name.trim().is_empty(),
            ConfigField::DefaultCardNo => !self.default_card_no.trim().is_empty(),
            ConfigField::DefaultPersonId => !self.default_person_id.trim().is_empty(),
            ConfigField::ConsumableStorage => !self.consumable_storage.trim().is_empty(),
        }
    }

    /// The public view of the configuration: the six fields, password always "".
    pub fn public_view(&self) -> serde_json::Value {
        serde_json::json!({
            "username": self.username,
            "password": "",
            "default_name": self.default_name,
            "default_card_no": self.default_card_no,
            "default_person_id": self.default_person_id,
            "consumable_storage": self.consumable_storage,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_never_prints() {
        let config = SessionConfig {
            password: Password::new("hunter2"),
            ..SessionConfig::default()
        };
        let debug = format!("{config:?}");
        assert!(!debug.contains("hunter2"), "{debug}");
        assert!(!config.public_view().to_string().contains("hunter2"));
        assert_eq!(config.public_view()["password"], "");
    }

    #[test]
    fn deserialises_partial_bodies() {
        let config: SessionConfig =
            serde_json::from_str(r#"{"username":"1001","password":"pw"}"#).unwrap();
        assert_eq!(config.username, "1001");
        assert_eq!(config.password.expose(), "pw");
        assert_eq!(config.consumable_storage, "");
    }

    #[test]
    fn field_names_are_their_wire_names() {
        for field in ConfigField::ALL {
            let json = serde_json::to_value(field).unwrap();
            assert_eq!(json, field.name());
            assert_eq!(serde_json::from_value::<ConfigField>(json).unwrap(), field);
        }
        let config = SessionConfig {
            default_name: " ".into(),
            password: Password::new("x"),
            ..SessionConfig::default()
        };
        assert!(!config.is_set(ConfigField::DefaultName));
        assert!(config.is_set(ConfigField::Password));
    }

    #[test]
    fn set_by_field_name() {
        let mut config = SessionConfig::default();
        for field in ConfigField::ALL {
            config.set(field, field.name().to_owned());
        }
        assert_eq!(config.default_card_no, "default_card_no");
        assert_eq!(config.password.expose(), "password");
    }
}
