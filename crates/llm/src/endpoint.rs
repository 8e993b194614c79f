//! The endpoint as async-openai sees it: the crate's own `Config`.
//!
//! async-openai's `OpenAIConfig` does not fit a self-hosted or non-OpenAI endpoint (measured,
//! see docs/llm.md): it always sends `Authorization: Bearer <key>`, an empty one when there is
//! no key, panics at request time on a key that is not a valid header value, adds
//! `OpenAI-Organization`/`OpenAI-Project` from the environment, and builds the URL as
//! `base + path`, which breaks a base URL with a query or one that already ends in
//! `/chat/completions`. This `Config` sends the key only when there is one, marked sensitive,
//! checks it once when the client is built, and uses [`LlmConfig::endpoint`]'s URL.

use crate::LlmError;
use crate::config::LlmConfig;
use async_openai::config::Config;
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use secrecy::SecretString;

/// The path async-openai asks [`Config::url`] for on a chat completion.
const CHAT_PATH: &str = "/chat/completions";

pub(crate) struct Endpoint {
    chat_url: String,
    api_base: String,
    headers: HeaderMap,
    api_key: SecretString,
}

impl Endpoint {
    pub(crate) fn new(config: &LlmConfig) -> Result<Self, LlmError> {
        let chat_url = config.endpoint()?.to_string();
        let mut headers = HeaderMap::new();
        if let Some(key) = &config.api_key {
            let mut value =
                HeaderValue::from_str(&format!("Bearer {}", key.expose())).map_err(|_| {
                    LlmError::Config {
                        reason: "API Key 含有无效字符".into(),
                    }
                })?;
            // Even reqwest's and async-openai's Debug output then masks it.
            value.set_sensitive(true);
            headers.insert(AUTHORIZATION, value);
        }
        let api_key = SecretString::from(
            config
                .api_key
                .as_ref()
                .map(|key| key.expose().to_owned())
                .unwrap_or_default(),
        );
        Ok(Self {
            api_base: chat_url
                .strip_suffix(CHAT_PATH)
                .unwrap_or(&chat_url)
                .to_owned(),
            chat_url,
            headers,
            api_key,
        })
    }
}

impl Config for Endpoint {
    fn headers(&self) -> HeaderMap {
        self.headers.clone()
    }

    fn url(&self, path: &str) -> String {
        // Only chat completions are ever asked for; anything else goes under the same root.
        if path == CHAT_PATH {
            self.chat_url.clone()
        } else {
            format!("{}{path}", self.api_base)
        }
    }

    fn query(&self) -> Vec<(&str, &str)> {
        Vec::new()
    }

    fn api_base(&self) -> &str {
        &self.api_base
    }

    fn api_key(&self) -> &SecretString {
        &self.api_key
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secret::Secret;

    fn config(base: &str, key: Option<&str>) -> LlmConfig {
        LlmConfig::from_parts(base, key.map(Secret::new), "m", None, 10).unwrap()
    }

    #[test]
    fn url_keeps_the_query_and_a_full_path() {
        let with_query = Endpoint::new(&config("https://x.test/v1/?api-version=1", None)).unwrap();
        assert_eq!(
            with_query.url(CHAT_PATH),
            "https://x.test/v1/chat/completions?api-version=1"
        );
        let full = Endpoint::new(&config("http://h:8000/v1/chat/completions", None)).unwrap();
        assert_eq!(full.url(CHAT_PATH), "http://h:8000/v1/chat/completions");
        assert_eq!(full.api_base(), "http://h:8000/v1");
    }

    #[test]
    fn authorization_only_with_a_key_and_masked() {
        let none = Endpoint::new(&config("http://h/v1", None)).unwrap();
        assert!(none.headers().is_empty());
        let some = Endpoint::new(&config("http://h/v1", Some("sk-abc"))).unwrap();
        let headers = some.headers();
        let value = headers.get(AUTHORIZATION).unwrap();
        assert!(value.is_sensitive());
        assert_eq!(value.to_str().unwrap(), "Bearer sk-abc");
        assert!(!format!("{headers:?}").contains("sk-abc"));
    }

    #[test]
    fn a_key_that_cannot_be_a_header_is_a_config_error() {
        let Err(err) = Endpoint::new(&config("http://h/v1", Some("sk-a\nb"))) else {
            panic!("accepted a key with a newline");
        };
        assert!(matches!(err, LlmError::Config { .. }));
    }
}
