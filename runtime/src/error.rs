//! The errors a tool returns and the errors the server reports at start-up.

use std::borrow::Cow;
use std::fmt;

/// A failure of a tool, with a message written for the model.
///
/// Return it in `Err` to tell the model what went wrong and how to correct the
/// call: "no file named `report.csv` under the root", not "ENOENT". The message
/// still passes through masking before it leaves the server. Any other error
/// type that implements [`Display`](fmt::Display) may be returned as well; it is
/// treated as an internal error of the tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: Cow<'static, str>,
}

impl ToolError {
    /// A tool error with the given message for the model.
    pub fn new(message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The message, as written by the tool (before masking).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        Self::new(message)
    }
}

impl From<&'static str> for ToolError {
    fn from(message: &'static str) -> Self {
        Self::new(message)
    }
}

/// Why a server could not be built or could not keep serving.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServerError {
    /// Two registered tools share one name.
    #[error(
        "two tools are named `{name}`: one defined at {first}, the other at {second}; \
         rename one with `#[mcp_tool(name = \"...\")]`"
    )]
    DuplicateTool {
        /// The shared name.
        name: String,
        /// `file:line` of the first definition.
        first: String,
        /// `file:line` of the second definition.
        second: String,
    },
    /// No tool was registered (or every tool was filtered out).
    #[error("the server has no tools: {hint}")]
    NoTools {
        /// What to check.
        hint: &'static str,
    },
    /// A name given to a filter matches no registered tool.
    #[error("no registered tool is named `{name}`{suggestion}")]
    UnknownToolName {
        /// The name that matched nothing.
        name: String,
        /// A "did you mean" clause, or empty.
        suggestion: String,
    },
    /// The async runtime that [`Server::run_stdio`](crate::Server::run_stdio) serves on
    /// could not be started.
    #[error("could not start the async runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The transport failed to start or broke down.
    #[error("the MCP session failed: {0}")]
    Transport(String),
}
