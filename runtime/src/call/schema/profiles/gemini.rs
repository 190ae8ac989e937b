//! The `gemini` profile: the subset of OpenAPI 3.0's schema that Gemini's function
//! declarations read. Each schema has at most one `type` (`null` said by `nullable`),
//! an `enum` lists strings, alternatives are `anyOf`, and only the keywords of that
//! subset are kept; a constraint that has no place there is said in the `description`.

use serde_json::{Map, Value};

use super::{describe, meaning};

/// The keywords a Gemini schema may carry.
const KEYWORDS: [&str; 22] = [
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

/// The formats each type may name.
fn format_allowed(kind: &str, format: &str) -> bool {
    matches!(
        (kind, format),
        ("string", "enum" | "date-time")
            | ("integer", "int32" | "int64")
            | ("number", "float" | "double")
    )
}

/// An inlined schema as Gemini reads it.
pub(super) fn reshaped(schema: Map<String, Value>) -> Map<String, Value> {
    match reshape(Value::Object(schema)) {
        Value::Object(schema) => schema,
        _ => unreachable!("an object stays an object"),
    }
}

fn reshape(value: Value) -> Value {
    let mut schema = match value {
        Value::Object(schema) => schema,
        // `true` accepts any value: a schema without a type says as much.
        _ => return Value::Object(Map::new()),
    };
    let mut notes = Vec::new();
    merge_all_of(&mut schema);
    if let Some(branches) = schema.remove("oneOf") {
        schema.insert("anyOf".into(), branches);
    }
    single_type(&mut schema);
    null_branches(&mut schema);
    if let Some(value) = schema.remove("const") {
        match value {
            Value::String(_) => {
                schema.insert("type".into(), "string".into());
                schema.insert("enum".into(), Value::Array(vec![value]));
            }
            Value::Null => {
                schema.insert("nullable".into(), true.into());
            }
            other => notes.extend(meaning("const", &other)),
        }
    }
    string_enum(&mut schema, &mut notes);
    if let Some(Value::String(format)) = schema.get("format") {
        let kind = schema.get("type").and_then(Value::as_str).unwrap_or("");
        if !format_allowed(kind, format) {
            let format = schema.remove("format").unwrap_or_default();
            notes.extend(meaning("format", &format));
        }
    }
    if let Some(values) = schema.remove("examples")
        && let Some(first) = values.as_array().and_then(|v| v.first())
    {
        schema.entry("example").or_insert(first.clone());
    }
    match schema.remove("additionalProperties") {
        // Gemini's objects have the properties listed, and no others.
        None | Some(Value::Bool(_)) => {}
        Some(values) => {
            let values = reshape(values);
            notes.push(format!(
                "An object of any property names, each value {}.",
                value_words(&values)
            ));
        }
    }
    if let Some(Value::Array(_)) = schema.get("items") {
        let items = schema.remove("items").unwrap_or_default();
        notes.push(format!("Also `items`: {items}."));
    }
    let dropped: Vec<String> = (schema.keys())
        .filter(|key| !KEYWORDS.contains(&key.as_str()))
        .cloned()
        .collect();
    for key in dropped {
        if let Some(value) = schema.remove(&key) {
            notes.extend(meaning(&key, &value));
        }
    }
    if let Some(Value::Object(properties)) = schema.remove("properties") {
        let properties = (properties.into_iter())
            .map(|(name, property)| (name, reshape(property)))
            .collect();
        schema.insert("properties".into(), Value::Object(properties));
    }
    if let Some(items) = schema.remove("items") {
        schema.insert("items".into(), reshape(items));
    }
    if let Some(Value::Array(branches)) = schema.remove("anyOf") {
        let branches = branches.into_iter().map(reshape).collect();
        schema.insert("anyOf".into(), Value::Array(branches));
    }
    for note in notes {
        describe(&mut schema, &note);
    }
    Value::Object(schema)
}

/// An `allOf` merged into the schema it is in: properties and `required` joined, any
/// other keyword kept where the schema has none of its own.
fn merge_all_of(schema: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = schema.remove("allOf") else {
        return;
    };
    for branch in branches {
        let Value::Object(branch) = branch else {
            continue;
        };
        for (key, value) in branch {
            match (key.as_str(), schema.get_mut(&key), value) {
                ("properties", Some(Value::Object(mine)), Value::Object(theirs)) => {
                    for (name, property) in theirs {
                        mine.entry(name).or_insert(property);
                    }
                }
                ("required", Some(Value::Array(mine)), Value::Array(theirs)) => {
                    for name in theirs {
                        if !mine.contains(&name) {
                            mine.push(name);
                        }
                    }
                }
                (_, Some(_), _) => {}
                (_, None, value) => {
                    schema.insert(key, value);
                }
            }
        }
    }
}

/// A `type` array as one type: `null` becomes `nullable`, and several types left become
/// `anyOf` branches of one type each.
fn single_type(schema: &mut Map<String, Value>) {
    if schema.get("type").and_then(Value::as_str) == Some("null") {
        schema.remove("type");
        schema.insert("nullable".into(), true.into());
        return;
    }
    let Some(Value::Array(types)) = schema.get("type") else {
        return;
    };
    let mut types: Vec<Value> = types.clone();
    if types.iter().any(|t| t == "null") {
        types.retain(|t| t != "null");
        schema.insert("nullable".into(), true.into());
    }
    match types.len() {
        0 => {
            schema.remove("type");
        }
        1 => {
            schema.insert("type".into(), types.remove(0));
        }
        _ => {
            schema.remove("type");
            let branches = types.into_iter().map(|t| {
                let mut branch = Map::new();
                branch.insert("type".into(), t);
                Value::Object(branch)
            });
            schema.insert("anyOf".into(), Value::Array(branches.collect()));
        }
    }
}

/// `anyOf` branches that accept only `null` become `nullable`; one branch left merges in.
fn null_branches(schema: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = schema.get_mut("anyOf") else {
        return;
    };
    let only_null = |branch: &Value| {
        branch.get("type").and_then(Value::as_str) == Some("null")
            || branch.get("const").is_some_and(Value::is_null)
    };
    if !branches.iter().any(only_null) {
        return;
    }
    branches.retain(|branch| !only_null(branch));
    let single = match branches.as_slice() {
        [Value::Object(branch)] => Some(branch.clone()),
        [] => Some(Map::new()),
        _ => None,
    };
    schema.insert("nullable".into(), true.into());
    if let Some(branch) = single {
        schema.remove("anyOf");
        for (key, value) in branch {
            schema.entry(key).or_insert(value);
        }
        // The branch may itself have said `null` another way.
        single_type(schema);
    }
}

/// An `enum` of strings stays, with `type: string`; `null` in it becomes `nullable`; an
/// `enum` of other values is said in the description.
fn string_enum(schema: &mut Map<String, Value>, notes: &mut Vec<String>) {
    let Some(Value::Array(values)) = schema.get_mut("enum") else {
        return;
    };
    if values.iter().any(Value::is_null) {
        values.retain(|value| !value.is_null());
        schema.insert("nullable".into(), true.into());
    }
    let Some(Value::Array(values)) = schema.get("enum") else {
        return;
    };
    if !values.is_empty() && values.iter().all(Value::is_string) {
        schema.insert("type".into(), "string".into());
    } else if let Some(values) = schema.remove("enum") {
        notes.extend(meaning("enum", &values));
    }
}

/// The values a schema accepts, in a few words.
fn value_words(schema: &Value) -> String {
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => "a string".into(),
        Some("integer") => "an integer".into(),
        Some("number") => "a number".into(),
        Some("boolean") => "true or false".into(),
        Some("array") => "an array".into(),
        Some("object") => "an object".into(),
        _ => "any value".into(),
    }
}
