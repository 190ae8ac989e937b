//! The rules each schema profile promises, written from what each provider publishes,
//! as checks on a tool as `tools/list` sends it (its JSON, `inputSchema` and
//! `outputSchema`). Every check returns what it found wrong, each with the JSON path of
//! the schema at fault; an empty list is a tool the client reads.
//!
//! - every profile (the MCP specification, and the TypeScript SDK 1.x, which refuses a
//!   whole list over one): both schemas' roots are of `type: "object"`.
//! - `strict`: every `$ref` points at a definition of the same schema.
//! - `inline` (clients that cannot follow a reference, GitHub Copilot CLI among them):
//!   no `$ref` and no `$defs` anywhere.
//! - `gemini` (Gemini API, function declarations: parameters are a subset of the OpenAPI
//!   3.0 schema object): only the keywords of that subset; one `type` a schema, never
//!   `null` (said with `nullable`); an `enum` lists strings, of a string schema; `format`
//!   is `enum` or `date-time` for a string, `int32`/`int64` for an integer,
//!   `float`/`double` for a number; alternatives only as `anyOf`; `required` names
//!   properties the object has. Its output schema only has to be inline.
//! - `openai-strict` (OpenAI, Structured Outputs in function calling with `strict`):
//!   the root an object, not an `anyOf`; every object has `additionalProperties: false`
//!   and lists every property in `required`; each schema says what it is (`type`,
//!   `anyOf`, `enum` or a `$ref`); a `$ref` stands alone and points at a definition; no
//!   keyword it lists as unsupported (`format` included, as the profile promises, and
//!   `oneOf`, `allOf`, `not`, conditionals, `default`, the length and count keywords of
//!   strings, objects and `contains`); at most 10 levels of nested objects, 5000
//!   properties and 1000 enum values in all.

use serde_json::{Map, Value};

/// The profiles, by the names the runtime gives them.
pub const PROFILES: [&str; 4] = ["strict", "inline", "gemini", "openai-strict"];

/// What is wrong with `tool` (a `tools/list` entry) under `profile`.
pub fn breaches(profile: &str, tool: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let input = tool.get("inputSchema");
    let output = tool.get("outputSchema");
    for (name, schema) in [("inputSchema", input), ("outputSchema", output)] {
        let Some(schema) = schema else { continue };
        if schema.get("type").and_then(Value::as_str) != Some("object") {
            found.push(format!("{name}: the root is not of type object"));
        }
        let defs = definitions(schema);
        each_schema(schema, name, 0, &mut |path, node, _| {
            if let Some(reference) = node.get("$ref").and_then(Value::as_str)
                && reference != "#"
                && (reference.strip_prefix("#/$defs/")).is_none_or(|n| !defs.contains_key(n))
            {
                found.push(format!(
                    "{path}: `$ref` {reference} points at no definition"
                ));
            }
        });
    }
    match profile {
        "strict" => {}
        "inline" => {
            for (name, schema) in [("inputSchema", input), ("outputSchema", output)] {
                found.extend(schema.map(|s| inline(s, name)).unwrap_or_default());
            }
        }
        "gemini" => {
            found.extend(input.map(gemini).unwrap_or_default());
            found.extend(
                output
                    .map(|s| inline(s, "outputSchema"))
                    .unwrap_or_default(),
            );
        }
        "openai-strict" => found.extend(input.map(openai_strict).unwrap_or_default()),
        other => found.push(format!("no profile is named {other}")),
    }
    found
}

/// Whether the profile may refuse a tool whose type refers to itself.
pub fn refuses_recursion(profile: &str) -> bool {
    matches!(profile, "inline" | "gemini")
}

/// The `inline` rules.
pub fn inline(schema: &Value, name: &str) -> Vec<String> {
    let mut found = Vec::new();
    each_schema(schema, name, 0, &mut |path, node, _| {
        for key in ["$ref", "$defs", "definitions"] {
            if node.contains_key(key) {
                found.push(format!("{path}: has `{key}`"));
            }
        }
    });
    found
}

const GEMINI_KEYWORDS: [&str; 22] = [
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];
const GEMINI_TYPES: [&str; 6] = ["string", "number", "integer", "boolean", "array", "object"];

/// The `gemini` rules, on an input schema.
pub fn gemini(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    each_schema(schema, "inputSchema", 0, &mut |path, node, _| {
        for key in node.keys() {
            if !GEMINI_KEYWORDS.contains(&key.as_str()) {
                found.push(format!(
                    "{path}: `{key}` is not a keyword of Gemini's schema"
                ));
            }
        }
        let kind = node.get("type");
        match kind {
            None => {}
            Some(Value::String(kind)) if GEMINI_TYPES.contains(&kind.as_str()) => {}
            Some(other) => found.push(format!("{path}: `type` {other} is not one of Gemini's")),
        }
        let kind = kind.and_then(Value::as_str).unwrap_or("");
        if let Some(nullable) = node.get("nullable")
            && !nullable.is_boolean()
        {
            found.push(format!("{path}: `nullable` is not a boolean"));
        }
        if let Some(values) = node.get("enum") {
            let strings = values
                .as_array()
                .is_some_and(|v| v.iter().all(Value::is_string));
            if !strings || kind != "string" {
                found.push(format!(
                    "{path}: an `enum` lists strings, of a string schema"
                ));
            }
        }
        if let Some(format) = node.get("format").and_then(Value::as_str) {
            let allowed = matches!(
                (kind, format),
                ("string", "enum" | "date-time")
                    | ("integer", "int32" | "int64")
                    | ("number", "float" | "double")
            );
            if !allowed {
                found.push(format!(
                    "{path}: format {format} of a {kind} is not Gemini's"
                ));
            }
        }
        if let Some(branches) = node.get("anyOf")
            && branches.as_array().is_none_or(Vec::is_empty)
        {
            found.push(format!("{path}: `anyOf` is not a list of schemas"));
        }
        if node.get("items").is_some_and(|items| !items.is_object()) {
            found.push(format!("{path}: `items` is not one schema"));
        }
        let properties = node.get("properties").and_then(Value::as_object);
        for name in node
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let listed = name
                .as_str()
                .is_some_and(|n| properties.is_some_and(|p| p.contains_key(n)));
            if !listed {
                found.push(format!(
                    "{path}: `required` names {name}, which is no property"
                ));
            }
        }
    });
    found
}

const OPENAI_UNSUPPORTED: [&str; 22] = [
    "format",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "default",
];
const OPENAI_TYPES: [&str; 7] = [
    "string", "number", "integer", "boolean", "array", "object", "null",
];

/// The `openai-strict` rules, on an input schema.
pub fn openai_strict(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    if schema.get("anyOf").is_some() {
        found.push("inputSchema: the root is an `anyOf`".to_owned());
    }
    let (mut properties, mut enum_values) = (0, 0);
    each_schema(schema, "inputSchema", 0, &mut |path, node, depth| {
        if depth > 10 {
            found.push(format!("{path}: objects nested deeper than 10 levels"));
        }
        for key in OPENAI_UNSUPPORTED {
            if node.contains_key(key) {
                found.push(format!("{path}: `{key}` is not supported in strict mode"));
            }
        }
        if node.contains_key("$ref") && node.len() > 1 {
            found.push(format!("{path}: a `$ref` has keywords beside it"));
        }
        let says_what = ["type", "anyOf", "enum", "const", "$ref"]
            .iter()
            .any(|k| node.contains_key(*k));
        if !says_what {
            found.push(format!(
                "{path}: says neither `type`, `anyOf`, `enum` nor `$ref`"
            ));
        }
        let types: Vec<&str> = match node.get("type") {
            Some(Value::String(kind)) => vec![kind.as_str()],
            Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if let Some(bad) = types.iter().find(|t| !OPENAI_TYPES.contains(t)) {
            found.push(format!("{path}: `type` {bad} is not one strict mode knows"));
        }
        enum_values += node
            .get("enum")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if types.contains(&"object") || node.contains_key("properties") {
            if node.get("additionalProperties") != Some(&Value::Bool(false)) {
                found.push(format!(
                    "{path}: an object without `additionalProperties: false`"
                ));
            }
            let names: Vec<&String> = (node.get("properties").and_then(Value::as_object))
                .map(|p| p.keys().collect())
                .unwrap_or_default();
            properties += names.len();
            let required: Vec<&str> = (node.get("required").and_then(Value::as_array))
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            for name in &names {
                if !required.contains(&name.as_str()) {
                    found.push(format!("{path}: property {name} is not in `required`"));
                }
            }
        }
    });
    if properties > 5000 {
        found.push(format!(
            "inputSchema: {properties} properties, more than 5000"
        ));
    }
    if enum_values > 1000 {
        found.push(format!(
            "inputSchema: {enum_values} enum values, more than 1000"
        ));
    }
    found
}

/// The definitions of a schema, by name.
fn definitions(schema: &Value) -> Map<String, Value> {
    schema
        .get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

/// What [`each_schema`] calls on each schema: its path, its keywords, its depth.
pub type Visit<'a> = dyn FnMut(&str, &Map<String, Value>, usize) + 'a;

/// Calls `visit` on `schema` and every schema within it, with its path and how many
/// objects it is nested in. A `true` or `{}` schema is an empty object to `visit`.
pub fn each_schema(schema: &Value, path: &str, depth: usize, visit: &mut Visit<'_>) {
    let empty = Map::new();
    let node = match schema {
        Value::Object(node) => node,
        _ => &empty,
    };
    visit(path, node, depth);
    let inner = depth + usize::from(node.contains_key("properties"));
    for (key, value) in node {
        let here = format!("{path}.{key}");
        match key.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                for (name, child) in value.as_object().into_iter().flatten() {
                    each_schema(child, &format!("{here}.{name}"), inner, visit);
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                for (i, child) in value.as_array().into_iter().flatten().enumerate() {
                    each_schema(child, &format!("{here}[{i}]"), inner, visit);
                }
            }
            "items" if value.is_array() => {
                for (i, child) in value.as_array().into_iter().flatten().enumerate() {
                    each_schema(child, &format!("{here}[{i}]"), inner, visit);
                }
            }
            "items"
            | "additionalProperties"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames"
            | "unevaluatedProperties"
            | "unevaluatedItems"
                if value.is_object() =>
            {
                each_schema(value, &here, inner, visit);
            }
            _ => {}
        }
    }
}
