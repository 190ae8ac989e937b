//! A tool's parameters as `#[mcp_tool]` describes them: name, schema, constraints,
//! default, and the decoder of each parameter's type.

use std::any::TypeId;
use std::sync::OnceLock;

use regex::Regex;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::call::future::CallInput;
use crate::outcome::failure::Failure;

/// One parameter of a tool, as the attribute describes it.
#[doc(hidden)]
#[derive(Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub kind: ParamKind,
    pub description: Option<&'static str>,
    pub required: bool,
    pub schema: fn(&mut SchemaGenerator) -> Schema,
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<&'static Pattern>,
    pub default: Option<fn() -> Value>,
    /// `#[arg(header = "Region")]`: mirrored in the `Mcp-Param-Region` HTTP header.
    pub header: Option<&'static str>,
    /// Whether an argument sent as another JSON type is converted before it is checked.
    pub leniency: Leniency,
}

/// Whether a parameter's argument sent as another JSON type than its schema wants
/// (`"10"` for an integer) is converted before the check: `#[mcp_tool(lenient)]`,
/// `#[arg(lenient)]`, `#[arg(strict)]`, or the server's
/// [`lenient_arguments`](crate::Server::lenient_arguments).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Leniency {
    /// As the server says: exact unless it serves lenient arguments.
    Server,
    /// Converted: the tool or the parameter opted in.
    Lenient,
    /// Exact, whatever the server says: `#[arg(strict)]`.
    Strict,
}

impl Leniency {
    /// Whether the argument is converted, on a server that serves lenient arguments or not.
    #[inline]
    pub(crate) fn converts(self, server: bool) -> bool {
        match self {
            Leniency::Server => server,
            Leniency::Lenient => true,
            Leniency::Strict => false,
        }
    }
}

/// What a parameter is, decided by its type: an argument the client sends, or a value
/// the server gives the tool, which is no part of the input schema.
#[doc(hidden)]
#[derive(Debug, Clone, Copy)]
pub enum ParamKind {
    Argument,
    Context,
    State {
        type_id: fn() -> TypeId,
        type_name: fn() -> &'static str,
    },
}

impl ParamKind {
    /// Whether the client sends this parameter.
    #[inline]
    pub const fn is_argument(self) -> bool {
        matches!(self, ParamKind::Argument)
    }
}

/// Fails compilation when a tool takes two `Context`s: generated code calls it in a
/// constant with the kinds of all of a tool's parameters, which only their types decide.
#[doc(hidden)]
pub const fn at_most_one_context(kinds: &[ParamKind]) {
    let mut contexts = 0;
    let mut index = 0;
    while index < kinds.len() {
        if matches!(kinds[index], ParamKind::Context) {
            contexts += 1;
        }
        index += 1;
    }
    assert!(
        contexts <= 1,
        "a tool takes at most one `mcp_tool::Context`: remove the second one (it may hide behind an alias)"
    );
}

/// Fails compilation when a parameter of a resource is an argument but no variable of its
/// URI template: generated code calls it, spanned on the parameter, for every parameter
/// the template does not name, which only a `Context` or a `State<T>` may be.
#[doc(hidden)]
pub const fn no_template_variable(kind: ParamKind) {
    assert!(
        !kind.is_argument(),
        "this parameter of a resource is no variable of its URI template: add it to the template as a variable of the same name, or remove it (a resource's parameters are its template's variables, a `Context` and `State<T>`s)"
    );
}

/// The `State<T>` types that parameters ask for, by id and name.
pub(crate) fn states(params: &'static [ParamSpec]) -> impl Iterator<Item = (TypeId, &'static str)> {
    params.iter().filter_map(|param| match param.kind {
        ParamKind::State { type_id, type_name } => Some((type_id(), type_name())),
        ParamKind::Argument | ParamKind::Context => None,
    })
}

/// A numeric bound of `#[arg(range(...))]`.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    Int(i128),
    Float(f64),
}

/// A `#[arg(pattern = "...")]` regex, compiled on first use and kept.
#[doc(hidden)]
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    compiled: OnceLock<Option<Regex>>,
}

impl Bound {
    pub(crate) fn to_json(self) -> Value {
        match self {
            Bound::Int(value) => i64::try_from(value)
                .map(Value::from)
                .or_else(|_| u64::try_from(value).map(Value::from))
                .unwrap_or_else(|_| Value::from(value as f64)),
            Bound::Float(value) => Value::from(value),
        }
    }
}

impl Pattern {
    pub const fn new(source: &'static str) -> Self {
        Self {
            source,
            compiled: OnceLock::new(),
        }
    }

    pub(crate) fn source(&self) -> &'static str {
        self.source
    }

    pub(crate) fn is_match(&self, text: &str) -> bool {
        // The attribute checked the syntax at compile time; a pattern that still fails
        // (a size limit) rejects every value rather than accepting it unchecked.
        self.compiled
            .get_or_init(|| Regex::new(self.source).ok())
            .as_ref()
            .is_some_and(|re| re.is_match(text))
    }
}

/// Types a tool parameter may have: any `serde::Deserialize + schemars::JsonSchema`
/// type, through a blanket implementation.
///
/// ```
/// use schemars::JsonSchema;
/// use serde::Deserialize;
///
/// /// A span of lines.
/// #[derive(Deserialize, JsonSchema)]
/// struct Span {
///     /// The first line, from 1.
///     start: u32,
///     /// The last line, included.
///     end: u32,
/// }
///
/// /// Returns how many lines a span covers.
/// #[mcp_tool::mcp_tool]
/// fn span_length(span: Span) -> u32 {
///     span.end.saturating_sub(span.start) + 1
/// }
/// # assert_eq!(span_length(Span { start: 2, end: 4 }), 3);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "a tool parameter needs `Deserialize` and `JsonSchema`",
    note = "add `#[derive(serde::Deserialize, schemars::JsonSchema)]` to `{Self}`, or to the types it is built from"
)]
pub trait ToolParam: Sized {
    /// How the tool reads a parameter of this type. Not a public API.
    #[doc(hidden)]
    const PARAM_TYPE: ParamType<Self>;
}

// Reports the unmet `ToolParam` itself, with its note, rather than each missing supertrait.
#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema> ToolParam for T {
    const PARAM_TYPE: ParamType<T> = ParamType {
        kind: ParamKind::Argument,
        schema: schema_for::<T>,
        decode: decode_value::<T>,
        inject: None,
    };
}

/// A parameter type, checked against [`ToolParam`] once (so a type that is not one
/// gets one error): its schema and its decoder.
#[doc(hidden)]
pub struct ParamType<T> {
    pub kind: ParamKind,
    pub schema: fn(&mut SchemaGenerator) -> Schema,
    pub(crate) decode: fn(&Value) -> Result<T, (serde_path_to_error::Path, String)>,
    /// How the server gives a parameter the client does not send.
    pub(crate) inject: Option<Inject<T>>,
}

/// Makes a parameter the server gives, for one call.
pub(crate) type Inject<T> = fn(&CallInput<'_>) -> Result<T, Failure>;

impl<T> ParamType<T> {
    /// A parameter the server gives the tool: never read from the arguments.
    pub(crate) const fn injected(kind: ParamKind, inject: Inject<T>) -> Self {
        Self {
            kind,
            schema: no_schema,
            decode: not_an_argument::<T>,
            inject: Some(inject),
        }
    }
}

/// The [`ParamType`] of `T`; generated code names it once per parameter.
#[doc(hidden)]
pub const fn param_type<T: ToolParam>() -> ParamType<T> {
    T::PARAM_TYPE
}

/// The schema slot of an injected parameter, which no input schema includes.
fn no_schema(_: &mut SchemaGenerator) -> Schema {
    Schema::default()
}

/// The decoder slot of an injected parameter, never called: readers inject it instead.
fn not_an_argument<T>(_: &Value) -> Result<T, (serde_path_to_error::Path, String)> {
    #[derive(serde::Deserialize)]
    enum Never {}
    match serde_path_to_error::deserialize::<_, Never>(Value::Null) {
        Ok(never) => match never {},
        Err(error) => Err((error.path().clone(), "a value the server gives".to_owned())),
    }
}

impl<T> Clone for ParamType<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ParamType<T> {}

impl<T> std::fmt::Debug for ParamType<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParamType").finish_non_exhaustive()
    }
}

/// Decodes one argument; on failure, where in it and serde's message.
#[inline]
fn decode_value<T: DeserializeOwned>(
    value: &Value,
) -> Result<T, (serde_path_to_error::Path, String)> {
    // The fast path decodes without tracking paths; only a failure pays for them.
    match T::deserialize(value) {
        Ok(decoded) => Ok(decoded),
        Err(_) => decode_tracked(value),
    }
}

/// Decodes a failed argument again: with its integral floats as integers (JSON Schema
/// counts `5.0` as an integer, serde does not), else tracking where in it serde stopped.
#[cold]
#[inline(never)]
fn decode_tracked<T: DeserializeOwned>(
    value: &Value,
) -> Result<T, (serde_path_to_error::Path, String)> {
    let mut integral = value.clone();
    if integral_floats_to_integers(&mut integral)
        && let Ok(decoded) = T::deserialize(&integral)
    {
        return Ok(decoded);
    }
    serde_path_to_error::deserialize::<_, T>(value).map_err(|error| {
        let path = error.path().clone();
        (path, error.into_inner().to_string())
    })
}

/// Turns every float without a fractional part (`5.0`, `-0.0`, `1e3`) into the same
/// integer, where one fits; whether anything changed. Values nest at most 128 deep
/// (serde_json's limit), so the recursion is bounded.
fn integral_floats_to_integers(value: &mut Value) -> bool {
    match value {
        Value::Number(number) if number.is_f64() => {
            let float = number.as_f64().unwrap_or(f64::NAN);
            let integer = if float.fract() != 0.0 {
                None
            } else if (-(2f64.powi(63))..2f64.powi(63)).contains(&float) {
                Some(Value::from(float as i64))
            } else if (0.0..2f64.powi(64)).contains(&float) {
                Some(Value::from(float as u64))
            } else {
                None
            };
            integer.map(|integer| *value = integer).is_some()
        }
        Value::Array(items) => items.iter_mut().fold(false, |changed, item| {
            integral_floats_to_integers(item) | changed
        }),
        Value::Object(fields) => fields.values_mut().fold(false, |changed, field| {
            integral_floats_to_integers(field) | changed
        }),
        _ => false,
    }
}

/// The schema of one parameter's type, referenced from generated code.
#[doc(hidden)]
pub fn schema_for<T: JsonSchema>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}
