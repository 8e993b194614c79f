//! What the scripted server answers, one reply per request, in order.

/// One scripted answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptedReply {
    /// A well-formed stream: a keep-alive comment, the role delta, each `reasoning` string as
    /// a `reasoning_content` delta, each `chunks` string as a `content` delta, a final chunk
    /// with `finish_reason: "stop"` and usage, then `[DONE]`. Every event is written in two
    /// network writes cut in its middle (often inside a UTF-8 character), with
    /// `chunk_delay_ms` between events.
    Stream {
        /// Reasoning deltas, sent first.
        reasoning: Vec<String>,
        /// Answer deltas.
        chunks: Vec<String>,
        /// The pause between events.
        chunk_delay_ms: u64,
    },
    /// A well-formed stream whose content is not valid JSON.
    Malformed,
    /// An error status with an OpenAI-style error body and, if given, `Retry-After: secs`.
    /// The body echoes the request's `Authorization` header, as careless providers do, to
    /// prove that the client never surfaces it.
    Status(u16, Option<u64>),
    /// Accepts the request and never answers (until the server is dropped).
    Hang,
    /// Starts a stream, sends two content deltas and closes the connection mid-body.
    CutMidStream,
}

impl ScriptedReply {
    /// A streamed answer of `text`, in a few chunks.
    pub fn text(text: &str) -> Self {
        Self::Stream {
            reasoning: Vec::new(),
            chunks: split_in_pieces(text, 3),
            chunk_delay_ms: 0,
        }
    }

    /// A streamed answer whose content is `value` serialized.
    pub fn json(value: &serde_json::Value) -> Self {
        Self::text(&value.to_string())
    }

    /// A stream of reasoning deltas followed by content deltas.
    pub fn reasoned(reasoning: &[&str], chunks: &[&str]) -> Self {
        Self::Stream {
            reasoning: reasoning.iter().map(|s| (*s).to_owned()).collect(),
            chunks: chunks.iter().map(|s| (*s).to_owned()).collect(),
            chunk_delay_ms: 0,
        }
    }

    /// An error status without `Retry-After`.
    pub fn status(code: u16) -> Self {
        Self::Status(code, None)
    }

    /// HTTP 429 with `Retry-After: secs`.
    pub fn rate_limited(secs: u64) -> Self {
        Self::Status(429, Some(secs))
    }
}

/// Splits `text` into at most `pieces` parts on character boundaries.
fn split_in_pieces(text: &str, pieces: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Vec::new();
    }
    let size = chars.len().div_ceil(pieces.max(1));
    chars
        .chunks(size.max(1))
        .map(|c| c.iter().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_split_on_char_boundaries() {
        let ScriptedReply::Stream { chunks, .. } = ScriptedReply::text("发票金额十二元")
        else {
            panic!("not a stream");
        };
        assert_eq!(chunks.concat(), "发票金额十二元");
        assert_eq!(chunks.len(), 3);
        assert_eq!(split_in_pieces("", 3), Vec::<String>::new());
    }
}
