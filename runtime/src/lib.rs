//! Write a [Model Context Protocol](https://modelcontextprotocol.io) tool in Rust as a
//! plain function.
//!
//! One attribute, [`#[mcp_tool]`](macro@mcp_tool), generates the tool's JSON schema, its
//! argument parsing and validation, its error reporting and its registration; a
//! [`Server`] gathers every registered tool and serves it to any MCP client, over
//! [`rmcp`](https://docs.rs/rmcp), the official Rust SDK.
//!
//! # A complete server
//!
//! With `cargo add mcp-tool schemars serde --features serde/derive`, this is a whole
//! `main.rs`:
//!
//! ```no_run
//! use mcp_tool::{Server, ServerError, ToolError, mcp_tool};
//! use schemars::JsonSchema;
//! use serde::Serialize;
//!
//! /// How many lines and words a text has.
//! #[derive(Serialize, JsonSchema)]
//! struct Counts {
//!     /// The number of lines.
//!     lines: usize,
//!     /// The number of words.
//!     words: usize,
//! }
//!
//! /// Counts the lines and the words of a text, stopping after `max_lines` lines if given.
//! #[mcp_tool(read_only)]
//! fn count_words(
//!     /// The text to count.
//!     text: String,
//!     /// Stop after this many lines. Defaults to no limit.
//!     #[arg(range(min = 1, max = 1_000_000))]
//!     max_lines: Option<usize>,
//! ) -> Result<Counts, ToolError> {
//!     if text.is_empty() {
//!         return Err(ToolError::new("the text is empty: send at least one character"));
//!     }
//!     let lines: Vec<&str> = text.lines().take(max_lines.unwrap_or(usize::MAX)).collect();
//!     let words = lines.iter().map(|line| line.split_whitespace().count()).sum();
//!     Ok(Counts { lines: lines.len(), words })
//! }
//!
//! fn main() -> Result<(), ServerError> {
//!     Server::from_registry("hello-mcp", env!("CARGO_PKG_VERSION")).run_stdio()
//! }
//! ```
//!
//! The binary is an MCP server on stdin and stdout: point the
//! [MCP Inspector](https://github.com/modelcontextprotocol/inspector)
//! (`npx @modelcontextprotocol/inspector target/debug/hello-mcp`) or Claude Desktop at it.
//! `count_words` stays an ordinary function.
//!
//! # Where to read on
//!
//! - [`#[mcp_tool]`](macro@mcp_tool): every key of the attribute and of `#[arg(...)]`,
//!   the parameter and return types it accepts, and its compile errors.
//! - [`Server`]: which tools to serve, with which options; [`Server::run_stdio`] and
//!   [`Server::serve_stdio`] to serve them.
//! - [`Context`]: progress, log messages and cancellation during a call, who called,
//!   and questions for the client's model ([`Context::sample`]) and user
//!   ([`Context::elicit`]); [`State`]: values shared by every tool, given to the
//!   [`Server`]. A tool asks for either in its signature.
//! - [`ToolError`]: failing with a message written for the model. Every message that
//!   leaves the server passes through [`masking::mask_failure`] first: credentials
//!   become `***`, absolute paths their file's name.
//! - [`logging`]: the server's log channel on stderr, masked, set up by default.
//! - [`testing::TestClient`]: a real client over an in-memory session, for a tool's tests.
//! - [`link!`]: keeping the tools of a dependency crate that nothing else references.
//! - [`tasks`]: where a server keeps its tasks, and the [`TaskStore`](tasks::TaskStore)
//!   trait for a store of your own.
//! - [`middleware`]: the `tower` layers every request passes.
//!
//! The traits behind the attribute are public so that their errors read well and a type
//! of your own can join in: [`ToolParam`] (a parameter's type; the constraints of
//! `#[arg(...)]` check a [`LengthArg`], [`PatternArg`] or [`RangeArg`]), [`ToolOutput`]
//! and [`IntoContent`] (what a tool returns), [`IntoFailure`] (how an error fails the
//! call), [`IntoPrompt`] and [`IntoResource`], and [`ProgressAmount`] (a number
//! [`Context::progress`] takes). A [`RuntimeTool`]'s body is a [`RuntimeHandler`];
//! [`registered`] lists the [`ToolEntry`] each attribute registers; a built
//! [`ToolServer`] lists its tools, prompts and resources as clients see them. Behind your own HTTP stack, [`ToolServer::http_service`] gives an
//! [`HttpService`] answering with an [`HttpBody`]; a [`TokenVerifier`] of your own refuses a
//! token with a [`TokenRefused`].
//!
//! The [`guide`] has a page for each feature, its examples compiled and run as doctests;
//! the [repository's README](https://github.com/mcp-tool/mcp-tool#readme) has Getting
//! started, the example server, conformance and the benchmarks.
//!
//! # Versions and stability
//!
//! Before 1.0, a minor version (0.3.0) may break the public API and a patch version
//! (0.2.1) never does, so `mcp-tool = "0.2"` takes every fix and no breaking change; items
//! hidden from these docs and the re-export `mcp_tool::rmcp` (feature `rmcp`) are outside
//! that promise. The minimum supported Rust version is 1.95, raised only in a minor
//! release and said in the
//! [changelog](https://github.com/mcp-tool/mcp-tool/blob/main/CHANGELOG.md).
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![warn(missing_debug_implementations, unreachable_pub)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

// The folders, in the order a call passes them: `protocol` (bytes and rmcp's sessions,
// the one folder that speaks rmcp) → `server` (the lists, the one tool table, the one call
// driver) → `call` (the generated adapter: arguments, constraints, context, state) →
// `outcome` (the reply, or the failure, masked and logged). Beside them: `registry` (what
// the attributes and the builder define), `model` (the MCP values, public), `testing`
// (an in-memory client). This file only re-exports.
mod call;
pub mod model;
mod outcome;
mod protocol;
mod registry;
mod server;
pub mod testing;

#[cfg(feature = "opentelemetry")]
#[cfg_attr(docsrs, doc(cfg(feature = "opentelemetry")))]
pub use crate::outcome::otlp as telemetry;
pub use crate::outcome::{logging, masking};

/// The request pipeline: the `tower` layers every request passes on its way to its
/// handler ([`Server::layer`]), the request and the answer as a layer sees them, a layer
/// made of an async closure ([`from_fn`](middleware::from_fn)), and the built-in layers.
///
/// A layer wraps [`Next`](middleware::Next), the rest of the stack, and may fail a
/// request with a [`BoxError`](middleware::BoxError), answered as a JSON-RPC error. Each
/// layer here is a pair, as tower's are: [`RateLimitLayer`](middleware::RateLimitLayer)
/// makes a [`RateLimit`](middleware::RateLimit) of any service of [`Request`](middleware::Request)s,
/// [`from_fn`](middleware::from_fn) a [`FromFnLayer`](middleware::FromFnLayer) whose service
/// is a [`FromFn`](middleware::FromFn); so they serve in a plain `tower::ServiceBuilder`
/// too. Their services' futures are in [`future`](middleware::future).
pub mod middleware {
    pub use crate::server::pipeline::{
        Audit, AuditLayer, BoxError, FromFn, FromFnLayer, Next, RateLimit, RateLimitKey,
        RateLimitLayer, Request, Response, ResponseLimit, ResponseLimitLayer, Transport, from_fn,
    };
    #[cfg(feature = "redis")]
    pub use crate::server::pipeline::{RedisFailure, RedisLimits, RedisUrlError};

    /// The futures of the built-in layers' services, named so that a stack of them is
    /// one type, boxed nowhere: [`RateLimitFuture`](crate::middleware::future::RateLimitFuture),
    /// [`ResponseLimitFuture`](crate::middleware::future::ResponseLimitFuture),
    /// [`AuditFuture`](crate::middleware::future::AuditFuture) and
    /// [`FromFnFuture`](crate::middleware::future::FromFnFuture).
    pub mod future {
        pub use crate::server::pipeline::{
            AuditFuture, FromFnFuture, RateLimitFuture, ResponseLimitFuture,
        };
    }
}

/// Where a server keeps its tasks (the tasks extension): the [`TaskStore`](tasks::TaskStore)
/// trait a store implements, the [`Record`](tasks::Record) it keeps, and the stores that
/// come with the crate, [`MemoryStore`](tasks::MemoryStore) (a server's store unless it is
/// given another) and `RedisStore` (feature `redis`), which replicas
/// share. [`Server::task_store`] chooses one.
///
/// A record holds its task's [`Status`](tasks::Status) and its [`Owner`](tasks::Owner); a
/// store answers a look-up with a [`Lookup`](tasks::Lookup), and each of its methods
/// returns a [`StoreFuture`](tasks::StoreFuture) that fails with a
/// [`StoreError`](tasks::StoreError).
pub mod tasks {
    #[cfg(feature = "redis")]
    pub use crate::server::tasks::RedisStore;
    pub use crate::server::tasks::{
        Lookup, MemoryStore, Owner, Record, Status, StoreError, StoreFuture, TaskStore,
    };
}

#[doc = include_str!("guide/attribute.md")]
pub use mcp_tool_macros::mcp_tool;

/// Makes a plain function an MCP prompt: `prompts/list` lists it, `prompts/get` renders
/// it.
///
/// Its name is the function's (`name = "..."` sets another), its description the doc
/// comment (or `description = "..."`), its arguments its parameters: `///` on a parameter
/// describes it, an `Option<T>` is optional, and `#[arg(...)]` constrains it as for a
/// tool. Prompt arguments travel as strings; each is read as its parameter's type wants
/// (`"5"` is 5 for an integer), and a bad one is an invalid-params error naming it.
/// `#[arg(complete = f)]` names a function `f(&str) -> impl IntoIterator<Item = impl
/// Into<String>>` that suggests values for what the user typed so far
/// (`completion/complete`). A parameter of type [`Context`] or [`State<T>`] is given by
/// the server. The function may be `async`; it returns what [`IntoPrompt`] lists. Other
/// keys: `title`, `icons`, `meta`, `scopes`, `crate`.
///
/// ```
/// /// Asks the model to explain a piece of code at the reader's level.
/// #[mcp_tool::mcp_prompt(title = "Explain code")]
/// fn explain(
///     /// The code to explain.
///     code: String,
///     /// Who reads the explanation: beginner, expert. Defaults to beginner.
///     #[arg(complete = levels)]
///     level: Option<String>,
/// ) -> String {
///     let level = level.as_deref().unwrap_or("beginner");
///     format!("Explain this code to a {level}:\n\n{code}")
/// }
///
/// fn levels(typed: &str) -> Vec<&'static str> {
///     ["beginner", "expert"].into_iter().filter(|l| l.starts_with(typed)).collect()
/// }
/// # fn main() {}
/// ```
pub use mcp_tool_macros::mcp_prompt;

/// Makes a plain function an MCP resource: `resources/list` (or, for a template,
/// `resources/templates/list`) lists it, `resources/read` reads it.
///
/// `uri = "..."` gives the one URI it is read at; `template = "..."` an RFC 6570 template
/// whose variables are the function's parameters, bound by name: `{name}` matches one
/// path segment (percent-decoded), `{+name}` a path that may hold `/`. A variable that
/// names no parameter, or a parameter that is no variable (other than a [`Context`] or a
/// [`State<T>`]), does not compile. Each variable is read as its parameter's type wants,
/// and `#[arg(complete = f)]` suggests its values as for a prompt. `mime_type = "..."` is
/// the type of the text or bytes it returns (`text/plain` and `application/octet-stream`
/// otherwise); the function returns what [`IntoResource`] lists. Its name is the
/// function's, its description the doc comment. Other keys: `name`, `description`,
/// `title`, `icons`, `meta`, `scopes`, `crate`.
///
/// ```
/// /// The notes of one day, as Markdown.
/// #[mcp_tool::mcp_resource(template = "notes://{day}", mime_type = "text/markdown")]
/// fn day_notes(day: u32) -> Result<String, mcp_tool::ToolError> {
///     match day {
///         1..=31 => Ok(format!("# Day {day}\n")),
///         _ => Err(mcp_tool::ToolError::new("a day of the month is 1 to 31")),
///     }
/// }
/// # fn main() {}
/// ```
pub use mcp_tool_macros::mcp_resource;

pub use crate::call::arguments::Arguments;
pub use crate::call::constraint::{LengthArg, PatternArg, RangeArg};
pub use crate::call::context::{Context, ProgressAmount};
pub use crate::call::param::ToolParam;
pub use crate::call::state::State;
pub use crate::outcome::error::{CallError, ServerError, ToolError};
pub use crate::outcome::failure::IntoFailure;
pub use crate::outcome::output::{IntoContent, Structured, ToolOutput};
#[cfg(feature = "http")]
pub use crate::protocol::http::{HttpBody, HttpService};
#[cfg(feature = "proxy")]
#[cfg_attr(docsrs, doc(cfg(feature = "proxy")))]
pub use crate::protocol::upstream::Proxy;
pub use crate::registry::prompt_entry::IntoPrompt;
pub use crate::registry::resource::IntoResource;
pub use crate::registry::runtime_handler::RuntimeHandler;
pub use crate::registry::runtime_tool::RuntimeTool;
pub use crate::registry::tool::{ToolEntry, registered};
#[cfg(feature = "http")]
pub use crate::server::authorization::{TokenRefused, TokenVerifier};
#[cfg(feature = "auth")]
pub use crate::server::authorization::{introspection::IntrospectionVerifier, jwt::JwtVerifier};
pub use crate::server::builder::Server;
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use crate::server::fanout::RedisNotifications;
#[cfg(feature = "http")]
pub use crate::server::server_card::ServerCard;
pub use crate::server::tool_list::ToolList;
pub use crate::server::tool_server::ToolServer;

/// The version of `rmcp`, the MCP SDK the runtime serves with, that this crate uses:
/// an escape hatch for programs that need rmcp's own types, with the feature `rmcp`.
///
/// Nothing under this path is covered by mcp-tool's compatibility promise: a new
/// version of mcp-tool may move to a new major version of rmcp, whose types differ.
/// That is why it takes a feature to reach it (`mcp-tool = { version = "…",
/// features = ["rmcp"] }`); without the feature, no rmcp type is in reach, and a
/// program that compiles today compiles with the next rmcp too. (The re-export also
/// lengthens some of the compiler's messages: it makes `String` print as
/// `std::string::String`, one more reason to leave it off.)
///
/// A tool that must build rmcp's result itself converts it explicitly:
///
/// ```standalone_crate
/// use mcp_tool::model::ToolResult;
/// use mcp_tool::rmcp::model::{CallToolResult, ContentBlock};
///
/// /// Returns a greeting built with rmcp's types.
/// #[mcp_tool::mcp_tool]
/// fn greet() -> ToolResult {
///     CallToolResult::success(vec![ContentBlock::text("hello")]).into()
/// }
/// # fn main() {}
/// ```
#[cfg(feature = "rmcp")]
#[cfg_attr(docsrs, doc(cfg(feature = "rmcp")))]
pub use ::rmcp;

/// Keeps the tools of crates that the program otherwise never references.
///
/// The linker drops a dependency crate that nothing uses, and with it the tools it
/// registered. Name each such crate once, in the binary:
///
/// ```
/// // `tokio` stands in for a crate of tools here.
/// mcp_tool::link!(tokio);
/// # fn main() {}
/// ```
#[macro_export]
macro_rules! link {
    ($($krate:ident),+ $(,)?) => {
        $(
            #[allow(unused_imports)]
            use $krate as _;
        )+
    };
}

/// The guide: a page for each feature, its examples compiled and run as doctests. The
/// [README](https://github.com/mcp-tool/mcp-tool#readme) has Getting started; start there.
///
/// - [`tools`](guide::tools): what `#[mcp_tool]` makes of a function, and argument errors.
/// - [`errors`](guide::errors): errors, panics and masking.
/// - [`context`](guide::context): `Context`, shared state, protocol versions and tasks.
/// - [`prompts_and_resources`](guide::prompts_and_resources): `#[mcp_prompt]` and
///   `#[mcp_resource]`.
/// - [`testing`](guide::testing): `TestClient`.
/// - [`runtime_tools`](guide::runtime_tools): tools defined while the server runs.
/// - [`serving`](guide::serving): the builder, stdio, HTTP, authorization, replicas.
/// - [`middleware`](guide::middleware): layers, the built-in ones, spans and OpenTelemetry.
/// - [`composition`](guide::composition): servers mounted into one under namespaces.
/// - [`stability`](guide::stability): the workspace, its features, and what a version
///   promises.
pub mod guide {
    #[doc = include_str!("guide/tools.md")]
    pub mod tools {}
    #[doc = include_str!("guide/errors.md")]
    pub mod errors {}
    #[doc = include_str!("guide/context.md")]
    pub mod context {}
    #[doc = include_str!("guide/prompts_and_resources.md")]
    pub mod prompts_and_resources {}
    #[doc = include_str!("guide/testing.md")]
    pub mod testing {}
    #[doc = include_str!("guide/runtime_tools.md")]
    pub mod runtime_tools {}
    #[doc = include_str!("guide/serving.md")]
    pub mod serving {}
    #[doc = include_str!("guide/middleware.md")]
    pub mod middleware {}
    #[doc = include_str!("guide/composition.md")]
    pub mod composition {}
    #[doc = include_str!("guide/stability.md")]
    pub mod stability {}
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// What generated code uses. Not a public API: it changes without notice.
#[doc(hidden)]
pub mod __private {
    pub use ::inventory;
    pub use ::rmcp;
    pub use ::schemars;
    pub use ::serde;
    pub use ::serde_json;

    pub use crate::call::arguments::reader::ArgReader;
    pub use crate::call::future::{
        CallFuture, CallInput, ToolFuture, async_reply, fail, sync_reply,
    };
    pub use crate::call::param::{
        Bound, Leniency, ParamKind, ParamSpec, ParamType, Pattern, at_most_one_context,
        no_template_variable, param_type, schema_for,
    };
    pub use crate::call::schema::SchemaDialect;
    pub use crate::model::TaskSupport;
    pub use crate::outcome::failure::Failure;
    pub use crate::outcome::output::{
        ContentKind, ContentResultKind, ContentValueKind, DisplayErrorKind, ErrorResultKind,
        OutputSpec, Probe, ResultKind, StdErrorKind, StructuredKind, StructuredValueKind,
        ToolReply,
    };
    pub use crate::protocol::wire::decode_message;
    pub use crate::registry::completion::{Completer, suggestions};
    pub use crate::registry::prompt_entry::{PromptEntry, PromptSpec, prompt_reply};
    pub use crate::registry::resource::{
        Address, ResourceEntry, ResourceReply, ResourceSpec, resource_reply,
    };
    pub use crate::registry::tool::ToolSpec;
}
