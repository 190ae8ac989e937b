//! The errors a tool returns and the errors the server reports at start-up.

use std::borrow::Cow;
use std::fmt;

use crate::outcome::argument_errors::ArgumentErrors;

/// A failure of a tool, with a message written for the model.
///
/// Return it in `Err` to tell the model what went wrong and how to correct the
/// call: "no file named `report.csv` under the root", not "ENOENT". The message
/// still passes through masking before it leaves the server. Any other error
/// type that implements [`Display`](fmt::Display) may be returned as well; it is
/// treated as an internal error of the tool.
///
/// ```
/// use mcp_tool::{ToolError, mcp_tool};
///
/// /// Returns the `index`-th line of a text, counting from 0.
/// #[mcp_tool]
/// fn line(text: String, index: usize) -> Result<String, ToolError> {
///     let count = text.lines().count();
///     text.lines().nth(index).map(str::to_owned).ok_or_else(|| {
///         ToolError::new(format!("the text has {count} lines: ask for an index below {count}"))
///     })
/// }
///
/// assert_eq!(line("a\nb".into(), 1), Ok("b".to_owned()));
/// assert_eq!(line("a\nb".into(), 5).unwrap_err().message(), "the text has 2 lines: ask for an index below 2");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: Cow<'static, str>,
    /// The client capability the call needed and the client did not declare.
    missing_capability: Option<&'static str>,
    /// The faults of a run-time tool's arguments, which it reports as argument errors.
    arguments: Option<ArgumentErrors>,
}

impl ToolError {
    /// A tool error with the given message for the model.
    ///
    /// ```
    /// let error = mcp_tool::ToolError::new("no file named `report.csv` under the root");
    /// assert_eq!(error.to_string(), "no file named `report.csv` under the root");
    /// ```
    pub fn new(message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            message: message.into(),
            missing_capability: None,
            arguments: None,
        }
    }

    /// The failure of a call that needs a client capability (`"sampling"`) the client
    /// did not declare: from protocol 2026-07-28 on, the request is refused with
    /// MissingRequiredClientCapability rather than answered.
    pub(crate) fn missing_capability(
        capability: &'static str,
        message: impl Into<Cow<'static, str>>,
    ) -> Self {
        Self {
            message: message.into(),
            missing_capability: Some(capability),
            arguments: None,
        }
    }

    /// The failure of a run-time tool whose arguments have `errors`: reported as an
    /// attribute tool's argument errors are.
    pub(crate) fn from_arguments(errors: ArgumentErrors) -> Self {
        Self {
            message: errors.to_string().into(),
            missing_capability: None,
            arguments: Some(errors),
        }
    }

    /// The argument errors this error carries, or the error itself.
    pub(crate) fn into_arguments(self) -> Result<ArgumentErrors, Self> {
        match self.arguments {
            Some(errors) => Ok(errors),
            None => Err(self),
        }
    }

    /// The client capability the call needed and the client did not declare.
    pub(crate) fn missing(&self) -> Option<&'static str> {
        self.missing_capability
    }

    /// The message, as written by the tool (before masking).
    ///
    /// ```
    /// let error = mcp_tool::ToolError::from("the limit must be below 100");
    /// assert_eq!(error.message(), "the limit must be below 100");
    /// ```
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

/// Why a server could not be built or could not keep serving. Its message says what
/// to do; `main` may return it as it is.
///
/// ```
/// # /// Returns its input unchanged.
/// # #[mcp_tool::mcp_tool]
/// # fn echo(text: String) -> String { text }
/// let error = mcp_tool::Server::from_registry("echo", "1.0.0").only(["ecko"]).build().unwrap_err();
/// assert!(matches!(error, mcp_tool::ServerError::UnknownToolName { .. }));
/// ```
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
    /// Two registered prompts share one name.
    #[error(
        "two prompts are named `{name}`: one defined at {first}, the other at {second}; \
         rename one with `#[mcp_prompt(name = \"...\")]`"
    )]
    DuplicatePrompt {
        /// The shared name.
        name: String,
        /// `file:line` of the first definition.
        first: String,
        /// `file:line` of the second definition.
        second: String,
    },
    /// Two registered resources share one URI (or one URI template).
    #[error(
        "two resources are at `{uri}`: one defined at {first}, the other at {second}; \
         change the URI of one"
    )]
    DuplicateResource {
        /// The shared URI or template.
        uri: String,
        /// `file:line` of the first definition.
        first: String,
        /// `file:line` of the second definition.
        second: String,
    },
    /// A resource's URI template cannot be matched.
    #[error("the resource template `{template}` (at {location}) cannot be matched: {problem}")]
    InvalidTemplate {
        /// The template as written.
        template: String,
        /// `file:line` of the resource's definition.
        location: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A tool added at run time has the name of a tool the server has already.
    #[error(
        "two tools are named `{name}`: one defined at {first}, the other added at run time \
         at {second}; give one of them another name, or remove the first with `remove_tool` \
         before adding the second"
    )]
    ToolNameTaken {
        /// The shared name.
        name: String,
        /// Where the tool the server has was defined: `file:line`, followed by
        /// `(added at run time)` for a tool added at run time.
        first: String,
        /// Where the tool added was made (its [`RuntimeTool::new`](crate::RuntimeTool::new)),
        /// as `file:line`.
        second: String,
    },
    /// A server cannot be mounted under a namespace: the namespace is not one a tool's
    /// name may begin with, a name it gives is too long, or the server serves tasks,
    /// which a mount does not carry yet.
    #[error("cannot mount a server under `{namespace}`: {problem}")]
    InvalidNamespace {
        /// The namespace, as given to [`Server::mount`](crate::Server::mount).
        namespace: String,
        /// What is wrong, and what to do.
        problem: String,
    },
    /// Two items would share a name (a URI, for resources) once servers are mounted: two
    /// mounted servers', or a mounted server's and one of the server's own.
    #[error(
        "two {kind}s would be named `{name}`: {first}, and {second}; rename one (a resource: \
         change its URI), or, for tools and prompts, mount one of the servers under another \
         namespace"
    )]
    MountConflict {
        /// What they are: `"tool"`, `"prompt"`, `"resource"` or `"resource template"`.
        kind: &'static str,
        /// The shared name, or URI.
        name: String,
        /// Where the first was made, and the namespace it is mounted under, if any.
        first: String,
        /// Where the second was made, and the namespace it is mounted under, if any.
        second: String,
    },
    /// An upstream server given to [`Proxy`](crate::Proxy) cannot be served: its command
    /// does not start, or it does not answer `initialize` or `tools/list`.
    #[error("the upstream server `{upstream}` cannot be served: {problem}")]
    Upstream {
        /// The upstream's name, as [`Proxy::named`](crate::Proxy::named) gave it.
        upstream: String,
        /// What went wrong, and what to check.
        problem: String,
    },
    /// The server's schema profile cannot show one of its tools.
    #[error("the tool `{tool}` cannot be shown under the schema profile {profile}: {problem}")]
    SchemaProfile {
        /// The tool's name.
        tool: String,
        /// The profile chosen with [`Server::schema_profile`](crate::Server::schema_profile).
        profile: crate::model::SchemaProfile,
        /// Why, and what to do.
        problem: String,
    },
    /// A tool made at run time is not one the server can serve.
    #[error("the tool `{name}` made at {location} cannot be added: {problem}")]
    InvalidTool {
        /// The tool's name, as given.
        name: String,
        /// Where the tool was made (its [`RuntimeTool::new`](crate::RuntimeTool::new)), as
        /// `file:line`.
        location: String,
        /// What is wrong, and what to do.
        problem: String,
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
    /// A tag given to [`Server::with_tags`](crate::Server::with_tags) or
    /// [`Server::without_tags`](crate::Server::without_tags) is carried by no tool.
    #[error("no registered tool carries the tag `{tag}`{suggestion}")]
    UnknownTag {
        /// The tag that matched nothing.
        tag: String,
        /// A "did you mean" clause, or empty.
        suggestion: String,
    },
    /// A tool asks for a [`State<T>`](crate::State) that was never given to the server.
    #[error(
        "the {kind} `{tool}` (at {location}) asks for `State<{type_name}>`, but no `{type_name}` \
         was given to the server: add `.state(value)` with a value of that type to the server's \
         builder"
    )]
    MissingState {
        /// What asks for it: `"tool"`, `"prompt"` or `"resource"`.
        kind: &'static str,
        /// The name of the tool, prompt or resource that asks for it.
        tool: String,
        /// `file:line` of the tool's definition.
        location: String,
        /// The type of the state, as Rust names it.
        type_name: &'static str,
    },
    /// The async runtime that [`Server::run_stdio`](crate::Server::run_stdio) serves on
    /// could not be started.
    #[error("could not start the async runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The transport failed to start or broke down.
    #[error("the MCP session failed: {0}")]
    Transport(String),
    /// The task store the builder was given cannot be used.
    #[error("the task store cannot be used: {0}")]
    TaskStore(String),
    /// The system gave no random bytes, which the server needs for the key that signs
    /// `requestState` (unless one is given) and for task ids.
    #[error(
        "the system gives no random bytes ({0}), which the server needs to sign requestState \
         and to make task ids no client can guess: run where the operating system has a \
         source of randomness"
    )]
    NoRandomness(String),
    /// [`Server::serve_http`](crate::Server::serve_http) could not listen on the address
    /// it was given.
    #[error(
        "could not listen on {address}: {source}; is another program using that port? \
         Pick another, or port 0 for any free one"
    )]
    Bind {
        /// The address as given.
        address: String,
        /// Why.
        source: std::io::Error,
    },
    /// The [`ServerCard`](crate::ServerCard) given to
    /// [`Server::server_card`](crate::Server::server_card) breaks a rule of SEP-2127.
    #[error("the server card cannot be served: {reason}")]
    ServerCard {
        /// Which rule, and what to give instead.
        reason: String,
    },
}

/// Why a call produced no result from its tool: the JSON-RPC error a client gets.
///
/// A tool's own failure is not a `CallError`: it is a
/// [`ToolResult`](crate::model::ToolResult) with `is_error` set, which the model reads.
///
/// ```standalone_crate
/// use mcp_tool::CallError;
///
/// # #[mcp_tool::mcp_tool]
/// # /// Adds two integers and returns their sum.
/// # fn add(a: i64, b: i64) -> i64 { a + b }
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = mcp_tool::Server::from_registry("calculator", "1.0.0").build()?;
/// match server.call("ad", serde_json::Map::new()).await {
///     Err(CallError::UnknownTool { suggestions, .. }) => assert_eq!(suggestions, ["add"]),
///     other => panic!("expected an unknown tool, got {other:?}"),
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// No tool has the name that was called.
    #[error("{message}")]
    UnknownTool {
        /// The name that was called.
        name: String,
        /// The closest names the server has, best first.
        suggestions: Vec<String>,
        /// The message the client reads.
        message: String,
    },
    /// The request was refused with another JSON-RPC error.
    #[error("JSON-RPC error {code}: {message}")]
    Protocol {
        /// The JSON-RPC error code (`-32602` for invalid parameters, ...).
        code: i32,
        /// The error's message.
        message: String,
        /// The error's `data`, if it has any.
        data: Option<serde_json::Value>,
    },
}

impl CallError {
    /// The JSON-RPC error code the client gets.
    pub fn code(&self) -> i32 {
        match self {
            Self::UnknownTool { .. } => INVALID_PARAMS,
            Self::Protocol { code, .. } => *code,
        }
    }
}

/// JSON-RPC's code for invalid parameters, which an unknown tool's name is.
pub(crate) const INVALID_PARAMS: i32 = -32602;
/// JSON-RPC's code for a failure of the server while answering.
pub(crate) const INTERNAL_ERROR: i32 = -32603;
