//! Prompts: the messages a prompt gives, and a prompt's listing entry.

use super::content::{Content, Role};

/// One message of a prompt: who says it, and what.
///
/// ```
/// use mcp_tool::model::{Content, PromptMessage, Role};
///
/// let ask = PromptMessage::user("Summarise the report below.");
/// assert_eq!(ask.role, Role::User);
/// let answer = PromptMessage::assistant(Content::text("Here is the summary:"));
/// assert_eq!(answer.role, Role::Assistant);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PromptMessage {
    /// Who says it.
    pub role: Role,
    /// What is said: text, an image, audio or an embedded resource.
    pub content: Content,
}

impl PromptMessage {
    /// A message from the user.
    pub fn user(content: impl Into<Content>) -> Self {
        Self::new(Role::User, content)
    }

    /// A message from the assistant.
    pub fn assistant(content: impl Into<Content>) -> Self {
        Self::new(Role::Assistant, content)
    }

    /// A message from `role`.
    pub fn new(role: Role, content: impl Into<Content>) -> Self {
        Self {
            role,
            content: content.into(),
        }
    }
}

/// What a prompt gives: its messages, and a description of this rendering of it.
///
/// ```
/// use mcp_tool::model::{PromptMessage, PromptResult};
///
/// let result = PromptResult::new([PromptMessage::user("Review this diff.")])
///     .with_description("A code review request");
/// assert_eq!(result.messages.len(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct PromptResult {
    /// A description of the prompt as rendered.
    pub description: Option<String>,
    /// The messages, in order.
    pub messages: Vec<PromptMessage>,
}

impl PromptResult {
    /// A result of these messages.
    pub fn new(messages: impl IntoIterator<Item = PromptMessage>) -> Self {
        Self {
            description: None,
            messages: messages.into_iter().collect(),
        }
    }

    /// The same result with a description.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }
}

/// A prompt as clients list it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PromptInfo {
    /// The name clients get it by.
    pub name: String,
    /// A title for people.
    pub title: Option<String>,
    /// What it is for.
    pub description: Option<String>,
    /// Its arguments.
    pub arguments: Vec<PromptArgument>,
}

/// One argument of a prompt, as clients list it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// What it means.
    pub description: Option<String>,
    /// Whether a client must give it.
    pub required: bool,
}
