//! What a tool returns, turned into a reply: content passes through, any other
//! `Serialize + JsonSchema` value becomes structured output with an output schema, and
//! `Result`s split into a reply or a [`Failure`].
//!
//! The generated code picks the conversion by autoref specialization over the concrete
//! return type (the "ladder" at the end of this file). Six shapes must be told apart:
//! content, structured values, and `Result`s of either with a `std::error::Error` (its
//! source chain is kept for the log) or with any `Display` error. The four `Result`
//! shapes overlap pairwise (`Result<String, std::io::Error>` fits all four) and plain
//! structured values overlap every `Result`, so each needs a rung of its own; only plain
//! content is disjoint from a rung's `Result`s and shares rung 0. Five rungs, no fewer.

use std::any::Any;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;
use serde_json::Value;

use crate::model::{Content, ToolResult};
use crate::outcome::failure::{Failure, IntoFailure};

/// A tool's successful answer, before the server shapes it.
#[doc(hidden)]
#[derive(Debug)]
pub enum ToolReply {
    /// A serialized value, for `structuredContent` (wrapped if the schema says so).
    Structured(Value),
    /// Content the tool built itself.
    Content(ToolResult),
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

/// Values a tool returns as content rather than as structured output: text, `()`
/// (no content), [`Content`] blocks and a whole [`ToolResult`].
///
/// ```standalone_crate
/// use mcp_tool::mcp_tool;
/// use mcp_tool::model::Content;
///
/// /// Returns the server's logo, a red square.
/// #[mcp_tool]
/// fn logo() -> Content {
///     let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8" fill="red"/></svg>"#;
///     Content::image(svg, "image/svg+xml")
/// }
/// # fn main() {}
/// ```
pub trait IntoContent {
    /// The result of the call.
    fn into_tool_result(self) -> ToolResult;

    /// The answer as the server shapes it: the result, unless the type has a shorter way.
    #[doc(hidden)]
    fn into_reply(self) -> Result<ToolReply, Failure>
    where
        Self: Sized,
    {
        Ok(ToolReply::Content(self.into_tool_result()))
    }
}

/// A value sent as structured output (`structuredContent`), with its JSON as text for
/// clients that read only content: what an attribute tool's serializable return value
/// becomes, for a handler that returns content, such as a
/// [`RuntimeTool`](crate::RuntimeTool)'s. Give the tool an output schema that describes
/// `T` (an object).
///
/// ```
/// use mcp_tool::model::ToolResult;
/// use mcp_tool::{IntoContent, Structured};
///
/// let result = Structured(serde_json::json!({ "sum": 3 })).into_tool_result();
/// assert_eq!(result.structured, Some(serde_json::json!({ "sum": 3 })));
/// assert_eq!(result.text(), r#"{"sum":3}"#);
/// ```
///
/// A value that fails to serialize (a map with keys that are not strings, say) fails the
/// call with an internal error, as it does for an attribute tool.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Structured<T>(pub T);

impl<T: Serialize + 'static> IntoContent for Structured<T> {
    fn into_tool_result(self) -> ToolResult {
        match json_of(self.0) {
            Ok(value) => {
                ToolResult::new(vec![Content::text(value.to_string())]).with_structured(value)
            }
            Err(error) => ToolResult::error(vec![Content::text(unserializable(&error))]),
        }
    }

    fn into_reply(self) -> Result<ToolReply, Failure> {
        json_of(self.0)
            .map(ToolReply::Structured)
            .map_err(|e| Failure::internal(unserializable(&e)))
    }
}

/// `value` as JSON: a `Value` is moved, not serialized into a copy of itself.
fn json_of<T: Serialize + 'static>(value: T) -> Result<Value, serde_json::Error> {
    let mut value = Some(value);
    if let Some(json) = (&mut value as &mut dyn Any).downcast_mut::<Option<Value>>() {
        return Ok(json.take().unwrap_or_default());
    }
    value.map_or(Ok(Value::Null), serde_json::to_value)
}

fn unserializable(error: &serde_json::Error) -> String {
    format!("the result could not be serialized: {error}")
}

impl IntoContent for String {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::new(vec![Content::text(self)])
    }
}

impl IntoContent for &'static str {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::new(vec![Content::text(self)])
    }
}

impl IntoContent for () {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::new(Vec::new())
    }
}

impl IntoContent for Content {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::new(vec![self])
    }
}

impl IntoContent for Vec<Content> {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::new(self)
    }
}

impl IntoContent for ToolResult {
    fn into_tool_result(self) -> ToolResult {
        self
    }
}

/// Values a tool returns as structured output: any `serde::Serialize +
/// schemars::JsonSchema` type, through a blanket implementation.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Serialize;
///
/// /// How many lines and words a text has.
/// #[derive(Serialize, JsonSchema)]
/// struct Counts {
///     lines: usize,
///     words: usize,
/// }
///
/// /// Counts the lines and the words of a text.
/// #[mcp_tool::mcp_tool]
/// fn count(text: String) -> Counts {
///     Counts { lines: text.lines().count(), words: text.split_whitespace().count() }
/// }
/// # assert_eq!(count("a b".into()).words, 2);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    label = "this return type needs `Serialize` and `JsonSchema`",
    note = "add `#[derive(serde::Serialize, schemars::JsonSchema)]` to `{Self}`, or to the types it is built from; or return `String`, `()` or content blocks"
)]
pub trait ToolOutput: Serialize + JsonSchema {}

// Reports the unmet `ToolOutput` itself, with its note, rather than each missing supertrait.
#[diagnostic::do_not_recommend]
impl<T: Serialize + JsonSchema> ToolOutput for T {}

fn no_schema(_: &mut SchemaGenerator) -> Option<Schema> {
    None
}

fn some_schema<T: JsonSchema>(generator: &mut SchemaGenerator) -> Option<Schema> {
    Some(generator.subschema_for::<T>())
}

fn structured<T: Serialize>(value: T) -> Result<ToolReply, Failure> {
    serde_json::to_value(value)
        .map(ToolReply::Structured)
        .map_err(|e| Failure::internal(unserializable(&e)))
}

fn content<C: IntoContent>(value: C) -> Result<ToolReply, Failure> {
    value.into_reply()
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

// A return type written `Result<T, E>` takes two ladders instead of the one above: `T`
// and `E` are probed apart, each call spanned on its own type, so a missing trait is
// reported on the type that lacks it. Generated code converts through the markers the
// probes return; their methods repeat the probe's bound at the probe's span, which
// rustc reports once.

/// The value of a `Result` is content.
#[doc(hidden)]
#[derive(Debug)]
pub struct ContentValue<T>(PhantomData<fn() -> T>);

impl<T> ContentValue<T> {
    pub fn schema(&self, _: &mut SchemaGenerator) -> Option<Schema> {
        None
    }

    pub fn convert(&self, value: T) -> Result<ToolReply, Failure>
    where
        T: IntoContent,
    {
        content(value)
    }
}

/// The value of a `Result` is structured output.
#[doc(hidden)]
#[derive(Debug)]
pub struct StructuredValue<T>(PhantomData<fn() -> T>);

impl<T> StructuredValue<T> {
    pub fn schema(&self, generator: &mut SchemaGenerator) -> Option<Schema>
    where
        T: ToolOutput,
    {
        some_schema::<T>(generator)
    }

    pub fn convert(&self, value: T) -> Result<ToolReply, Failure>
    where
        T: ToolOutput,
    {
        structured(value)
    }
}

/// The error of a `Result` is a `std::error::Error`, whose sources are logged.
#[doc(hidden)]
#[derive(Debug)]
pub struct StdError<E>(PhantomData<fn() -> E>);

impl<E> StdError<E> {
    pub fn fail(&self, error: E) -> Failure
    where
        E: std::error::Error + 'static,
    {
        Failure::from_error(error)
    }
}

/// The error of a `Result` is only `Display`.
#[doc(hidden)]
#[derive(Debug)]
pub struct DisplayError<E>(PhantomData<fn() -> E>);

impl<E> DisplayError<E> {
    pub fn fail(&self, error: E) -> Failure
    where
        E: IntoFailure,
    {
        error.into_failure()
    }
}

/// Value rung 0: content.
#[doc(hidden)]
pub trait ContentValueKind<T> {
    fn __mcp_value(&self) -> ContentValue<T>;
}

impl<T: IntoContent> ContentValueKind<T> for &Probe<T> {
    fn __mcp_value(&self) -> ContentValue<T> {
        ContentValue(PhantomData)
    }
}

/// Value rung 1: structured output, the bound checked on the method.
#[doc(hidden)]
pub trait StructuredValueKind<T> {
    fn __mcp_value(&self) -> StructuredValue<T>
    where
        T: ToolOutput;
}

impl<T> StructuredValueKind<T> for Probe<T> {
    fn __mcp_value(&self) -> StructuredValue<T>
    where
        T: ToolOutput,
    {
        StructuredValue(PhantomData)
    }
}

/// Error rung 0: a `std::error::Error`.
#[doc(hidden)]
pub trait StdErrorKind<E> {
    fn __mcp_error(&self) -> StdError<E>;
}

impl<E: std::error::Error + 'static> StdErrorKind<E> for &Probe<E> {
    fn __mcp_error(&self) -> StdError<E> {
        StdError(PhantomData)
    }
}

/// Error rung 1: any `Display`, the bound checked on the method.
#[doc(hidden)]
pub trait DisplayErrorKind<E> {
    fn __mcp_error(&self) -> DisplayError<E>
    where
        E: IntoFailure;
}

impl<E> DisplayErrorKind<E> for Probe<E> {
    fn __mcp_error(&self) -> DisplayError<E>
    where
        E: IntoFailure,
    {
        DisplayError(PhantomData)
    }
}
