//! Sampling: a tool asks the client's model to write a message
//! (`sampling/createMessage`), through [`Context::sample`](crate::Context::sample).

use super::{Content, Role};

/// A request for the client's model to write the next message of a conversation: the
/// options of `sampling/createMessage`.
///
/// A prompt alone converts into one (`ctx.sample("...")`); the builder methods add the
/// rest.
///
/// ```
/// use mcp_tool::model::{ModelPreferences, SamplingRequest};
///
/// let request = SamplingRequest::new("Summarize this diff in one line: ...")
///     .with_system_prompt("You write terse commit messages.")
///     .with_max_tokens(60)
///     .with_temperature(0.2)
///     .with_model_preferences(
///         ModelPreferences::new().with_hint("claude-haiku").with_speed_priority(0.8),
///     );
/// assert_eq!(request.prompt(), Some("Summarize this diff in one line: ..."));
/// assert_eq!(request.max_tokens, 60);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SamplingRequest {
    /// The conversation so far; the model writes the next message.
    pub messages: Vec<SamplingMessage>,
    /// A system prompt the client may use (it may also change or ignore it).
    pub system_prompt: Option<String>,
    /// The most tokens the model may write ([`DEFAULT_MAX_TOKENS`](Self::DEFAULT_MAX_TOKENS)
    /// unless set).
    pub max_tokens: u32,
    /// The sampling temperature, when the tool has a preference.
    pub temperature: Option<f64>,
    /// Sequences that end the message when the model writes them.
    pub stop_sequences: Vec<String>,
    /// Which model the tool would like the client to pick.
    pub model_preferences: Option<ModelPreferences>,
    /// The request's name among the inputs a call asks for on protocol 2026-07-28: `None`
    /// names it `sampling-1`, `sampling-2`, ... in the order the tool asks.
    pub key: Option<String>,
}

impl SamplingRequest {
    /// The `maxTokens` a request asks for unless told otherwise.
    pub const DEFAULT_MAX_TOKENS: u32 = 1000;

    /// A request with one user message, `prompt`.
    ///
    /// ```
    /// let request = mcp_tool::model::SamplingRequest::new("What is the capital of France?");
    /// assert_eq!(request.messages.len(), 1);
    /// ```
    pub fn new(prompt: impl Into<String>) -> Self {
        Self::conversation([SamplingMessage::user(prompt)])
    }

    /// A request to continue a conversation: the model writes the message after these.
    ///
    /// ```
    /// use mcp_tool::model::{SamplingMessage, SamplingRequest};
    ///
    /// let request = SamplingRequest::conversation([
    ///     SamplingMessage::user("Name a prime number."),
    ///     SamplingMessage::assistant("7"),
    ///     SamplingMessage::user("A larger one?"),
    /// ]);
    /// assert_eq!(request.prompt(), Some("A larger one?"));
    /// ```
    pub fn conversation(messages: impl IntoIterator<Item = SamplingMessage>) -> Self {
        Self {
            messages: messages.into_iter().collect(),
            system_prompt: None,
            max_tokens: Self::DEFAULT_MAX_TOKENS,
            temperature: None,
            stop_sequences: Vec::new(),
            model_preferences: None,
            key: None,
        }
    }

    /// The same request with a system prompt.
    pub fn with_system_prompt(mut self, system_prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(system_prompt.into());
        self
    }

    /// The same request, letting the model write at most `max_tokens` tokens.
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = max_tokens;
        self
    }

    /// The same request with a sampling temperature.
    pub fn with_temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// The same request, ending the message where the model writes one of these.
    pub fn with_stop_sequences(
        mut self,
        stops: impl IntoIterator<Item = impl Into<String>>,
    ) -> Self {
        self.stop_sequences = stops.into_iter().map(Into::into).collect();
        self
    }

    /// The same request with preferences for the model the client picks.
    pub fn with_model_preferences(mut self, preferences: ModelPreferences) -> Self {
        self.model_preferences = Some(preferences);
        self
    }

    /// The same request under the name `key` among a call's input requests (protocol
    /// 2026-07-28); see [`key`](Self::key).
    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// The text of the last message, if it is a user's text: the prompt.
    pub fn prompt(&self) -> Option<&str> {
        let last = self.messages.last()?;
        (last.role == Role::User)
            .then(|| last.content.as_text())
            .flatten()
    }
}

impl From<String> for SamplingRequest {
    fn from(prompt: String) -> Self {
        Self::new(prompt)
    }
}

impl From<&str> for SamplingRequest {
    fn from(prompt: &str) -> Self {
        Self::new(prompt)
    }
}

/// One message of a sampling conversation: who said it, and what (text, an image or a
/// sound).
///
/// ```
/// use mcp_tool::model::{Content, Role, SamplingMessage};
///
/// let question = SamplingMessage::user("What is in this picture?");
/// let picture = SamplingMessage::new(Role::User, Content::image(b"\x89PNG\r\n\x1a\n", "image/png"));
/// assert_eq!(question.content.as_text(), Some("What is in this picture?"));
/// # let _ = picture;
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SamplingMessage {
    /// Who says it.
    pub role: Role,
    /// What is said: [`Content::Text`], [`Content::Image`] or [`Content::Audio`] (a
    /// request with another kind of block fails before it is sent).
    pub content: Content,
}

impl SamplingMessage {
    /// A message of `role` with this content.
    pub fn new(role: Role, content: impl Into<Content>) -> Self {
        Self {
            role,
            content: content.into(),
        }
    }

    /// A user's text.
    pub fn user(text: impl Into<String>) -> Self {
        Self::new(Role::User, Content::text(text))
    }

    /// The model's text.
    pub fn assistant(text: impl Into<String>) -> Self {
        Self::new(Role::Assistant, Content::text(text))
    }
}

/// What the tool would like in the model the client picks; the client decides.
/// Priorities run from 0 (unimportant) to 1 (most important).
///
/// ```
/// use mcp_tool::model::ModelPreferences;
///
/// let quick_and_cheap = ModelPreferences::new()
///     .with_hint("haiku")
///     .with_cost_priority(0.9)
///     .with_speed_priority(0.8)
///     .with_intelligence_priority(0.2);
/// assert_eq!(quick_and_cheap.hints, ["haiku"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct ModelPreferences {
    /// Model names or families to prefer, best first (`"claude-sonnet"`, `"gpt"`): the
    /// client may map them to a model of its own.
    pub hints: Vec<String>,
    /// How much a cheap model matters.
    pub cost_priority: Option<f64>,
    /// How much a fast model matters.
    pub speed_priority: Option<f64>,
    /// How much a capable model matters.
    pub intelligence_priority: Option<f64>,
}

impl ModelPreferences {
    /// No preference yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The same preferences with one more hint, after those given.
    pub fn with_hint(mut self, name: impl Into<String>) -> Self {
        self.hints.push(name.into());
        self
    }

    /// The same preferences with a cost priority (0 to 1).
    pub fn with_cost_priority(mut self, priority: f64) -> Self {
        self.cost_priority = Some(priority);
        self
    }

    /// The same preferences with a speed priority (0 to 1).
    pub fn with_speed_priority(mut self, priority: f64) -> Self {
        self.speed_priority = Some(priority);
        self
    }

    /// The same preferences with an intelligence priority (0 to 1).
    pub fn with_intelligence_priority(mut self, priority: f64) -> Self {
        self.intelligence_priority = Some(priority);
        self
    }
}

/// The message the client's model wrote, as
/// [`Context::sample_response`](crate::Context::sample_response) returns it.
///
/// ```
/// use mcp_tool::model::{Content, SamplingResponse};
///
/// let response = SamplingResponse::new("test-model", Content::text("Paris")).with_stop_reason("endTurn");
/// assert_eq!(response.text(), Some("Paris"));
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SamplingResponse {
    /// The model that wrote it, as the client names it.
    pub model: String,
    /// What it wrote: text, an image or a sound.
    pub content: Content,
    /// Why it stopped (`"endTurn"`, `"stopSequence"`, `"maxTokens"`, ...), when the
    /// client says.
    pub stop_reason: Option<String>,
}

impl SamplingResponse {
    /// A response of `model` with this content.
    pub fn new(model: impl Into<String>, content: impl Into<Content>) -> Self {
        Self {
            model: model.into(),
            content: content.into(),
            stop_reason: None,
        }
    }

    /// The same response with the reason the model stopped.
    pub fn with_stop_reason(mut self, reason: impl Into<String>) -> Self {
        self.stop_reason = Some(reason.into());
        self
    }

    /// The text the model wrote, if it wrote text.
    pub fn text(&self) -> Option<&str> {
        self.content.as_text()
    }
}
