//! The API key: a string that cannot be printed, serialized or logged by accident.

use std::fmt;

/// An API key. It has no `Display`, its `Debug` is masked and it does not implement
/// `Serialize`, so it cannot reach a log line, an error message or a file by accident. The
/// only way to read it is `Secret::expose` (crate-private), used when the `Authorization` header is built
/// and when a provider's error text is scrubbed.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// A key from its clear text.
    pub fn new(clear: impl Into<String>) -> Self {
        Self(clear.into())
    }

    /// Reads the key from the environment variable `name` (the config file names the
    /// variable, never the key). Unset, empty or non-UTF-8 means "no key".
    pub fn from_env(name: &str) -> Option<Self> {
        let value = std::env::var(name).ok()?;
        let value = value.trim();
        (!value.is_empty()).then(|| Self(value.to_owned()))
    }

    /// The clear text. Crate-private on purpose: callers outside never need it.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }

    /// Whether the key is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Replaces every occurrence of the key in `text` (e.g. a provider's error body that
    /// echoes the header) with `***`.
    pub(crate) fn scrub(&self, text: &str) -> String {
        if self.0.is_empty() {
            text.to_owned()
        } else {
            text.replace(&self.0, "***")
        }
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_empty() {
            "Secret(\"\")"
        } else {
            "Secret(***)"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_is_masked_and_scrub_removes_the_key() {
        let key = Secret::new("sk-very-secret-1234");
        assert_eq!(format!("{key:?}"), "Secret(***)");
        assert_eq!(format!("{:?}", Secret::new("")), "Secret(\"\")");
        assert_eq!(
            key.scrub("bad key sk-very-secret-1234 given"),
            "bad key *** given"
        );
        assert_eq!(key.expose(), "sk-very-secret-1234");
    }

    #[test]
    fn from_env_treats_blank_as_absent() {
        assert!(Secret::from_env("LLM_TEST_SURELY_UNSET_VARIABLE_4242").is_none());
    }
}
