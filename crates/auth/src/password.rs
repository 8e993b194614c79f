//! Password hashes: argon2id with the crate's default (OWASP) parameters and a random salt per
//! hash, stored as a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$…`).

use crate::AuthError;
use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

/// The PHC string of `password` under a fresh salt.
pub fn hash_password(password: &str) -> Result<String, AuthError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|e| AuthError::Hash(e.to_string()))
}

/// True when `password` is the one `hash` was made from. A malformed hash matches nothing.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// True for a string that has the shape of an argon2 PHC hash (never a clear password).
pub fn is_password_hash(text: &str) -> bool {
    text.starts_with("$argon2") && PasswordHash::new(text).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() -> Result<(), AuthError> {
        let hash = hash_password("正确的马 battery staple")?;
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(is_password_hash(&hash));
        assert!(!hash.contains("battery"));
        assert!(verify_password("正确的马 battery staple", &hash));
        assert!(!verify_password("正确的马 battery stapler", &hash));
        assert!(!verify_password("", &hash));
        assert!(!verify_password("x", "not a hash"));
        assert!(!is_password_hash("demo123"));
        Ok(())
    }

    #[test]
    fn each_hash_has_its_own_salt() -> Result<(), AuthError> {
        assert_ne!(hash_password("same")?, hash_password("same")?);
        Ok(())
    }
}
