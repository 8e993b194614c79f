//! What a caller asks: the model kind, the conversation, images, an optional JSON schema.

/// Which configured model answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ModelKind {
    /// The text model.
    #[default]
    Text,
    /// The vision model; any request with images goes to it whatever its kind says.
    Vision,
}

/// Who speaks a [`Message`]. The system prompt is [`ChatRequest::system`], not a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The person (or the program) asking.
    User,
    /// The model's earlier answer.
    Assistant,
}

/// One turn of the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Who speaks.
    pub role: Role,
    /// What is said.
    pub content: String,
}

impl Message {
    /// A user turn.
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: content.into(),
        }
    }

    /// An assistant turn (an earlier answer, for a follow-up).
    pub fn assistant(content: impl Into<String>) -> Self {
        Self {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// An image for the vision model, e.g. a payment screenshot. It is attached to the last
/// user message; the bytes never appear in a log.
#[derive(Clone, PartialEq, Eq)]
pub struct ImageInput {
    /// `image/png`, `image/jpeg`, `image/webp`…
    pub mime: String,
    /// The encoded image.
    pub bytes: Vec<u8>,
}

impl ImageInput {
    /// An image of the given MIME type.
    pub fn new(mime: impl Into<String>, bytes: Vec<u8>) -> Self {
        Self {
            mime: mime.into(),
            bytes,
        }
    }
}

impl std::fmt::Debug for ImageInput {
    // Megabytes of pixels in a Debug line help nobody.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImageInput")
            .field("mime", &self.mime)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

/// One chat call.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChatRequest {
    /// Which configured model answers (images always go to the vision model).
    pub model_kind: ModelKind,
    /// The system prompt.
    pub system: Option<String>,
    /// The conversation, oldest first.
    pub messages: Vec<Message>,
    /// Images attached to the last user message.
    pub images: Vec<ImageInput>,
    /// When set, the answer must be JSON valid against this schema (the subset documented in
    /// [`crate::validate`]); the client asks for JSON, extracts, validates and corrects once.
    pub json_schema: Option<serde_json::Value>,
    /// Sampling temperature (0 for the judgement).
    pub temperature: Option<f32>,
    /// A limit on the answer's length.
    pub max_tokens: Option<u32>,
}

impl ChatRequest {
    /// A request to the text model with one user message.
    pub fn text(user: impl Into<String>) -> Self {
        Self {
            messages: vec![Message::user(user)],
            ..Self::default()
        }
    }

    /// A request to the vision model with one user message.
    pub fn vision(user: impl Into<String>) -> Self {
        Self {
            model_kind: ModelKind::Vision,
            ..Self::text(user)
        }
    }

    /// With a system prompt.
    pub fn with_system(mut self, system: impl Into<String>) -> Self {
        self.system = Some(system.into());
        self
    }

    /// With one more image.
    pub fn with_image(mut self, image: ImageInput) -> Self {
        self.images.push(image);
        self
    }

    /// Asking for JSON valid against `schema`.
    pub fn with_json_schema(mut self, schema: serde_json::Value) -> Self {
        self.json_schema = Some(schema);
        self
    }

    /// With a sampling temperature.
    pub fn with_temperature(mut self, temperature: f32) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// The model kind actually used: images force the vision model.
    pub fn effective_model_kind(&self) -> ModelKind {
        if self.images.is_empty() {
            self.model_kind
        } else {
            ModelKind::Vision
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_force_the_vision_model_and_hide_in_debug() {
        let request =
            ChatRequest::text("hi").with_image(ImageInput::new("image/png", vec![7; 4096]));
        assert_eq!(request.effective_model_kind(), ModelKind::Vision);
        assert_eq!(
            ChatRequest::text("hi").effective_model_kind(),
            ModelKind::Text
        );
        let debug = format!("{request:?}");
        assert!(debug.contains("bytes: 4096"), "{debug}");
        assert!(debug.len() < 400);
    }
}
