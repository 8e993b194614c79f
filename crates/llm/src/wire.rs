//! The chat-completions wire format: the request as async-openai's
//! `CreateChatCompletionRequest`, and the streamed chunks.
//!
//! This module is the only place that maps the crate's types to and from that format. The
//! request is async-openai's own type, built here. The chunks are decoded into [`Chunk`],
//! which wraps async-openai's `ChatCompletionStreamResponseDelta` and adds what that type
//! lacks (see docs/llm.md, "What stays hand-written"): the `reasoning_content` /
//! `reasoning` deltas of Qwen, DeepSeek, vLLM and Ollama, finish reasons outside OpenAI's
//! five, chunks without `id`/`created`/`model`/`object`, and an in-stream `{"error": …}`.

use crate::config::JsonMode;
use crate::request::{ChatRequest, Message, Role};
use crate::response::Usage;
use async_openai::types::chat::{
    ChatCompletionRequestAssistantMessage, ChatCompletionRequestAssistantMessageContent,
    ChatCompletionRequestMessage, ChatCompletionRequestMessageContentPartImage,
    ChatCompletionRequestMessageContentPartText, ChatCompletionRequestSystemMessage,
    ChatCompletionRequestSystemMessageContent, ChatCompletionRequestUserMessage,
    ChatCompletionRequestUserMessageContent, ChatCompletionRequestUserMessageContentPart,
    ChatCompletionStreamResponseDelta, CreateChatCompletionRequest, ImageUrl, ResponseFormat,
    ResponseFormatJsonSchema,
};
use base64::Engine as _;
use serde::Deserialize;
use serde_json::Value;

/// The request for one attempt. `system` is the full system prompt (the caller's plus the
/// JSON instructions); `extra` are turns appended after the caller's messages (the
/// corrective JSON retry). Images go into the last of the caller's user messages as data
/// URLs in `image_url` content parts, before its text (Qwen-VL reads them best that way).
pub(crate) fn chat_request(
    model: &str,
    system: Option<&str>,
    request: &ChatRequest,
    extra: &[Message],
    json_mode: JsonMode,
) -> CreateChatCompletionRequest {
    let mut messages = Vec::with_capacity(request.messages.len() + extra.len() + 2);
    if let Some(system) = system {
        messages.push(ChatCompletionRequestMessage::System(
            ChatCompletionRequestSystemMessage {
                content: ChatCompletionRequestSystemMessageContent::Text(system.to_owned()),
                name: None,
            },
        ));
    }
    let image_at = if request.images.is_empty() {
        None
    } else {
        request.messages.iter().rposition(|m| m.role == Role::User)
    };
    for (index, message) in request.messages.iter().enumerate() {
        if Some(index) == image_at {
            messages.push(user(content_parts(request, &message.content)));
        } else {
            messages.push(plain(message));
        }
    }
    if image_at.is_none() && !request.images.is_empty() {
        // Images but no user turn to carry them: they get one of their own.
        messages.push(user(content_parts(request, "")));
    }
    messages.extend(extra.iter().map(plain));

    let response_format = request
        .json_schema
        .as_ref()
        .and_then(|schema| match json_mode {
            JsonMode::JsonObject => Some(ResponseFormat::JsonObject),
            JsonMode::JsonSchema => Some(ResponseFormat::JsonSchema {
                json_schema: ResponseFormatJsonSchema {
                    description: None,
                    name: "answer".into(),
                    schema: schema.clone(),
                    strict: None,
                },
            }),
            JsonMode::PromptOnly => None,
        });
    #[expect(
        deprecated,
        reason = "`max_tokens` is what DashScope, vLLM and Ollama read; async-openai marks it \
                  deprecated in favour of OpenAI's `max_completion_tokens`"
    )]
    CreateChatCompletionRequest {
        model: model.to_owned(),
        messages,
        // Set here as well as by `create_stream`, so the request is complete on its own.
        stream: Some(true),
        temperature: request.temperature,
        max_tokens: request.max_tokens,
        response_format,
        ..CreateChatCompletionRequest::default()
    }
}

fn user(content: ChatCompletionRequestUserMessageContent) -> ChatCompletionRequestMessage {
    ChatCompletionRequestMessage::User(ChatCompletionRequestUserMessage {
        content,
        name: None,
    })
}

fn plain(message: &Message) -> ChatCompletionRequestMessage {
    match message.role {
        Role::User => user(ChatCompletionRequestUserMessageContent::Text(
            message.content.clone(),
        )),
        Role::Assistant => {
            ChatCompletionRequestMessage::Assistant(ChatCompletionRequestAssistantMessage {
                content: Some(ChatCompletionRequestAssistantMessageContent::Text(
                    message.content.clone(),
                )),
                ..ChatCompletionRequestAssistantMessage::default()
            })
        }
    }
}

fn content_parts(request: &ChatRequest, text: &str) -> ChatCompletionRequestUserMessageContent {
    let mut parts: Vec<ChatCompletionRequestUserMessageContentPart> = request
        .images
        .iter()
        .map(|image| {
            let data = base64::engine::general_purpose::STANDARD.encode(&image.bytes);
            ChatCompletionRequestUserMessageContentPart::ImageUrl(
                ChatCompletionRequestMessageContentPartImage {
                    image_url: ImageUrl {
                        url: format!("data:{};base64,{data}", image.mime),
                        detail: None,
                    },
                    prompt_cache_breakpoint: None,
                },
            )
        })
        .collect();
    if !text.is_empty() {
        parts.push(ChatCompletionRequestUserMessageContentPart::Text(
            ChatCompletionRequestMessageContentPartText {
                text: text.to_owned(),
                prompt_cache_breakpoint: None,
            },
        ));
    }
    ChatCompletionRequestUserMessageContent::Array(parts)
}

/// What one streamed chunk (or a whole non-streamed answer) contributes.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Piece {
    pub reasoning: Option<String>,
    pub content: Option<String>,
    pub finish_reason: Option<String>,
    pub usage: Option<Usage>,
}

/// A decoded chunk.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum StreamItem {
    Piece(Piece),
    /// `{"error": …}`: the provider failed mid-stream (the error object, for the log).
    ProviderError(String),
}

/// One SSE payload as async-openai hands it over (`create_stream_byot`), or a whole answer.
#[derive(Debug, Deserialize)]
pub(crate) struct Chunk {
    #[serde(default)]
    choices: Vec<Choice>,
    usage: Option<WireUsage>,
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct Choice {
    /// Streamed chunks carry `delta`, a whole answer carries `message`.
    #[serde(alias = "message")]
    delta: Option<Delta>,
    /// A string, not async-openai's `FinishReason`: vLLM sends `abort`, for one.
    finish_reason: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct Delta {
    #[serde(flatten)]
    standard: ChatCompletionStreamResponseDelta,
    /// DashScope (Qwen), DeepSeek and vLLM's reasoning parsers.
    reasoning_content: Option<String>,
    /// Ollama, OpenRouter and newer vLLM.
    reasoning: Option<String>,
}

#[derive(Debug, Deserialize)]
struct WireUsage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

impl Chunk {
    /// What the chunk means for the answer.
    pub(crate) fn into_item(self) -> StreamItem {
        if let Some(error) = self.error.filter(|e| !e.is_null()) {
            return StreamItem::ProviderError(error.to_string());
        }
        let usage = self.usage.map(|u| Usage {
            prompt_tokens: u.prompt_tokens,
            completion_tokens: u.completion_tokens,
        });
        // Only the first choice matters: the request never asks for `n > 1`.
        let Some(choice) = self.choices.into_iter().next() else {
            return StreamItem::Piece(Piece {
                usage,
                ..Piece::default()
            });
        };
        let delta = choice.delta.unwrap_or_default();
        StreamItem::Piece(Piece {
            reasoning: delta
                .reasoning_content
                .or(delta.reasoning)
                .filter(|s| !s.is_empty()),
            content: delta.standard.content.filter(|s| !s.is_empty()),
            finish_reason: choice.finish_reason,
            usage,
        })
    }
}

/// Decodes one payload. `None`: not chat-completions JSON.
pub(crate) fn parse_payload(payload: &[u8]) -> Option<StreamItem> {
    serde_json::from_slice::<Chunk>(payload)
        .ok()
        .map(Chunk::into_item)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::ImageInput;
    use serde_json::json;

    fn body(request: &CreateChatCompletionRequest) -> Value {
        serde_json::to_value(request).unwrap()
    }

    #[test]
    fn text_request_body() {
        let request = ChatRequest::text("你好").with_temperature(0.5);
        let body = body(&chat_request(
            "qwen-plus",
            Some("sys"),
            &request,
            &[],
            JsonMode::JsonObject,
        ));
        assert_eq!(
            body,
            json!({"model":"qwen-plus","stream":true,"temperature":0.5,"messages":[
                {"role":"system","content":"sys"},{"role":"user","content":"你好"}]})
        );
    }

    #[test]
    fn temperature_goes_out_as_its_shortest_decimal() {
        let request = ChatRequest::text("x").with_temperature(0.1);
        let text = serde_json::to_string(&chat_request(
            "m",
            None,
            &request,
            &[],
            JsonMode::PromptOnly,
        ))
        .unwrap();
        assert!(text.contains("\"temperature\":0.1}"), "{text}");
    }

    #[test]
    fn images_become_data_urls_in_the_last_user_message() {
        let mut request = ChatRequest::vision("看图")
            .with_image(ImageInput::new("image/png", vec![1, 2, 3]))
            .with_json_schema(json!({"type":"object"}));
        request.messages.insert(0, Message::user("earlier"));
        let extra = [Message::assistant("bad"), Message::user("fix")];
        let body = body(&chat_request(
            "qwen-vl-max",
            None,
            &request,
            &extra,
            JsonMode::JsonObject,
        ));
        let messages = body["messages"].as_array().unwrap();
        assert_eq!(messages[0]["content"], "earlier");
        assert_eq!(
            messages[1]["content"],
            json!([{"type":"image_url","image_url":{"url":"data:image/png;base64,AQID"}},
                   {"type":"text","text":"看图"}])
        );
        assert_eq!(messages[2]["role"], "assistant");
        assert_eq!(messages[2]["content"], "bad");
        assert_eq!(messages[3]["content"], "fix");
        assert_eq!(body["response_format"], json!({"type":"json_object"}));
    }

    #[test]
    fn json_modes() {
        let request = ChatRequest::text("x").with_json_schema(json!({"type":"object"}));
        let schema_mode = body(&chat_request(
            "m",
            None,
            &request,
            &[],
            JsonMode::JsonSchema,
        ));
        assert_eq!(
            schema_mode["response_format"],
            json!({"type":"json_schema","json_schema":{"name":"answer","schema":{"type":"object"}}})
        );
        let prompt_only = body(&chat_request(
            "m",
            None,
            &request,
            &[],
            JsonMode::PromptOnly,
        ));
        assert!(prompt_only.get("response_format").is_none());
        let no_schema = body(&chat_request(
            "m",
            None,
            &ChatRequest::text("x"),
            &[],
            JsonMode::JsonObject,
        ));
        assert!(no_schema.get("response_format").is_none());
    }

    fn parse(payload: &str) -> Option<StreamItem> {
        parse_payload(payload.as_bytes())
    }

    #[test]
    fn stream_payloads() {
        assert_eq!(parse("not json"), None);
        let reasoning =
            parse(r#"{"choices":[{"index":0,"delta":{"content":null,"reasoning_content":"想"}}]}"#);
        assert_eq!(
            reasoning,
            Some(StreamItem::Piece(Piece {
                reasoning: Some("想".into()),
                ..Piece::default()
            }))
        );
        let ollama = parse(r#"{"choices":[{"delta":{"reasoning":"r","content":""}}]}"#);
        assert_eq!(
            ollama,
            Some(StreamItem::Piece(Piece {
                reasoning: Some("r".into()),
                ..Piece::default()
            }))
        );
        let last = parse(
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
            parse(r#"{"error":{"message":"overloaded"}}"#),
            Some(StreamItem::ProviderError(
                r#"{"message":"overloaded"}"#.into()
            ))
        );
    }

    #[test]
    fn provider_specific_shapes() {
        // A full OpenAI chunk with the role delta, and vLLM's `abort`.
        let role = parse(
            r#"{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}"#,
        );
        assert_eq!(role, Some(StreamItem::Piece(Piece::default())));
        let abort = parse(r#"{"choices":[{"index":0,"delta":{},"finish_reason":"abort"}]}"#);
        assert_eq!(
            abort,
            Some(StreamItem::Piece(Piece {
                finish_reason: Some("abort".into()),
                ..Piece::default()
            }))
        );
    }

    #[test]
    fn whole_completion() {
        let body = r#"{"choices":[{"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}"#;
        let Some(StreamItem::Piece(piece)) = parse(body) else {
            panic!("not a piece");
        };
        assert_eq!(piece.content.as_deref(), Some("ok"));
        assert_eq!(piece.finish_reason.as_deref(), Some("stop"));
    }
}
