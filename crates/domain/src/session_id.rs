//! Session identifiers: a canonical lowercase v4-shaped UUID, validated before any path use.

use std::fmt;

/// A validated session id. Only the canonical 36-character hyphenated lowercase hex form is
/// accepted, so an id can always be used as a directory name as it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SessionId(String);

/// A session id that is not in the canonical form [`SessionId::parse`] accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionIdError;

impl fmt::Display for SessionIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid session id")
    }
}

impl std::error::Error for SessionIdError {}

impl SessionId {
    /// Parses and validates an id taken from a request path.
    pub fn parse(raw: &str) -> Result<Self, SessionIdError> {
        let bytes = raw.as_bytes();
        if bytes.len() != 36 {
            return Err(SessionIdError);
        }
        for (index, byte) in bytes.iter().enumerate() {
            let ok = match index {
                8 | 13 | 18 | 23 => *byte == b'-',
                _ => byte.is_ascii_digit() || (b'a'..=b'f').contains(byte),
            };
            if !ok {
                return Err(SessionIdError);
            }
        }
        Ok(Self(raw.to_owned()))
    }

    /// Builds an id from 16 random bytes, shaped as a version-4 UUID (122 random bits).
    pub fn from_random_bytes(mut bytes: [u8; 16]) -> Self {
        bytes[6] = (bytes[6] & 0x0f) | 0x40;
        bytes[8] = (bytes[8] & 0x3f) | 0x80;
        let mut text = String::with_capacity(36);
        for (index, byte) in bytes.iter().enumerate() {
            if matches!(index, 4 | 6 | 8 | 10) {
                text.push('-');
            }
            text.push_str(&format!("{byte:02x}"));
        }
        Self(text)
    }

    /// The id as text, usable as a directory name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_bytes_give_a_parseable_v4_id() {
        let id = SessionId::from_random_bytes([0xab; 16]);
        assert_eq!(id.as_str().len(), 36);
        assert_eq!(&id.as_str()[14..15], "4");
        assert_eq!(SessionId::parse(id.as_str()), Ok(id));
    }

    #[test]
    fn rejects_anything_else() {
        for bad in [
            "",
            "..",
            "../../etc/passwd",
            "%2e%2e%2f",
            "ABCDEF00-0000-4000-8000-000000000000",
            "abcdef00-0000-4000-8000-00000000000",
            "abcdef00-0000-4000-8000-0000000000000",
            "abcdef00x0000-4000-8000-000000000000",
            "abcdef00-0000-4000-8000-00000000000g",
            "abcdef00-0000-4000-8000-00000000000\u{0}",
        ] {
            assert!(SessionId::parse(bad).is_err(), "{bad:?}");
        }
    }
}
