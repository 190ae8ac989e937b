//! Calling a tool: running it, catching its panics, and turning what it returns
//! into an MCP result.

use std::any::Any;
use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

use futures::FutureExt as _;
use rmcp::model::{CallToolResult, ContentBlock};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::args::ArgumentErrors;
use crate::error::ToolError;
use crate::panics;

/// What the server hands a tool for one call.
#[doc(hidden)]
#[derive(Debug)]
pub struct CallInput {
    args: Map<String, Value>,
}

impl CallInput {
    pub(crate) fn new(args: Map<String, Value>) -> Self {
        Self { args }
    }

    /// The call's arguments, as sent.
    pub fn args(&self) -> &Map<String, Value> {
        &self.args
    }
}

/// The future of one tool call.
#[doc(hidden)]
pub type ToolFuture = Pin<Box<dyn Future<Output = Result<ToolReply, Failure>> + Send>>;

/// A tool's successful answer, before the server shapes it.
#[doc(hidden)]
#[derive(Debug)]
pub enum ToolReply {
    /// A serialized value, for `structuredContent` (wrapped if the schema says so).
    Structured(Value),
    /// Content the tool built itself.
    Content(CallToolResult),
}

/// Why a call failed.
#[doc(hidden)]
#[derive(Debug)]
pub enum Failure {
    /// The arguments did not fit the schema.
    Arguments(ArgumentErrors),
    /// The tool returned a [`ToolError`].
    Tool(ToolError),
    /// The tool returned another error: its `{:#}` text and, for a
    /// `std::error::Error`, the texts of its sources.
    Internal {
        message: String,
        sources: Vec<String>,
    },
    /// The tool panicked: its payload (when it was a string) and where.
    Panic {
        message: String,
        location: Option<String>,
    },
    /// The tool did not finish in time.
    Timeout(std::time::Duration),
}

/// How a return type becomes a reply and which output schema it has.
#[doc(hidden)]
pub struct OutputSpec<R> {
    pub schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    pub convert: fn(R) -> Result<ToolReply, Failure>,
}

impl<R> std::fmt::Debug for OutputSpec<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutputSpec").finish_non_exhaustive()
    }
}

/// Carries a return type through the method-resolution ladder below, so the most
/// specific conversion wins: content types, then `Result<T, E>`, then any `T`.
#[doc(hidden)]
pub struct Probe<R>(PhantomData<fn() -> R>);

impl<R> std::fmt::Debug for Probe<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Probe")
    }
}

impl<R> Probe<R> {
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

/// Values a tool returns as content rather than as structured output.
pub trait IntoContent {
    /// The result of the call.
    fn into_call_result(self) -> CallToolResult;
}

impl IntoContent for String {
    fn into_call_result(self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::text(self)])
    }
}

impl IntoContent for &'static str {
    fn into_call_result(self) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::text(self)])
    }
}

impl IntoContent for () {
    fn into_call_result(self) -> CallToolResult {
        CallToolResult::success(Vec::new())
    }
}

impl IntoContent for ContentBlock {
    fn into_call_result(self) -> CallToolResult {
        CallToolResult::success(vec![self])
    }
}

impl IntoContent for Vec<ContentBlock> {
    fn into_call_result(self) -> CallToolResult {
        CallToolResult::success(self)
    }
}

impl IntoContent for CallToolResult {
    fn into_call_result(self) -> CallToolResult {
        self
    }
}

/// Values a tool returns as structured output.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    label = "this return type needs `Serialize` and `JsonSchema`",
    note = "add `#[derive(serde::Serialize, schemars::JsonSchema)]` to `{Self}`, or to the types it is built from; or return `String`, `()` or content blocks"
)]
pub trait ToolOutput: Serialize + JsonSchema {}

// Reports the unmet `ToolOutput` itself, with its note, rather than each missing supertrait.
#[diagnostic::do_not_recommend]
impl<T: Serialize + JsonSchema> ToolOutput for T {}

/// Error types a tool may return in `Err`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool's error type",
    label = "this error type does not implement `Display`",
    note = "return `mcp_tool::ToolError` for messages meant for the model, or any error type that implements `std::fmt::Display`"
)]
pub trait IntoFailure {
    #[doc(hidden)]
    fn into_failure(self) -> Failure;
}

impl<E: Display + 'static> IntoFailure for E {
    fn into_failure(self) -> Failure {
        match (&self as &dyn Any).downcast_ref::<ToolError>() {
            Some(error) => Failure::Tool(error.clone()),
            None => Failure::internal(format!("{self:#}")),
        }
    }
}

impl Failure {
    /// Unreachable: every missing argument was reported by `ArgReader::finish`.
    pub fn inconsistent_arguments() -> Self {
        Failure::internal("the arguments were read inconsistently".to_owned())
    }

    pub(crate) fn internal(message: String) -> Self {
        Failure::Internal {
            message,
            sources: Vec::new(),
        }
    }

    /// A `std::error::Error`, with its chain of sources kept for the log.
    fn from_error<E: std::error::Error + 'static>(error: E) -> Self {
        if let Some(error) = (&error as &dyn Any).downcast_ref::<ToolError>() {
            return Failure::Tool(error.clone());
        }
        let mut sources = Vec::new();
        let mut source = error.source();
        while let Some(cause) = source {
            sources.push(cause.to_string());
            source = cause.source();
        }
        Failure::Internal {
            message: format!("{error:#}"),
            sources,
        }
    }
}

fn no_schema(_: &mut SchemaGenerator) -> Option<Schema> {
    None
}

fn some_schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Option<Schema> {
    Some(generator.subschema_for::<T>())
}

fn structured<T: Serialize>(value: T) -> Result<ToolReply, Failure> {
    serde_json::to_value(value)
        .map(ToolReply::Structured)
        .map_err(|e| Failure::internal(format!("the result could not be serialized: {e}")))
}

fn content<C: IntoContent>(value: C) -> Result<ToolReply, Failure> {
    Ok(ToolReply::Content(value.into_call_result()))
}

fn content_result<C: IntoContent, E: IntoFailure>(
    result: Result<C, E>,
) -> Result<ToolReply, Failure> {
    result
        .map_err(IntoFailure::into_failure)
        .and_then(content::<C>)
}

fn content_error_result<C: IntoContent, E: std::error::Error + 'static>(
    result: Result<C, E>,
) -> Result<ToolReply, Failure> {
    result.map_err(Failure::from_error).and_then(content::<C>)
}

fn structured_result<T: Serialize, E: IntoFailure>(
    result: Result<T, E>,
) -> Result<ToolReply, Failure> {
    result
        .map_err(IntoFailure::into_failure)
        .and_then(structured::<T>)
}

fn structured_error_result<T: Serialize, E: std::error::Error + 'static>(
    result: Result<T, E>,
) -> Result<ToolReply, Failure> {
    result
        .map_err(Failure::from_error)
        .and_then(structured::<T>)
}

// The ladder: generated code calls `(&&&&&Probe::<R>::new()).__mcp_output()`, and
// method resolution takes the first rung whose impl applies to `R`, each rung one
// dereference further down. Rungs without impl bounds check theirs on the method,
// so a return type that fits nowhere gets the `on_unimplemented` message.

/// Rung 0: content, and `Result`s of content with a `std::error::Error`.
#[doc(hidden)]
pub trait ContentKind<R> {
    fn __mcp_output(&self) -> OutputSpec<R>;
}

impl<C: IntoContent> ContentKind<C> for &&&&Probe<C> {
    fn __mcp_output(&self) -> OutputSpec<C> {
        OutputSpec {
            schema: no_schema,
            convert: content::<C>,
        }
    }
}

impl<C, E> ContentKind<Result<C, E>> for &&&&Probe<Result<C, E>>
where
    C: IntoContent,
    E: std::error::Error + 'static,
{
    fn __mcp_output(&self) -> OutputSpec<Result<C, E>> {
        OutputSpec {
            schema: no_schema,
            convert: content_error_result::<C, E>,
        }
    }
}

/// Rung 1: `Result`s of content with any `Display` error.
#[doc(hidden)]
pub trait ContentResultKind<C, E> {
    fn __mcp_output(&self) -> OutputSpec<Result<C, E>>;
}

impl<C: IntoContent, E: IntoFailure> ContentResultKind<C, E> for &&&Probe<Result<C, E>> {
    fn __mcp_output(&self) -> OutputSpec<Result<C, E>> {
        OutputSpec {
            schema: no_schema,
            convert: content_result::<C, E>,
        }
    }
}

/// Rung 2: `Result<T, E>` with structured `T` and a `std::error::Error`.
#[doc(hidden)]
pub trait ErrorResultKind<T, E> {
    fn __mcp_output(&self) -> OutputSpec<Result<T, E>>
    where
        T: ToolOutput;
}

impl<T, E: std::error::Error + 'static> ErrorResultKind<T, E> for &&Probe<Result<T, E>> {
    fn __mcp_output(&self) -> OutputSpec<Result<T, E>>
    where
        T: ToolOutput,
    {
        OutputSpec {
            schema: some_schema::<T>,
            convert: structured_error_result::<T, E>,
        }
    }
}

/// Rung 3: `Result<T, E>` with structured `T` and any `Display` error.
#[doc(hidden)]
pub trait ResultKind<T, E> {
    fn __mcp_output(&self) -> OutputSpec<Result<T, E>>
    where
        T: ToolOutput,
        E: IntoFailure;
}

impl<T, E> ResultKind<T, E> for &Probe<Result<T, E>> {
    fn __mcp_output(&self) -> OutputSpec<Result<T, E>>
    where
        T: ToolOutput,
        E: IntoFailure,
    {
        OutputSpec {
            schema: some_schema::<T>,
            convert: structured_result::<T, E>,
        }
    }
}

/// Rung 4: any structured `T`.
#[doc(hidden)]
pub trait StructuredKind<T> {
    fn __mcp_output(&self) -> OutputSpec<T>
    where
        T: ToolOutput;
}

impl<T> StructuredKind<T> for Probe<T> {
    fn __mcp_output(&self) -> OutputSpec<T>
    where
        T: ToolOutput,
    {
        OutputSpec {
            schema: some_schema::<T>,
            convert: structured::<T>,
        }
    }
}

/// Runs a sync tool, catching its panic.
#[doc(hidden)]
pub fn sync_reply<R>(
    convert: fn(R) -> Result<ToolReply, Failure>,
    run: impl FnOnce() -> R,
) -> ToolFuture {
    let outcome = panics::catch(run).and_then(convert);
    Box::pin(std::future::ready(outcome))
}

/// Runs an async tool, catching its panic.
#[doc(hidden)]
pub fn async_reply<R: 'static, F>(
    convert: fn(R) -> Result<ToolReply, Failure>,
    run: F,
) -> ToolFuture
where
    F: Future<Output = R> + Send + 'static,
{
    Box::pin(panics::Guarded::new(run).map(move |outcome| outcome.and_then(convert)))
}

/// Ends a call whose arguments failed.
#[doc(hidden)]
pub fn fail(failure: Failure) -> ToolFuture {
    Box::pin(std::future::ready(Err(failure)))
}
