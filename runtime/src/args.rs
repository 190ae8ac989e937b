//! Reading a tool's arguments: every fault is collected, named by its path, and
//! never echoes the value that was sent (it may be a secret).

use std::sync::OnceLock;

use regex::Regex;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::schema;

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

    fn is_match(&self, text: &str) -> bool {
        // The attribute checked the syntax at compile time; a pattern that still fails
        // (a size limit) rejects every value rather than accepting it unchecked.
        self.compiled
            .get_or_init(|| Regex::new(self.source).ok())
            .as_ref()
            .is_some_and(|re| re.is_match(text))
    }
}

/// Types a tool parameter may have.
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
    decode: fn(&Value) -> Result<T, (serde_path_to_error::Path, String)>,
}

/// The [`ParamType`] of `T`; generated code names it once per parameter.
#[doc(hidden)]
pub const fn param_type<T: ToolParam>() -> ParamType<T> {
    ParamType {
        schema: crate::schema::schema_for::<T>,
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
fn decode_value<T: DeserializeOwned>(
    value: &Value,
) -> Result<T, (serde_path_to_error::Path, String)> {
    // The fast path decodes without tracking paths; only a failure pays for them.
    if let Ok(decoded) = T::deserialize(value) {
        return Ok(decoded);
    }
    serde_path_to_error::deserialize::<_, T>(value).map_err(|error| {
        let path = error.path().clone();
        (path, error.into_inner().to_string())
    })
}

/// Numbers that `#[arg(range(...))]` can bound.
#[diagnostic::on_unimplemented(
    message = "`range` applies to numeric parameters, and `{Self}` is not a number",
    label = "not a number",
    note = "use `length(min = .., max = ..)` to bound a string or a collection"
)]
pub trait RangeArg {
    #[doc(hidden)]
    fn within(&self, min: Option<Bound>, max: Option<Bound>) -> bool;
}

macro_rules! range_int {
    ($($t:ty),*) => {$(
        impl RangeArg for $t {
            fn within(&self, min: Option<Bound>, max: Option<Bound>) -> bool {
                let value = *self as i128;
                let above = |b: Bound| match b {
                    Bound::Int(b) => value >= b,
                    Bound::Float(b) => value as f64 >= b,
                };
                let below = |b: Bound| match b {
                    Bound::Int(b) => value <= b,
                    Bound::Float(b) => value as f64 <= b,
                };
                min.is_none_or(above) && max.is_none_or(below)
            }
        }
    )*};
}
range_int!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

macro_rules! range_float {
    ($($t:ty),*) => {$(
        impl RangeArg for $t {
            fn within(&self, min: Option<Bound>, max: Option<Bound>) -> bool {
                let value = *self as f64;
                let bound = |b: Bound| match b {
                    Bound::Int(b) => b as f64,
                    Bound::Float(b) => b,
                };
                min.is_none_or(|b| value >= bound(b)) && max.is_none_or(|b| value <= bound(b))
            }
        }
    )*};
}
range_float!(f32, f64);

/// Strings and collections that `#[arg(length(...))]` can bound.
#[diagnostic::on_unimplemented(
    message = "`length` applies to strings and collections, and `{Self}` is neither",
    label = "has no length",
    note = "use `range(min = .., max = ..)` to bound a number"
)]
pub trait LengthArg {
    /// Characters of a string, items of a collection.
    #[doc(hidden)]
    fn arg_len(&self) -> usize;
}

impl LengthArg for String {
    fn arg_len(&self) -> usize {
        self.chars().count()
    }
}

impl<T> LengthArg for Vec<T> {
    fn arg_len(&self) -> usize {
        self.len()
    }
}

impl<K, V, S> LengthArg for std::collections::HashMap<K, V, S> {
    fn arg_len(&self) -> usize {
        self.len()
    }
}

impl<K, V> LengthArg for std::collections::BTreeMap<K, V> {
    fn arg_len(&self) -> usize {
        self.len()
    }
}

impl<T, S> LengthArg for std::collections::HashSet<T, S> {
    fn arg_len(&self) -> usize {
        self.len()
    }
}

impl<T> LengthArg for std::collections::BTreeSet<T> {
    fn arg_len(&self) -> usize {
        self.len()
    }
}

/// Strings that `#[arg(pattern = "...")]` can match.
#[diagnostic::on_unimplemented(
    message = "`pattern` applies to string parameters, and `{Self}` is not a string",
    label = "not a string",
    note = "declare the parameter as `String` (or `Option<String>`)"
)]
pub trait PatternArg {
    #[doc(hidden)]
    fn arg_str(&self) -> &str;
}

impl PatternArg for String {
    fn arg_str(&self) -> &str {
        self
    }
}

/// One fault of the arguments of a call.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Fault {
    Missing(String),
    Unknown {
        name: String,
        suggestion: Option<&'static str>,
    },
    Invalid {
        path: String,
        expected: String,
    },
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Missing(path) => write!(f, "missing argument `{path}`"),
            Fault::Unknown {
                name,
                suggestion: Some(suggestion),
            } => write!(
                f,
                "unknown argument `{name}` (did you mean `{suggestion}`?)"
            ),
            Fault::Unknown {
                name,
                suggestion: None,
            } => write!(f, "unknown argument `{name}`"),
            Fault::Invalid { path, expected } => write!(f, "`{path}`: expected {expected}"),
        }
    }
}

/// Every fault of one call's arguments.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentErrors {
    faults: Vec<Fault>,
}

impl std::fmt::Display for ArgumentErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, fault) in self.faults.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{fault}")?;
        }
        Ok(())
    }
}

/// Reads parameters out of a call's arguments, collecting faults instead of stopping
/// at the first. Used by generated code.
#[doc(hidden)]
#[derive(Debug)]
pub struct ArgReader<'a> {
    args: &'a Map<String, Value>,
    params: &'static [ParamSpec],
    /// Faults with the index of their parameter, so they read in parameter order.
    faults: Vec<(usize, Fault)>,
}

impl<'a> ArgReader<'a> {
    pub fn new(input: &'a crate::call::CallInput, params: &'static [ParamSpec]) -> Self {
        let args = input.args();
        Self {
            args,
            params,
            faults: Vec::new(),
        }
    }

    /// A parameter without default: absent (or `null`) is a fault.
    pub fn required<T>(&mut self, index: usize, ty: ParamType<T>) -> Option<T> {
        match self.take(index) {
            Some(value) => self.decode(index, value, ty),
            None => {
                let fault = Fault::Missing(self.params[index].name.to_owned());
                self.faults.push((index, fault));
                None
            }
        }
    }

    /// An `Option<T>` parameter: absent and `null` are `None`.
    pub fn optional<T>(&mut self, index: usize, ty: ParamType<T>) -> Option<Option<T>> {
        match self.take(index) {
            Some(value) => self.decode(index, value, ty).map(Some),
            None => Some(None),
        }
    }

    /// A parameter with `#[arg(default = ...)]`.
    pub fn defaulted<T>(
        &mut self,
        index: usize,
        ty: ParamType<T>,
        default: impl FnOnce() -> T,
    ) -> Option<T> {
        match self.take(index) {
            Some(value) => self.decode(index, value, ty),
            None => Some(default()),
        }
    }

    pub fn check_range<T: RangeArg + ?Sized>(&mut self, index: usize, value: &T) {
        let param = &self.params[index];
        if !value.within(param.minimum, param.maximum) {
            self.invalid_at(index, None);
        }
    }

    pub fn check_length<T: LengthArg + ?Sized>(&mut self, index: usize, value: &T) {
        let param = &self.params[index];
        let len = value.arg_len() as u64;
        if param.min_length.is_some_and(|min| len < min)
            || param.max_length.is_some_and(|max| len > max)
        {
            self.invalid_at(index, None);
        }
    }

    pub fn check_pattern<T: PatternArg + ?Sized>(&mut self, index: usize, value: &T) {
        let matches = self.params[index]
            .pattern
            .is_none_or(|pattern| pattern.is_match(value.arg_str()));
        if !matches {
            self.invalid_at(index, None);
        }
    }

    /// Ends reading: unknown arguments become faults; any fault fails the call.
    pub fn finish(mut self) -> Result<(), crate::call::Failure> {
        let params = self.params;
        // Parameters are few: a scan beats building a set on every call.
        for name in self.args.keys() {
            if params.iter().any(|p| p.name == name) {
                continue;
            }
            let suggestion = crate::suggest::closest(name, params.iter().map(|p| p.name));
            let fault = Fault::Unknown {
                name: name.clone(),
                suggestion,
            };
            self.faults.push((params.len(), fault));
        }
        if self.faults.is_empty() {
            return Ok(());
        }
        self.faults.sort_by_key(|(index, _)| *index);
        Err(crate::call::Failure::Arguments(ArgumentErrors {
            faults: self.faults.into_iter().map(|(_, fault)| fault).collect(),
        }))
    }

    fn take(&self, index: usize) -> Option<&'a Value> {
        let name = self.params[index].name;
        // A call has few arguments: comparing their keys beats hashing the name.
        let value = if self.args.len() <= 8 {
            self.args
                .iter()
                .find_map(|(key, value)| (key == name).then_some(value))
        } else {
            self.args.get(name)
        };
        value.filter(|value| !value.is_null())
    }

    fn decode<T>(&mut self, index: usize, value: &'a Value, ty: ParamType<T>) -> Option<T> {
        match (ty.decode)(value) {
            Ok(decoded) => Some(decoded),
            Err((path, message)) => {
                self.fault_from_serde(index, &path, &message);
                None
            }
        }
    }

    fn fault_from_serde(&mut self, index: usize, path: &serde_path_to_error::Path, message: &str) {
        let name = self.params[index].name;
        let at = join_path(name, path);
        // serde names fields, never values, in these two messages.
        if let Some(field) = backticked_after(message, "missing field `") {
            self.faults
                .push((index, Fault::Missing(format!("{at}.{field}"))));
            return;
        }
        if let Some(field) = backticked_after(message, "unknown field `") {
            // The path already ends at the unknown key.
            let name = if at.ends_with(&format!(".{field}")) {
                at
            } else {
                format!("{at}.{field}")
            };
            let fault = Fault::Unknown {
                name,
                suggestion: None,
            };
            self.faults.push((index, fault));
            return;
        }
        let fallback = message
            .rsplit_once(", expected ")
            .map(|(_, expected)| expected.to_owned());
        self.invalid_at(index, Some((path, fallback)));
    }

    /// Records "`path`: expected <what the schema says>".
    fn invalid_at(
        &mut self,
        index: usize,
        inner: Option<(&serde_path_to_error::Path, Option<String>)>,
    ) {
        let param = &self.params[index];
        let mut generator = schema::generator(schemars::generate::Contract::Deserialize);
        let param_schema = schema::param_schema(param, &mut generator);
        let mut root = Map::new();
        let definitions = generator.take_definitions(true);
        if !definitions.is_empty() {
            let mut definitions = Value::Object(definitions);
            schema::normalize(&mut definitions);
            root.insert("$defs".into(), definitions);
        }
        let (path, expected) = match inner {
            None => (param.name.to_owned(), schema::describe(&param_schema)),
            Some((path, fallback)) => {
                let expected = schema::at_path(&param_schema, &root, path)
                    .map(schema::describe)
                    .filter(|described| described != "a valid value")
                    .or(fallback)
                    .unwrap_or_else(|| "a valid value".to_owned());
                (join_path(param.name, path), expected)
            }
        };
        self.faults.push((index, Fault::Invalid { path, expected }));
    }
}

fn join_path(name: &str, path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut joined = name.to_owned();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => joined.push_str(&format!("[{index}]")),
            Segment::Map { key } => {
                joined.push('.');
                joined.push_str(key);
            }
            Segment::Enum { variant } => {
                joined.push('.');
                joined.push_str(variant);
            }
            Segment::Unknown => {}
        }
    }
    joined
}

fn backticked_after<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = message.strip_prefix(prefix)?;
    rest.split_once('`').map(|(field, _)| field)
}
