//! Reading a tool's arguments: every fault is collected, named by its path, and
//! never echoes the value that was sent (it may be a secret).

use schemars::SchemaGenerator;
use serde_json::{Map, Value};

use crate::call::arguments::lenient;
use crate::call::constraint::{LengthArg, PatternArg, RangeArg};
use crate::call::future::CallInput;
use crate::call::param::{Inject, ParamSpec, ParamType};
use crate::call::schema;
use crate::call::serde_message::{self, NamedField};
use crate::outcome::argument_errors::{ArgumentErrors, Fault};
use crate::outcome::failure::Failure;
use crate::outcome::suggest;

/// Reads parameters out of a call's arguments, collecting faults instead of stopping
/// at the first. Used by generated code.
#[doc(hidden)]
pub struct ArgReader<'a> {
    input: &'a CallInput<'a>,
    args: &'a Map<String, Value>,
    params: &'static [ParamSpec],
    /// How many arguments a parameter has read (each parameter reads one key once).
    found: usize,
    /// What went wrong, if anything: boxed, so that a call without faults carries and
    /// drops one empty pointer.
    trouble: Option<Box<Trouble>>,
}

impl std::fmt::Debug for ArgReader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The names only: the values are the client's, and may be secret.
        f.debug_struct("ArgReader")
            .field("input", self.input)
            .field("arg_names", &self.args.keys().collect::<Vec<_>>())
            .field("found", &self.found)
            .field("faulty", &self.trouble.is_some())
            .finish_non_exhaustive()
    }
}

/// The faults of a call's arguments.
#[derive(Debug, Default)]
struct Trouble {
    /// Faults with the index of their parameter, so they read in parameter order.
    faults: Vec<(usize, Fault)>,
    /// A parameter the server gives could not be made: the call fails as the server's.
    broken: Option<Failure>,
}

impl<'a> ArgReader<'a> {
    #[inline]
    pub fn new(input: &'a CallInput<'a>, params: &'static [ParamSpec]) -> Self {
        let args = input.args();
        Self {
            input,
            args,
            params,
            found: 0,
            trouble: None,
        }
    }

    // The reads are inlined into each tool's adapter, where the parameter's index,
    // name and decoder are constants: a lookup becomes a compare with a known key, and
    // the test for a parameter the server gives (`ty.inject`) is decided at compile time,
    // once inlined: always, so that this test never tips the inliner against a read.

    /// A parameter without default: absent (or `null`) is a fault.
    #[inline(always)]
    pub fn required<T>(&mut self, index: usize, ty: ParamType<T>) -> Option<T> {
        if let Some(inject) = ty.inject {
            return self.inject(inject);
        }
        match self.take(index) {
            Some(value) => self.decode(index, value, ty),
            None => {
                self.missing(index);
                None
            }
        }
    }

    /// An `Option<T>` parameter: absent and `null` are `None`.
    #[inline(always)]
    pub fn optional<T>(&mut self, index: usize, ty: ParamType<T>) -> Option<Option<T>> {
        if let Some(inject) = ty.inject {
            return self.inject(inject).map(Some);
        }
        match self.take(index) {
            Some(value) => self.decode(index, value, ty).map(Some),
            None => Some(None),
        }
    }

    /// A parameter with `#[arg(default = ...)]`.
    #[inline(always)]
    pub fn defaulted<T>(
        &mut self,
        index: usize,
        ty: ParamType<T>,
        default: impl FnOnce() -> T,
    ) -> Option<T> {
        if let Some(inject) = ty.inject {
            return self.inject(inject);
        }
        match self.take(index) {
            Some(value) => self.decode(index, value, ty),
            None => Some(default()),
        }
    }

    /// A parameter the server gives: a `Context` or a `State<T>`.
    #[cold]
    #[inline(never)]
    fn inject<T>(&mut self, inject: Inject<T>) -> Option<T> {
        match inject(self.input) {
            Ok(value) => Some(value),
            Err(failure) => {
                self.trouble().broken.get_or_insert(failure);
                None
            }
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

    /// Whether the argument `index` has a fault already.
    #[cold]
    fn has_fault(&self, index: usize) -> bool {
        self.trouble
            .as_ref()
            .is_some_and(|trouble| trouble.faults.iter().any(|(i, _)| *i == index))
    }

    /// Ends reading: unknown arguments become faults; any fault fails the call.
    #[inline]
    pub fn finish(self) -> Result<(), Failure> {
        // Keys are distinct: when each was read by a parameter, none is unknown.
        if self.trouble.is_none() && self.found == self.args.len() {
            return Ok(());
        }
        self.fail()
    }

    /// Where the faults go, made on the first.
    #[cold]
    fn trouble(&mut self) -> &mut Trouble {
        self.trouble.get_or_insert_with(Box::default)
    }

    #[cold]
    #[inline(never)]
    fn fail(self) -> Result<(), Failure> {
        let mut trouble = self.trouble.map(|trouble| *trouble).unwrap_or_default();
        if let Some(failure) = trouble.broken.take() {
            return Err(failure);
        }
        let params = self.params;
        // A parameter the server gives is not an argument: a key with its name is unknown.
        let arguments = || params.iter().filter(|p| p.kind.is_argument());
        let unread = if self.found == self.args.len() {
            None
        } else {
            Some(self.args.keys())
        };
        // Parameters are few: a scan beats building a set.
        for name in unread.into_iter().flatten() {
            if arguments().any(|p| p.name == name) {
                continue;
            }
            let suggestion = suggest::closest(name, arguments().map(|p| p.name)).map(str::to_owned);
            let fault = Fault::Unknown {
                name: name.clone(),
                suggestion,
            };
            trouble.faults.push((params.len(), fault));
        }
        if trouble.faults.is_empty() {
            return Ok(());
        }
        trouble.faults.sort_by_key(|(index, _)| *index);
        Err(Failure::Arguments(ArgumentErrors::new(
            trouble.faults.into_iter().map(|(_, fault)| fault).collect(),
        )))
    }

    #[cold]
    #[inline(never)]
    fn missing(&mut self, index: usize) {
        let fault = Fault::Missing(self.params[index].name.to_owned());
        self.trouble().faults.push((index, fault));
    }

    // Called once for each parameter of every generated call: kept inline whatever the
    // inliner's budget for the call says.
    #[inline(always)]
    fn take(&mut self, index: usize) -> Option<&'a Value> {
        let value = argument(self.args, self.params[index].name)?;
        self.found += 1;
        (!value.is_null()).then_some(value)
    }

    #[inline]
    fn decode<T>(&mut self, index: usize, value: &'a Value, ty: ParamType<T>) -> Option<T> {
        match (ty.decode)(value) {
            Ok(decoded) => Some(decoded),
            Err((path, message)) => {
                let converted = self.converted(index, value, ty);
                if converted.is_none() {
                    self.fault_from_serde(index, &path, &message);
                }
                converted
            }
        }
    }

    /// A value that failed the check, converted and decoded again, when its parameter is
    /// lenient and it converts: off the path of every call whose arguments are right.
    #[cold]
    #[inline(never)]
    fn converted<T>(&mut self, index: usize, value: &Value, ty: ParamType<T>) -> Option<T> {
        let param = &self.params[index];
        if !param.leniency.converts(self.input.lenient) {
            return None;
        }
        let mut generator = schema::generator(schemars::generate::Contract::Deserialize);
        let param_schema = schema::param_schema(param, &mut generator);
        let mut definitions = generator.take_definitions(true);
        schema::normalize_definitions(&mut definitions);
        let mut made = Vec::new();
        let converted = lenient::convert(value, &param_schema, &definitions, &mut made)?;
        let decoded = (ty.decode)(&converted).ok()?;
        let client = lenient::client_name(self.input);
        lenient::report(self.input.tool, client.as_deref(), param.name, &made);
        Some(decoded)
    }

    #[cold]
    #[inline(never)]
    fn fault_from_serde(&mut self, index: usize, path: &serde_path_to_error::Path, message: &str) {
        let param = &self.params[index];
        let fault = decode_fault(param.name, path, message, |generator| {
            schema::param_schema(param, generator)
        });
        self.trouble().faults.push((index, fault));
    }

    /// Records "`path`: expected <what the schema says>".
    fn invalid_at(
        &mut self,
        index: usize,
        inner: Option<(&serde_path_to_error::Path, Option<String>)>,
    ) {
        // A constraint's fault names all of the argument's constraints: one is enough.
        if inner.is_none() && self.has_fault(index) {
            return;
        }
        let param = &self.params[index];
        let fault = invalid_fault(param.name, inner, |generator| {
            schema::param_schema(param, generator)
        });
        self.trouble().faults.push((index, fault));
    }
}

/// Up to this many arguments, a call's argument is found by comparing names: a call has
/// few, and comparing their keys beats hashing the name.
pub(crate) const FEW: usize = 8;

/// The argument `name` of a call, `null` included.
#[inline]
pub(crate) fn argument<'a>(args: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    if args.len() <= FEW {
        args.iter()
            .find_map(|(key, value)| (key == name).then_some(value))
    } else {
        args.get(name)
    }
}

/// The fault of the argument `name` that serde could not decode, described against the
/// schema `schema` writes (asked for only when serde's message names no field).
pub(crate) fn decode_fault(
    name: &str,
    path: &serde_path_to_error::Path,
    message: &str,
    schema: impl FnOnce(&mut SchemaGenerator) -> Value,
) -> Fault {
    let at = join_path(name, path);
    match serde_message::named_field(message) {
        Some(NamedField::Missing(field)) => return Fault::Missing(format!("{at}.{field}")),
        Some(NamedField::Unknown(field)) => {
            // The path already ends at the unknown key.
            let name = if at.ends_with(&format!(".{field}")) {
                at
            } else {
                format!("{at}.{field}")
            };
            return Fault::Unknown {
                name,
                suggestion: None,
            };
        }
        None => {}
    }
    let fallback = serde_message::expected(message).map(str::to_owned);
    invalid_fault(name, Some((path, fallback)), schema)
}

/// "`path`: expected <what the schema of the argument `name` says>", at `inner`'s path
/// inside the argument when given (with serde's own words as the fallback).
pub(crate) fn invalid_fault(
    name: &str,
    inner: Option<(&serde_path_to_error::Path, Option<String>)>,
    schema: impl FnOnce(&mut SchemaGenerator) -> Value,
) -> Fault {
    let mut generator = schema::generator(schemars::generate::Contract::Deserialize);
    let param_schema = schema(&mut generator);
    let mut root = Map::new();
    let mut definitions = generator.take_definitions(true);
    if !definitions.is_empty() {
        schema::normalize_definitions(&mut definitions);
        root.insert("$defs".into(), Value::Object(definitions));
    }
    let (path, expected) = match inner {
        None => (name.to_owned(), schema::describe(&param_schema)),
        Some((path, fallback)) => {
            let expected = schema::at_path(&param_schema, &root, path)
                .map(schema::describe)
                .filter(|described| described != "a valid value")
                .or(fallback)
                .unwrap_or_else(|| "a valid value".to_owned());
            (join_path(name, path), expected)
        }
    };
    Fault::Invalid { path, expected }
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
