//! What a call returns: the answer text, the streamed reasoning, the parsed JSON, usage.

/// A successful answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatResponse {
    /// The answer text as streamed (for a JSON request: the accepted answer, fences and all).
    pub content: String,
    /// The reasoning the provider streamed separately, if any.
    pub reasoning: Option<String>,
    /// The extracted, schema-valid JSON when the request had a schema.
    pub json: Option<serde_json::Value>,
    /// The model name that was requested.
    pub model: String,
    /// `stop`, `length`… as the provider reported it.
    pub finish_reason: Option<String>,
    /// Token counts, when the provider reported them.
    pub usage: Option<Usage>,
    /// HTTP requests made, retries and the corrective JSON request included.
    pub requests: u32,
}

/// Token counts, when the provider reports them in the stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Tokens of the request.
    pub prompt_tokens: u64,
    /// Tokens of the answer.
    pub completion_tokens: u64,
}
