//! The OpenAI chat-completions wire format: the request body and the streamed chunks.
//!
//! This module is the only place that knows those JSON shapes; everything else in the crate
//! and every caller speaks [`ChatRequest`] and [`Piece`].

use crate::config::JsonMode;
use crate::request::{ChatRequest, Message, Role};
use crate::response::Usage;
use base64::Engine as _;
use serde::Deserialize;
use serde_json::{Value, json};

/// The request body for one attempt. `system` is the full system prompt (the caller's plus
/// the JSON instructions); `extra` are turns appended after the caller's messages (the
/// corrective JSON retry). Images go into the last of the caller's user messages as data
/// URLs in the content-array format, before its text (Qwen-VL reads them best that way).
pub(crate) fn request_body(
    model: &str,
    system: Option<&str>,
    request: &ChatRequest,
    extra: &[Message],
    json_mode: JsonMode,
) -> Value {
    let mut messages = Vec::with_capacity(request.messages.len() + extra.len() + 2);
    if let Some(system) = system {
        messages.push(json!({"role": "system", "content": system}));
    }
    let image_at = if request.images.is_empty() {
        None
    } else {
        request.messages.iter().rposition(|m| m.role == Role::User)
    };
    for (index, message) in request.messages.iter().enumerate() {
        if Some(index) == image_at {
            messages
                .push(json!({"role": "user", "content": content_parts(request, &message.content)}));
        } else {
            messages.push(plain(message));
        }
    }
    if image_at.is_none() && !request.images.is_empty() {
        // Images but no user turn to carry them: they get one of their own.
        messages.push(json!({"role": "user", "content": content_parts(request, "")}));
    }
    messages.extend(extra.iter().map(plain));

    let mut body = json!({"model": model, "messages": messages, "stream": true});
    if let Some(temperature) = request.temperature {
        // Via the shortest decimal of the f32, so 0.1 goes out as 0.1, not 0.10000000149.
        let exact: f64 = temperature
            .to_string()
            .parse()
            .unwrap_or(f64::from(temperature));
        body["temperature"] = json!(exact);
    }
    if let Some(max_tokens) = request.max_tokens {
        body["max_tokens"] = json!(max_tokens);
    }
    if let Some(schema) = &request.json_schema {
        match json_mode {
            JsonMode::JsonObject => body["response_format"] = json!({"type": "json_object"}),
            JsonMode::JsonSchema => {
                body["response_format"] = json!({
                    "type": "json_schema",
                    "json_schema": {"name": "answer", "schema": schema},
                });
            }
            JsonMode::PromptOnly => {}
        }
    }
    body
}

fn plain(message: &Message) -> Value {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    json!({"role": role, "content": message.content})
}

fn content_parts(request: &ChatRequest, text: &str) -> Value {
    let mut parts: Vec<Value> = request
        .images
        .iter()
        .map(|image| {
            let data = base64::engine::general_purpose::STANDARD.encode(&image.bytes);
            json!({"type": "image_url", "image_url": {"url": format!("data:{};base64,{data}", image.mime)}})
        })
        .collect();
    if !text.is_empty() {
        parts.push(json!({"type": "text", "text": text}));
    }
    Value::Array(parts)
}

/// What one streamed event (or a whole non-streamed answer) contributes.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Piece {
    pub reasoning: Option<String>,
    pub content: Option<String>,
    pub finish_reason: Option<String>,
    pub usage: Option<Usage>,
}

/// A decoded SSE payload.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum StreamItem {
    Piece(Piece),
    /// `data: [DONE]`.
    Done,
    /// `data: {"error": …}`: the provider failed mid-stream.
    ProviderError,
}

#[derive(Deserialize)]
struct Chunk {
    #[serde(default)]
    choices: Vec<Choice>,
    usage: Option<WireUsage>,
    error: Option<Value>,
}

#[derive(Deserialize)]
struct Choice {
    /// Streamed chunks carry `delta`, a whole answer carries `message`.
    delta: Option<Delta>,
    message: Option<Delta>,
    finish_reason: Option<String>,
}

#[derive(Deserialize, Default)]
struct Delta {
    content: Option<String>,
    /// DashScope (Qwen), DeepSeek and vLLM's reasoning parsers.
    reasoning_content: Option<String>,
    /// Ollama, OpenRouter and newer vLLM.
    reasoning: Option<String>,
}

#[derive(Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

/// Decodes one SSE payload, or a whole non-streamed answer (`message` instead of `delta`)
/// from a server that ignored `stream: true`. `None`: not chat-completions JSON.
pub(crate) fn parse_stream_payload(payload: &str) -> Option<StreamItem> {
    if payload.trim() == "[DONE]" {
        return Some(StreamItem::Done);
    }
    let chunk: Chunk = serde_json::from_str(payload).ok()?;
    if chunk.error.as_ref().is_some_and(|e| !e.is_null()) {
        return Some(StreamItem::ProviderError);
    }
    Some(StreamItem::Piece(piece(chunk)))
}

fn piece(chunk: Chunk) -> Piece {
    let usage = chunk.usage.map(|u| Usage {
        prompt_tokens: u.prompt_tokens,
        completion_tokens: u.completion_tokens,
    });
    // Only the first choice matters: the request never asks for `n > 1`.
    let Some(choice) = chunk.choices.into_iter().next() else {
        return Piece {
            usage,
            ..Piece::default()
        };
    };
    let delta = choice.delta.or(choice.message).unwrap_or_default();
    Piece {
        reasoning: delta
            .reasoning_content
            .or(delta.reasoning)
            .filter(|s| !s.is_empty()),
        content: delta.content.filter(|s| !s.is_empty()),
        finish_reason: choice.finish_reason,
        usage,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::ImageInput;

    #[test]
    fn text_request_body() {
        let request = ChatRequest::text("你好").with_temperature(0.5);
        let body = request_body(
            "qwen-plus",
            Some("sys"),
            &request,
            &[],
            JsonMode::JsonObject,
        );
        assert_eq!(
            body,
            json!({"model":"qwen-plus","stream":true,"temperature":0.5,"messages":[
                {"role":"system","content":"sys"},{"role":"user","content":"你好"}]})
        );
    }

    #[test]
    fn images_become_data_urls_in_the_last_user_message() {
        let mut request = ChatRequest::vision("看图")
            .with_image(ImageInput::new("image/png", vec![1, 2, 3]))
            .with_json_schema(json!({"type":"object"}));
        request.messages.insert(0, Message::user("earlier"));
        let extra = [Message::assistant("bad"), Message::user("fix")];
        let body = request_body("qwen-vl-max", None, &request, &extra, JsonMode::JsonObject);
        let messages = body["messages"].as_array().unwrap();
        assert_eq!(messages[0]["content"], "earlier");
        assert_eq!(
            messages[1]["content"],
            json!([{"type":"image_url","image_url":{"url":"data:image/png;base64,AQID"}},
                   {"type":"text","text":"看图"}])
        );
        assert_eq!(messages[2]["role"], "assistant");
        assert_eq!(messages[3]["content"], "fix");
        assert_eq!(body["response_format"], json!({"type":"json_object"}));
    }

    #[test]
    fn json_modes() {
        let request = ChatRequest::text("x").with_json_schema(json!({"type":"object"}));
        let schema_mode = request_body("m", None, &request, &[], JsonMode::JsonSchema);
        assert_eq!(schema_mode["response_format"]["type"], "json_schema");
        assert_eq!(
            schema_mode["response_format"]["json_schema"]["schema"],
            json!({"type":"object"})
        );
        let prompt_only = request_body("m", None, &request, &[], JsonMode::PromptOnly);
        assert!(prompt_only.get("response_format").is_none());
        let no_schema = request_body(
            "m",
            None,
            &ChatRequest::text("x"),
            &[],
            JsonMode::JsonObject,
        );
        assert!(no_schema.get("response_format").is_none());
    }

    #[test]
    fn stream_payloads() {
        assert_eq!(parse_stream_payload("[DONE]"), Some(StreamItem::Done));
        assert_eq!(parse_stream_payload("not json"), None);
        let reasoning = parse_stream_payload(
            r#"{"choices":[{"index":0,"delta":{"content":null,"reasoning_content":"想"}}]}"#,
        );
        assert_eq!(
            reasoning,
            Some(StreamItem::Piece(Piece {
                reasoning: Some("想".into()),
                ..Piece::default()
            }))
        );
        let ollama =
            parse_stream_payload(r#"{"choices":[{"delta":{"reasoning":"r","content":""}}]}"#);
        assert_eq!(
            ollama,
            Some(StreamItem::Piece(Piece {
                reasoning: Some("r".into()),
                ..Piece::default()
            }))
        );
        let last = parse_stream_payload(
            r#"{"choices":[{"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}}"#,
        );
        assert_eq!(
            last,
            Some(StreamItem::Piece(Piece {
                finish_reason: Some("stop".into()),
                usage: Some(Usage {
                    prompt_tokens: 3,
                    completion_tokens: 4
                }),
                ..Piece::default()
            }))
        );
        assert_eq!(
            parse_stream_payload(r#"{"error":{"message":"overloaded"}}"#),
            Some(StreamItem::ProviderError)
        );
    }

    #[test]
    fn whole_completion() {
        let body = r#"{"choices":[{"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}"#;
        let Some(StreamItem::Piece(piece)) = parse_stream_payload(body) else {
            panic!("not a piece");
        };
        assert_eq!(piece.content.as_deref(), Some("ok"));
        assert_eq!(piece.finish_reason.as_deref(), Some("stop"));
    }
}
