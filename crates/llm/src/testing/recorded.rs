//! What the scripted server saw of each request.

use serde_json::Value;

/// One request as received.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    /// The HTTP method.
    pub method: String,
    /// Path and query, e.g. `/v1/chat/completions`.
    pub path: String,
    /// The raw `Authorization` header, e.g. `Bearer sk-…`.
    pub authorization: Option<String>,
    /// The `model` field.
    pub model: Option<String>,
    /// The messages, in order.
    pub messages: Vec<RecordedMessage>,
    /// Whether any message carried an image part.
    pub has_images: bool,
    /// The `response_format` object, if sent.
    pub response_format: Option<Value>,
    /// Whether streaming was asked for.
    pub stream: bool,
    /// The whole JSON body (`Null` if it was not JSON), for anything not broken out above.
    pub body: Value,
}

/// One message of a recorded request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedMessage {
    /// `system`, `user` or `assistant`.
    pub role: String,
    /// The text: the string content, or the text parts of a content array joined by `\n`.
    pub text: String,
    /// The `image_url.url` of each image part (data URLs from this crate's client).
    pub image_urls: Vec<String>,
}

impl RecordedRequest {
    pub(crate) fn new(
        method: String,
        path: String,
        authorization: Option<String>,
        body: &[u8],
    ) -> Self {
        let body: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        let messages: Vec<RecordedMessage> = body["messages"]
            .as_array()
            .map(|list| list.iter().map(message).collect())
            .unwrap_or_default();
        Self {
            method,
            path,
            authorization,
            model: body["model"].as_str().map(str::to_owned),
            has_images: messages.iter().any(|m| !m.image_urls.is_empty()),
            messages,
            response_format: body.get("response_format").cloned(),
            stream: body["stream"].as_bool().unwrap_or(false),
            body,
        }
    }

    /// The system message's text, if any.
    pub fn system(&self) -> Option<&str> {
        self.messages
            .iter()
            .find(|m| m.role == "system")
            .map(|m| m.text.as_str())
    }

    /// The last message's text.
    pub fn last_text(&self) -> Option<&str> {
        self.messages.last().map(|m| m.text.as_str())
    }
}

fn message(value: &Value) -> RecordedMessage {
    let role = value["role"].as_str().unwrap_or_default().to_owned();
    let (text, image_urls) = match &value["content"] {
        Value::String(text) => (text.clone(), Vec::new()),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter(|p| p["type"] == "text")
                .filter_map(|p| p["text"].as_str())
                .collect();
            let urls = parts
                .iter()
                .filter(|p| p["type"] == "image_url")
                .filter_map(|p| p["image_url"]["url"].as_str().map(str::to_owned))
                .collect();
            (texts.join("\n"), urls)
        }
        _ => (String::new(), Vec::new()),
    };
    RecordedMessage {
        role,
        text,
        image_urls,
    }
}
