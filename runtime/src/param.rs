//! A tool's parameters as `#[mcp_tool]` describes them: name, schema, constraints,
//! default, and the decoder of each parameter's type.

use std::sync::OnceLock;

use regex::Regex;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// One parameter of a tool, as the attribute describes it.
#[doc(hidden)]
#[derive(Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub description: Option<&'static str>,
    pub required: bool,
    pub schema: fn(&mut SchemaGenerator) -> Schema,
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
    pub min_length: Option<u64>,
    pub max_length: Option<u64>,
    pub pattern: Option<&'static Pattern>,
    pub default: Option<fn() -> Value>,
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
pub trait ToolParam: DeserializeOwned + JsonSchema {}

// Reports the unmet `ToolParam` itself, with its note, rather than each missing supertrait.
#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema> ToolParam for T {}

/// A parameter type, checked against [`ToolParam`] once (so a type that is not one
/// gets one error): its schema and its decoder.
#[doc(hidden)]
pub struct ParamType<T> {
    pub schema: fn(&mut SchemaGenerator) -> Schema,
    pub(crate) decode: fn(&Value) -> Result<T, (serde_path_to_error::Path, String)>,
}

/// The [`ParamType`] of `T`; generated code names it once per parameter.
#[doc(hidden)]
pub const fn param_type<T: ToolParam>() -> ParamType<T> {
    ParamType {
        schema: schema_for::<T>,
        decode: decode_value::<T>,
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
pub fn schema_for<T: ToolParam>(generator: &mut SchemaGenerator) -> Schema {
    generator.subschema_for::<T>()
}
