//! JSON Schemas of tool inputs and outputs, shaped for what MCP clients can read.
//!
//! schemars writes `$schema`, `$ref`/`$defs` and Rust-specific formats such as
//! `int32`; several clients cannot read those, so every schema here is inlined
//! (except where a type is recursive), carries no `$schema`, states integer
//! widths as `minimum`/`maximum`, and has no `type` arrays (see [`unions`]). A tool
//! with `schema = "2020-12"` keeps `$schema` and its named types under `$defs` instead.

pub(crate) mod profiles;
mod unions;

use schemars::generate::{Contract, SchemaSettings};
use schemars::transform::{Transform, transform_subschemas};
use schemars::{Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

use crate::call::param::ParamSpec;

/// The JSON Schema dialect a tool's schemas declare.
const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

/// How a tool's schemas are written: `#[mcp_tool(schema = "...")]`.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SchemaDialect {
    /// Every type inlined (a recursive one aside), no `$schema`: what every client reads.
    #[default]
    Portable,
    /// A full JSON Schema 2020-12 document: `$schema` at the root, every named type
    /// under `$defs` and referenced with `$ref`.
    Draft2020_12,
}

/// The generator every tool schema comes from.
pub(crate) fn generator(contract: Contract) -> SchemaGenerator {
    generator_for(contract, SchemaDialect::Portable)
}

fn generator_for(contract: Contract, dialect: SchemaDialect) -> SchemaGenerator {
    SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = dialect == SchemaDialect::Portable;
            s.meta_schema = None;
            s.contract = contract;
        })
        .into_generator()
}

/// The root of a schema: `$schema` first where the dialect declares it.
fn root(dialect: SchemaDialect) -> Map<String, Value> {
    let mut root = Map::new();
    if dialect == SchemaDialect::Draft2020_12 {
        root.insert("$schema".into(), DRAFT_2020_12.into());
    }
    root
}

/// The input schema of a tool: one property per parameter, in parameter order.
pub(crate) fn input_schema(params: &[ParamSpec], dialect: SchemaDialect) -> Map<String, Value> {
    let mut generator = generator_for(Contract::Deserialize, dialect);
    let mut properties = Map::new();
    let mut required = Vec::new();
    for param in params.iter().filter(|p| p.kind.is_argument()) {
        properties.insert(param.name.to_owned(), param_schema(param, &mut generator));
        if param.required {
            required.push(Value::from(param.name));
        }
    }
    let mut schema = root(dialect);
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        schema.insert("required".into(), Value::Array(required));
    }
    schema.insert("additionalProperties".into(), false.into());
    attach_definitions(&mut schema, &mut generator);
    schema
}

/// The schema of one parameter, with its description and constraints.
pub(crate) fn param_schema(param: &ParamSpec, generator: &mut SchemaGenerator) -> Value {
    let mut value = (param.schema)(generator).to_value();
    normalize(&mut value);
    let Value::Object(object) = &mut value else {
        // `true` (any value): constraints still apply to what is sent.
        return value;
    };
    if let Some(description) = param.description {
        object.insert("description".into(), description.into());
    }
    let kind = object
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    if let Some(min) = param.minimum {
        object.insert("minimum".into(), min.to_json());
    }
    if let Some(max) = param.maximum {
        object.insert("maximum".into(), max.to_json());
    }
    let (min_key, max_key) = match kind.as_str() {
        "array" => ("minItems", "maxItems"),
        "object" => ("minProperties", "maxProperties"),
        _ => ("minLength", "maxLength"),
    };
    if let Some(min) = param.min_length {
        object.insert(min_key.into(), min.into());
    }
    if let Some(max) = param.max_length {
        object.insert(max_key.into(), max.into());
    }
    if let Some(pattern) = param.pattern {
        object.insert("pattern".into(), pattern.source().into());
    }
    if let Some(default) = param.default {
        object.insert("default".into(), default());
    }
    if let Some(header) = param.header {
        object.insert("x-mcp-header".into(), header.into());
    }
    value
}

/// The output schema of a tool, and whether its values are wrapped as `{"result": ...}`
/// (MCP requires an object).
pub(crate) fn output_schema(
    schema: fn(&mut SchemaGenerator) -> Option<Schema>,
    dialect: SchemaDialect,
) -> Option<(Map<String, Value>, bool)> {
    // Whether values are wrapped is the portable schema's call, so that a tool's
    // structured content has one shape whatever its dialect.
    let mut generator = generator_for(Contract::Serialize, SchemaDialect::Portable);
    let mut value = schema(&mut generator)?.to_value();
    let is_object = value.get("type").and_then(Value::as_str) == Some("object");
    let mut root_type = None;
    if dialect != SchemaDialect::Portable {
        generator = generator_for(Contract::Serialize, dialect);
        value = schema(&mut generator)?.to_value();
        // An object type named under `$defs` is a `$ref`; the root must be the object.
        root_type = referenced_definition(&value)
            .filter(|_| is_object)
            .map(str::to_owned);
        if let Some(definition) =
            (root_type.as_deref()).and_then(|name| generator.definitions().get(name))
        {
            value = definition.clone();
        }
    }
    normalize(&mut value);
    let mut object = root(dialect);
    match value {
        Value::Object(fields) if is_object => object.extend(fields),
        value => {
            object.insert("type".into(), "object".into());
            object.insert("properties".into(), json!({ "result": value }));
            object.insert("required".into(), json!(["result"]));
        }
    }
    attach_definitions(&mut object, &mut generator);
    if let Some(name) = root_type {
        drop_unreferenced(&mut object, &name);
    }
    Some((object, !is_object))
}

/// The name of the definition a schema that is only a `$ref` points at.
fn referenced_definition(schema: &Value) -> Option<&str> {
    let object = schema.as_object().filter(|object| object.len() == 1)?;
    object.get("$ref")?.as_str()?.strip_prefix("#/$defs/")
}

/// Removes the definition `name` from `$defs` when nothing refers to it any more.
fn drop_unreferenced(schema: &mut Map<String, Value>, name: &str) {
    let reference = format!("#/$defs/{name}");
    if schema.values().any(|value| refers_to(value, &reference)) {
        return;
    }
    let Some(Value::Object(definitions)) = schema.get_mut("$defs") else {
        return;
    };
    definitions.remove(name);
    if definitions.is_empty() {
        schema.remove("$defs");
    }
}

/// Whether a `$ref` anywhere in `value` is `reference`.
fn refers_to(value: &Value, reference: &str) -> bool {
    match value {
        Value::Object(object) => object.iter().any(|(key, child)| {
            (key == "$ref" && child.as_str() == Some(reference)) || refers_to(child, reference)
        }),
        Value::Array(items) => items.iter().any(|item| refers_to(item, reference)),
        _ => false,
    }
}

/// Recursive types keep their `$ref`s; their definitions go to the root.
fn attach_definitions(schema: &mut Map<String, Value>, generator: &mut SchemaGenerator) {
    let mut definitions = generator.take_definitions(true);
    if definitions.is_empty() {
        return;
    }
    normalize_definitions(&mut definitions);
    schema.insert("$defs".into(), Value::Object(definitions));
}

/// Removes what clients trip over, in the schema and every subschema: `$schema`, Rust
/// integer formats (replaced by the bounds they stand for), and `type` arrays. Which
/// keywords hold subschemas is schemars' to say ([`transform_subschemas`]), so that a
/// property named `default`, `enum` or `$schema` is a property like any other.
pub(crate) fn normalize(value: &mut Value) {
    if let Ok(schema) = <&mut Schema>::try_from(value) {
        Normalize.transform(schema);
    }
}

/// Each schema of a map of named schemas (`$defs`), normalized.
pub(crate) fn normalize_definitions(definitions: &mut Map<String, Value>) {
    definitions.values_mut().for_each(normalize);
}

/// [`normalize`] as schemars' transform.
struct Normalize;

impl Transform for Normalize {
    fn transform(&mut self, schema: &mut Schema) {
        if let Some(object) = schema.as_object_mut() {
            normalize_object(object);
        }
        transform_subschemas(self, schema);
    }
}

/// [`normalize`] on one schema object, not its subschemas.
fn normalize_object(object: &mut Map<String, Value>) {
    object.remove("$schema");
    let format = object.get("format").and_then(Value::as_str);
    if let Some(bounds) = format.and_then(integer_bounds) {
        object.remove("format");
        let (min, max) = bounds;
        if let Some(min) = min {
            object.entry("minimum").or_insert(min);
        }
        if let Some(max) = max {
            object.entry("maximum").or_insert(max);
        }
    } else if matches!(format, Some("float" | "double")) {
        object.remove("format");
    }
    // A property's `null` goes before its own union is split.
    unions::drop_null_from_optional(object);
    unions::split(object);
}

/// The bounds a Rust integer format implies; 64-bit signed bounds are left out as noise.
fn integer_bounds(format: &str) -> Option<(Option<Value>, Option<Value>)> {
    let bounds = match format {
        "int8" => (Some(i8::MIN.into()), Some(i8::MAX.into())),
        "int16" => (Some(i16::MIN.into()), Some(i16::MAX.into())),
        "int32" => (Some(i32::MIN.into()), Some(i32::MAX.into())),
        "uint8" => (Some(0.into()), Some(u8::MAX.into())),
        "uint16" => (Some(0.into()), Some(u16::MAX.into())),
        "uint32" => (Some(0.into()), Some(u32::MAX.into())),
        "uint64" | "uint" | "uint128" => (Some(0.into()), None),
        "int64" | "int" | "int128" => (None, None),
        _ => return None,
    };
    Some(bounds)
}

/// What a schema expects, in words, for an argument error: "an integer from 1 to 100".
pub(crate) fn describe(schema: &Value) -> String {
    let Value::Object(object) = schema else {
        return "a valid value".into();
    };
    if let Some(Value::Array(values)) = object.get("enum") {
        return one_of(values);
    }
    if let Some(value) = object.get("const") {
        return format!("`{}`", plain(value));
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(options)) = object.get(key) {
            return join_alternatives(options.iter().map(describe).collect());
        }
    }
    match object.get("type") {
        Some(Value::String(kind)) => describe_type(kind, object),
        Some(Value::Array(kinds)) => join_alternatives(
            kinds
                .iter()
                .filter_map(Value::as_str)
                .map(|kind| describe_type(kind, object))
                .collect(),
        ),
        _ => "a valid value".into(),
    }
}

fn describe_type(kind: &str, object: &Map<String, Value>) -> String {
    let number = |key: &str| object.get(key).map(plain);
    match kind {
        "integer" | "number" => {
            let noun = if kind == "integer" {
                "an integer"
            } else {
                "a number"
            };
            match (number("minimum"), number("maximum")) {
                (Some(min), Some(max)) => format!("{noun} from {min} to {max}"),
                (Some(min), None) => format!("{noun} of at least {min}"),
                (None, Some(max)) => format!("{noun} of at most {max}"),
                (None, None) => noun.into(),
            }
        }
        "string" => {
            let mut text = String::from("a string");
            text.push_str(&counted(
                number("minLength"),
                number("maxLength"),
                "character",
            ));
            if let Some(pattern) = object.get("pattern").and_then(Value::as_str) {
                text.push_str(&format!(" matching `{pattern}`"));
            }
            if let Some(format) = object.get("format").and_then(Value::as_str) {
                text.push_str(&format!(" in `{format}` format"));
            }
            text
        }
        "array" => format!(
            "an array{}",
            counted(number("minItems"), number("maxItems"), "item")
        ),
        "object" => "an object".into(),
        "boolean" => "`true` or `false`".into(),
        "null" => "`null`".into(),
        other => format!("a value of type {other}"),
    }
}

fn counted(min: Option<String>, max: Option<String>, unit: &str) -> String {
    match (min, max) {
        (Some(min), Some(max)) if min == max => format!(" of exactly {min} {unit}s"),
        (Some(min), Some(max)) => format!(" of {min} to {max} {unit}s"),
        (Some(min), None) => format!(" of at least {min} {unit}s"),
        (None, Some(max)) => format!(" of at most {max} {unit}s"),
        (None, None) => String::new(),
    }
}

fn one_of(values: &[Value]) -> String {
    let names: Vec<String> = values.iter().map(|v| format!("`{}`", plain(v))).collect();
    match names.as_slice() {
        [single] => single.clone(),
        _ => format!("one of {}", names.join(", ")),
    }
}

fn join_alternatives(mut options: Vec<String>) -> String {
    options.dedup();
    options.join(" or ")
}

/// A JSON value as it reads in a sentence: strings without quotes.
fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The sub-schema that a path (`filter.size`, `items[2]`) inside a parameter points at.
pub(crate) fn at_path<'a>(
    mut schema: &'a Value,
    root: &'a Map<String, Value>,
    path: &serde_path_to_error::Path,
) -> Option<&'a Value> {
    use serde_path_to_error::Segment;
    for segment in path.iter() {
        schema = resolve(schema, root)?;
        schema = match segment {
            Segment::Map { key } => {
                let object = branch_with(schema, root, &["properties", "additionalProperties"])?;
                object
                    .get("properties")
                    .and_then(|p| p.get(key))
                    .or_else(|| object.get("additionalProperties"))?
            }
            Segment::Seq { .. } => branch_with(schema, root, &["items"])?.get("items")?,
            Segment::Enum { .. } | Segment::Unknown => return None,
        };
    }
    resolve(schema, root)
}

/// The schema itself, or the branch of its `anyOf` (a split union) that has one of
/// `keywords`.
fn branch_with<'a>(
    schema: &'a Value,
    root: &'a Map<String, Value>,
    keywords: &[&str],
) -> Option<&'a Value> {
    let has = |schema: &Value| keywords.iter().any(|k| schema.get(k).is_some());
    if has(schema) {
        return Some(schema);
    }
    let branches = schema.get("anyOf")?.as_array()?;
    branches
        .iter()
        .filter_map(|branch| resolve(branch, root))
        .find(|branch| has(branch))
}

fn resolve<'a>(schema: &'a Value, root: &'a Map<String, Value>) -> Option<&'a Value> {
    match schema.get("$ref") {
        Some(reference) => referenced(reference, root.get("$defs")?.as_object()?),
        None => Some(schema),
    }
}

/// The definition that a `$ref` of the form `#/$defs/NAME` names, among `definitions`
/// (the schema's `$defs`): the one way schemas here are resolved.
pub(crate) fn referenced<'a>(
    reference: &Value,
    definitions: &'a Map<String, Value>,
) -> Option<&'a Value> {
    definitions.get(reference.as_str()?.strip_prefix("#/$defs/")?)
}
