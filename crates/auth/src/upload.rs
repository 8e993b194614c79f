//! The phone's upload token: `<expiry>.<mac>`, an HMAC-SHA256 over the session id and the
//! expiry under the service's key. It lets a phone upload into one session for a while and
//! nothing else; nothing is stored, and a new key (a new data dir) ends every token.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::fmt;

type HmacSha256 = Hmac<Sha256>;

/// Why an upload token was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum UploadTokenError {
    /// Well formed and genuine, but past its expiry.
    #[error("上传链接已过期，请在电脑上刷新二维码")]
    Expired,
    /// Not a token of this service for this session.
    #[error("上传链接无效")]
    Invalid,
}

/// Issues and checks upload tokens under one key.
#[derive(Clone)]
pub struct UploadTokens {
    key: [u8; 32],
}

impl fmt::Debug for UploadTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("UploadTokens { key: <hidden> }")
    }
}

impl UploadTokens {
    /// Tokens under `key` (the service derives it from its data dir's secret).
    pub fn new(key: [u8; 32]) -> UploadTokens {
        UploadTokens { key }
    }

    fn mac(&self, session_id: &str, expires: u64) -> Option<HmacSha256> {
        let mut mac = HmacSha256::new_from_slice(&self.key).ok()?;
        mac.update(b"reimburse upload token\0");
        mac.update(session_id.as_bytes());
        mac.update(b"\0");
        mac.update(expires.to_string().as_bytes());
        Some(mac)
    }

    /// A token for `session_id` valid until `expires` (Unix seconds).
    pub fn issue(&self, session_id: &str, expires: u64) -> String {
        let tag = self
            .mac(session_id, expires)
            .map(|mac| URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes()))
            .unwrap_or_default();
        format!("{expires}.{tag}")
    }

    /// The token's expiry (Unix seconds) when it is genuine for `session_id` and `now` is
    /// before it.
    pub fn check(&self, token: &str, session_id: &str, now: u64) -> Result<u64, UploadTokenError> {
        let (expiry, tag) = token.split_once('.').ok_or(UploadTokenError::Invalid)?;
        let expires: u64 = expiry.parse().map_err(|_| UploadTokenError::Invalid)?;
        let tag = URL_SAFE_NO_PAD
            .decode(tag)
            .map_err(|_| UploadTokenError::Invalid)?;
        let mac = self
            .mac(session_id, expires)
            .ok_or(UploadTokenError::Invalid)?;
        // verify_slice compares in constant time.
        mac.verify_slice(&tag)
            .map_err(|_| UploadTokenError::Invalid)?;
        if now >= expires {
            return Err(UploadTokenError::Expired);
        }
        Ok(expires)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SESSION: &str = "5f0c3c9e-1111-4a2b-9c3d-000000000001";

    #[test]
    fn a_token_opens_its_session_until_it_expires() {
        let tokens = UploadTokens::new([7; 32]);
        let token = tokens.issue(SESSION, 1_000);
        assert_eq!(tokens.check(&token, SESSION, 999), Ok(1_000));
        assert_eq!(
            tokens.check(&token, SESSION, 1_000),
            Err(UploadTokenError::Expired)
        );
    }

    #[test]
    fn another_session_a_changed_expiry_or_another_key_is_invalid() {
        let tokens = UploadTokens::new([7; 32]);
        let token = tokens.issue(SESSION, 1_000);
        let other = "5f0c3c9e-1111-4a2b-9c3d-000000000002";
        assert_eq!(
            tokens.check(&token, other, 0),
            Err(UploadTokenError::Invalid)
        );
        let stretched = token.replacen("1000.", "9000.", 1);
        assert_eq!(
            tokens.check(&stretched, SESSION, 0),
            Err(UploadTokenError::Invalid)
        );
        assert_eq!(
            UploadTokens::new([8; 32]).check(&token, SESSION, 0),
            Err(UploadTokenError::Invalid)
        );
        for junk in ["", ".", "abc", "1000.", "1000.!!!", "x.y"] {
            assert_eq!(
                tokens.check(junk, SESSION, 0),
                Err(UploadTokenError::Invalid)
            );
        }
    }
}
