//! The TLS configuration handed to reqwest: rustls trusting the bundled Mozilla roots plus
//! the system's certificate store.
//!
//! reqwest 0.13's own rustls setup trusts the system store only (through the platform
//! verifier). Building the configuration here keeps both trust sources, as the crate had on
//! reqwest 0.12: a hosted provider works on a machine without `ca-certificates`, and an
//! endpoint behind an internal CA works once the CA is installed. The crypto provider is
//! aws-lc, which reqwest's `rustls` feature builds anyway.

use crate::LlmError;
use std::sync::Arc;

/// A client configuration for HTTPS endpoints. Fails only if rustls rejects its own
/// defaults, which would be a build problem, not a user's.
pub(crate) fn client_config() -> Result<rustls::ClientConfig, LlmError> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    let native = rustls_native_certs::load_native_certs();
    let (added, ignored) = roots.add_parsable_certificates(native.certs);
    // A missing or unreadable system store is common in containers; the bundled roots remain.
    tracing::debug!(
        added,
        ignored,
        errors = native.errors.len(),
        "llm: system certificate store loaded"
    );
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|_| LlmError::Config {
            reason: "无法初始化 TLS".into(),
        })?
        .with_root_certificates(roots)
        .with_no_client_auth();
    // reqwest speaks HTTP/1.1 only here (no `http2` feature); say so in the handshake.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reqwest_accepts_the_config() {
        let config = client_config().unwrap();
        assert_eq!(config.alpn_protocols, vec![b"http/1.1".to_vec()]);
        // A config of another rustls version would be an "unknown TLS backend" error here.
        let client = reqwest::Client::builder()
            .tls_backend_preconfigured(config)
            .build();
        assert!(client.is_ok());
    }
}
