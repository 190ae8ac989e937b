//! Calling a tool: running it, catching its panics, and turning what it returns
//! into an MCP result.

use std::any::Any;
use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;

use futures::FutureExt as _;
use rmcp::model::{CallToolResult, ContentBlock};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::args::ArgumentErrors;
use crate::error::ToolError;

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

    pub fn into_args(self) -> Map<String, Value> {
        self.args
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
    /// The tool returned another error (its `{:#}` text).
    Internal(String),
    /// The tool panicked (its payload, when it was a string).
    Panic(String),
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
    note = "derive `serde::Serialize` and `schemars::JsonSchema` for it, or return `String`, `()` or content blocks"
)]
pub trait ToolOutput: Serialize + JsonSchema {}

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
            None => Failure::Internal(format!("{self:#}")),
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
        .map_err(|e| Failure::Internal(format!("the result could not be serialized: {e}")))
}

fn content<C: IntoContent>(value: C) -> Result<ToolReply, Failure> {
    Ok(ToolReply::Content(value.into_call_result()))
}

fn fallible<T, E: IntoFailure>(
    ok: fn(T) -> Result<ToolReply, Failure>,
) -> impl Fn(Result<T, E>) -> Result<ToolReply, Failure> {
    move |result| result.map_err(IntoFailure::into_failure).and_then(ok)
}

fn content_result<C: IntoContent, E: IntoFailure>(
    result: Result<C, E>,
) -> Result<ToolReply, Failure> {
    fallible::<C, E>(content::<C>)(result)
}

fn structured_result<T: Serialize, E: IntoFailure>(
    result: Result<T, E>,
) -> Result<ToolReply, Failure> {
    fallible::<T, E>(structured::<T>)(result)
}

/// First rung: content types and `Result`s of them.
#[doc(hidden)]
pub trait ContentKind<R> {
    fn __mcp_output(&self) -> OutputSpec<R>;
}

impl<C: IntoContent> ContentKind<C> for &&Probe<C> {
    fn __mcp_output(&self) -> OutputSpec<C> {
        OutputSpec {
            schema: no_schema,
            convert: content::<C>,
        }
    }
}

impl<C: IntoContent, E> ContentKind<Result<C, E>> for &&Probe<Result<C, E>>
where
    E: IntoFailure,
{
    fn __mcp_output(&self) -> OutputSpec<Result<C, E>> {
        OutputSpec {
            schema: no_schema,
            convert: content_result::<C, E>,
        }
    }
}

/// Second rung: `Result<T, E>` with structured `T`.
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

/// Last rung: any structured `T`.
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
    let outcome = match std::panic::catch_unwind(AssertUnwindSafe(run)) {
        Ok(value) => convert(value),
        Err(payload) => Err(Failure::Panic(panic_message(payload.as_ref()))),
    };
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
    Box::pin(
        AssertUnwindSafe(run)
            .catch_unwind()
            .map(move |outcome| match outcome {
                Ok(value) => convert(value),
                Err(payload) => Err(Failure::Panic(panic_message(payload.as_ref()))),
            }),
    )
}

/// Ends a call whose arguments failed.
#[doc(hidden)]
pub fn fail(failure: Failure) -> ToolFuture {
    Box::pin(std::future::ready(Err(failure)))
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&'static str>() {
        (*text).to_owned()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "the tool panicked".to_owned()
    }
}
