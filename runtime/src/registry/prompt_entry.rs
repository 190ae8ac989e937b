//! Prompts registered by `#[mcp_prompt]`: what the attribute knows of each, and what a
//! prompt function may return.

use crate::call::future::{CallFuture, CallInput};
use crate::call::param::ParamSpec;
use crate::model::{PromptMessage, PromptResult};
use crate::outcome::failure::{Failure, IntoFailure};
use crate::registry::completion::Completer;

/// One prompt registered by `#[mcp_prompt]`, which
/// [`Server::from_registry`](crate::Server::from_registry) serves.
pub struct PromptEntry {
    spec: PromptSpec,
}

/// What the attribute knows about a prompt at compile time.
#[doc(hidden)]
#[derive(Debug)]
pub struct PromptSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub title: Option<&'static str>,
    pub icons: &'static [&'static str],
    /// `scopes = [...]`: what a token must grant to get it over HTTP.
    pub scopes: &'static [&'static str],
    /// `meta = "..."`: a JSON object's text, checked by the attribute.
    pub meta: Option<&'static str>,
    pub params: &'static [ParamSpec],
    pub completions: &'static [Completer],
    pub call: fn(&CallInput<'_>) -> CallFuture<PromptResult>,
    pub file: &'static str,
    pub line: u32,
    pub module_path: &'static str,
}

impl PromptEntry {
    #[doc(hidden)]
    pub const fn __new(spec: PromptSpec) -> Self {
        Self { spec }
    }

    /// The prompt's name, as clients get it.
    pub fn name(&self) -> &'static str {
        self.spec.name
    }

    /// The prompt's description, as clients show it.
    pub fn description(&self) -> &'static str {
        self.spec.description
    }

    /// Where the prompt is defined, as `file:line`.
    pub fn location(&self) -> String {
        format!("{}:{}", self.spec.file, self.spec.line)
    }

    pub(crate) fn spec(&self) -> &PromptSpec {
        &self.spec
    }

    /// The types of the `State<T>` parameters the prompt asks for.
    pub(crate) fn states(&self) -> impl Iterator<Item = (std::any::TypeId, &'static str)> {
        crate::call::param::states(self.spec.params)
    }
}

impl std::fmt::Debug for PromptEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PromptEntry")
            .field("name", &self.spec.name)
            .field("location", &self.location())
            .finish_non_exhaustive()
    }
}

inventory::collect!(PromptEntry);

/// Every prompt registered in this program, by name.
pub(crate) fn registered_prompts() -> Vec<&'static PromptEntry> {
    let mut entries: Vec<_> = inventory::iter::<PromptEntry>.into_iter().collect();
    entries.sort_by(|a, b| {
        (a.spec.name, a.spec.file, a.spec.line).cmp(&(b.spec.name, b.spec.file, b.spec.line))
    });
    entries
}

/// What a `#[mcp_prompt]` function may return: a `String` (one message from the user),
/// a [`PromptMessage`], a `Vec<PromptMessage>`, a [`PromptResult`], or a `Result` of one
/// of them whose error is a [`ToolError`](crate::ToolError) or any other error type.
///
/// ```
/// use mcp_tool::model::PromptMessage;
///
/// /// Asks the model to review a change.
/// #[mcp_tool::mcp_prompt]
/// fn review(
///     /// The diff to review.
///     diff: String,
/// ) -> Vec<PromptMessage> {
///     vec![
///         PromptMessage::user("Review this change for bugs:"),
///         PromptMessage::user(diff),
///     ]
/// }
/// # fn main() {}
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a prompt's result",
    label = "a prompt returns messages",
    note = "return a `String` (one message from the user), an `mcp_tool::model::PromptMessage`, a `Vec<PromptMessage>`, an `mcp_tool::model::PromptResult`, or a `Result` of one of them"
)]
pub trait IntoPrompt {
    #[doc(hidden)]
    fn into_prompt(self) -> Result<PromptResult, Failure>;
}

impl IntoPrompt for PromptResult {
    fn into_prompt(self) -> Result<PromptResult, Failure> {
        Ok(self)
    }
}

impl IntoPrompt for Vec<PromptMessage> {
    fn into_prompt(self) -> Result<PromptResult, Failure> {
        Ok(PromptResult::new(self))
    }
}

impl IntoPrompt for PromptMessage {
    fn into_prompt(self) -> Result<PromptResult, Failure> {
        Ok(PromptResult::new([self]))
    }
}

impl IntoPrompt for String {
    fn into_prompt(self) -> Result<PromptResult, Failure> {
        PromptMessage::user(self).into_prompt()
    }
}

impl IntoPrompt for &'static str {
    fn into_prompt(self) -> Result<PromptResult, Failure> {
        PromptMessage::user(self).into_prompt()
    }
}

impl<T: IntoPrompt, E: IntoFailure> IntoPrompt for Result<T, E> {
    fn into_prompt(self) -> Result<PromptResult, Failure> {
        self.map_err(IntoFailure::into_failure)?.into_prompt()
    }
}

/// Generated code's conversion of a prompt function's result.
#[doc(hidden)]
pub fn prompt_reply<R: IntoPrompt>(result: R) -> Result<PromptResult, Failure> {
    result.into_prompt()
}
