//! The client configuration: endpoint, key, models, timeouts, retry and JSON-mode settings.

use crate::LlmError;
use crate::secret::Secret;
use std::time::Duration;

/// Where and how to reach an OpenAI-compatible chat-completions endpoint.
///
/// `Option<LlmConfig>` is how the service says "no LLM": `None` means every caller takes its
/// rule-based path. The `Debug` output is safe to log: the key is masked and the base URL
/// shown without its query string.
#[derive(Clone)]
pub struct LlmConfig {
    /// The API root, e.g. `https://dashscope.aliyuncs.com/compatible-mode/v1`; the client
    /// appends `/chat/completions` (a URL already ending in it is used as is).
    pub base_url: String,
    /// Sent as `Authorization: Bearer …` when present (local servers usually need none).
    pub api_key: Option<Secret>,
    /// The model for text requests (the judgement, supplements).
    pub text_model: String,
    /// The model for requests with images (payment screenshots).
    pub vision_model: String,
    /// How long a call may stay idle and take in all.
    pub timeouts: Timeouts,
    /// Further attempts after the first for 429, 5xx, connection errors, stalls and cut
    /// streams. The one corrective JSON retry does not count against it.
    pub max_retries: u32,
    /// The waits between retries.
    pub backoff: Backoff,
    /// How the answer is asked to be JSON (the provider's JSON mode or the prompt alone).
    pub json_mode: JsonMode,
}

impl std::fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let base_url = self.base_url.split(['?', '#']).next().unwrap_or_default();
        f.debug_struct("LlmConfig")
            .field("base_url", &base_url)
            .field("api_key", &self.api_key)
            .field("text_model", &self.text_model)
            .field("vision_model", &self.vision_model)
            .field("timeouts", &self.timeouts)
            .field("max_retries", &self.max_retries)
            .field("backoff", &self.backoff)
            .field("json_mode", &self.json_mode)
            .finish()
    }
}

/// The three limits on a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// TCP (and TLS) connection set-up.
    pub connect: Duration,
    /// Longest silence allowed while waiting for the response head or between two body
    /// chunks; this is what cuts off a hung server.
    pub idle: Duration,
    /// Deadline for a whole [`crate::Client::chat`] call: every attempt, every backoff and
    /// the corrective JSON retry.
    pub total: Duration,
}

impl Timeouts {
    /// Derives the three limits from the config file's single `timeout_secs`: the whole call
    /// gets `secs`, silence gets half of it (so one retry still fits after a stall), the
    /// connection at most 10 s.
    pub fn from_secs(secs: u64) -> Self {
        let total = Duration::from_secs(secs.max(1));
        let idle = (total / 2).max(Duration::from_secs(1));
        Self {
            connect: idle.min(Duration::from_secs(10)),
            idle,
            total,
        }
    }
}

impl Default for Timeouts {
    fn default() -> Self {
        Self::from_secs(DEFAULT_TIMEOUT_SECS)
    }
}

/// Default for the config file's `timeout_secs`.
pub const DEFAULT_TIMEOUT_SECS: u64 = 180;
/// Default for [`LlmConfig::max_retries`].
pub const DEFAULT_MAX_RETRIES: u32 = 2;

/// Exponential backoff between attempts: `base · 2^n`, capped at `max`, with the upper half
/// randomised (jitter) so that several clients do not retry in lock-step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// The first wait; each retry doubles it.
    pub base: Duration,
    /// The longest wait between two attempts.
    pub max: Duration,
    /// A provider's `Retry-After` is honoured up to this long.
    pub max_retry_after: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Self {
            base: Duration::from_millis(500),
            max: Duration::from_secs(8),
            max_retry_after: Duration::from_secs(30),
        }
    }
}

/// How a JSON answer is asked for, on top of the schema in the system prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum JsonMode {
    /// `response_format: {"type":"json_object"}`: understood by OpenAI, DashScope, vLLM and
    /// Ollama alike.
    #[default]
    JsonObject,
    /// `response_format: {"type":"json_schema", …}` with the schema (OpenAI, vLLM, recent
    /// Ollama); some providers reject it with HTTP 400.
    JsonSchema,
    /// No `response_format` at all, for endpoints that reject the field; the system prompt
    /// and the validator still apply.
    PromptOnly,
}

impl LlmConfig {
    /// Builds a configuration from the config file's `[llm]` section: `base_url`, the key
    /// (read by the caller with [`Secret::from_env`] from the variable `api_key_env` names),
    /// `text_model`, `vision_model` (defaults to the text model) and `timeout_secs`.
    /// Everything else takes its default.
    pub fn from_parts(
        base_url: &str,
        api_key: Option<Secret>,
        text_model: &str,
        vision_model: Option<&str>,
        timeout_secs: u64,
    ) -> Result<Self, LlmError> {
        let base_url = base_url.trim();
        let url = reqwest::Url::parse(base_url).map_err(|_| LlmError::Config {
            reason: "base_url 不是有效的网址".into(),
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(LlmError::Config {
                reason: "base_url 必须以 http:// 或 https:// 开头".into(),
            });
        }
        let text_model = text_model.trim();
        if text_model.is_empty() {
            return Err(LlmError::Config {
                reason: "text_model 不能为空".into(),
            });
        }
        let vision_model = vision_model
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .unwrap_or(text_model);
        Ok(Self {
            base_url: base_url.to_owned(),
            api_key: api_key.filter(|k| !k.is_empty()),
            text_model: text_model.to_owned(),
            vision_model: vision_model.to_owned(),
            timeouts: Timeouts::from_secs(timeout_secs),
            max_retries: DEFAULT_MAX_RETRIES,
            backoff: Backoff::default(),
            json_mode: JsonMode::default(),
        })
    }

    /// The chat-completions URL derived from `base_url`.
    pub(crate) fn endpoint(&self) -> Result<reqwest::Url, LlmError> {
        let mut url = reqwest::Url::parse(self.base_url.trim()).map_err(|_| LlmError::Config {
            reason: "base_url 不是有效的网址".into(),
        })?;
        let path = url.path().trim_end_matches('/').to_owned();
        if !path.ends_with("/chat/completions") {
            url.set_path(&format!("{path}/chat/completions"));
        }
        Ok(url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_parts_defaults_the_vision_model_and_derives_timeouts() {
        let config = LlmConfig::from_parts(
            " http://localhost:11434/v1 ",
            Some(Secret::new("")),
            "qwen2.5",
            Some(" "),
            60,
        )
        .unwrap();
        assert_eq!(config.vision_model, "qwen2.5");
        assert!(config.api_key.is_none());
        assert_eq!(config.timeouts.total, Duration::from_secs(60));
        assert_eq!(config.timeouts.idle, Duration::from_secs(30));
        assert_eq!(config.timeouts.connect, Duration::from_secs(10));
        assert_eq!(
            config.endpoint().unwrap().as_str(),
            "http://localhost:11434/v1/chat/completions"
        );
    }

    #[test]
    fn endpoint_accepts_trailing_slash_and_full_path() {
        for base in [
            "https://dashscope.aliyuncs.com/compatible-mode/v1/",
            "https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions",
        ] {
            let config = LlmConfig::from_parts(base, None, "qwen-plus", None, 10).unwrap();
            assert_eq!(
                config.endpoint().unwrap().as_str(),
                "https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions"
            );
        }
    }

    #[test]
    fn from_parts_rejects_bad_input_without_echoing_it() {
        let err = LlmConfig::from_parts("ftp://x?key=abc", None, "m", None, 10).unwrap_err();
        assert!(!err.to_string().contains("abc"));
        assert!(LlmConfig::from_parts("not a url", None, "m", None, 10).is_err());
        assert!(LlmConfig::from_parts("http://x/v1", None, " ", None, 10).is_err());
    }

    #[test]
    fn debug_hides_key_and_query() {
        let config = LlmConfig::from_parts(
            "https://example.test/v1?api-key=q-secret",
            Some(Secret::new("k-secret")),
            "m",
            None,
            10,
        )
        .unwrap();
        let debug = format!("{config:?}");
        assert!(!debug.contains("secret"), "{debug}");
        assert!(debug.contains("https://example.test/v1"), "{debug}");
    }

    #[test]
    fn tiny_timeouts_stay_usable() {
        let t = Timeouts::from_secs(0);
        assert_eq!(t.total, Duration::from_secs(1));
        assert_eq!(t.idle, Duration::from_secs(1));
    }
}
