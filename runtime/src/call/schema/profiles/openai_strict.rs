//! The `openai-strict` profile: what OpenAI's strict function calling (its Structured
//! Outputs) accepts. Every object lists all its properties in `required` and has
//! `additionalProperties: false`; a property that may be left out may be `null`
//! instead; alternatives are `anyOf`; a `$ref` stands alone; no `format`, and none of
//! the keywords strict mode does not support. What a dropped keyword meant is said in
//! the `description`.
//!
//! A property left out becomes one sent as `null`: the argument check reads a `null`
//! parameter as one not sent. Inside a parameter, a property with a default is kept
//! required rather than made `null`able, since serde gives the default to a missing
//! field but refuses a `null` one.

use serde_json::{Map, Value};

use super::{describe, each_subschema, meaning};

/// The keywords strict mode does not take, which are dropped and said in the
/// description instead.
const UNSUPPORTED: [&str; 21] = [
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
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "default",
];

/// An input schema as strict mode takes it.
pub(super) fn reshaped(mut schema: Map<String, Value>) -> Map<String, Value> {
    reshape(&mut schema, true);
    schema
}

/// One schema and, through [`each_subschema`], every schema in it. `top` is the input
/// schema's root, whose properties are the tool's parameters.
fn reshape(schema: &mut Map<String, Value>, top: bool) {
    if let Some(branches) = schema.remove("oneOf") {
        schema.insert("anyOf".into(), branches);
    }
    if let Some(value) = schema.remove("const") {
        schema.insert("enum".into(), Value::Array(vec![value]));
    }
    schema.remove("$schema");
    schema.remove("examples");
    schema.retain(|key, _| !key.starts_with("x-"));
    any_value(schema);
    let mut notes = Vec::new();
    for key in UNSUPPORTED {
        if let Some(value) = schema.remove(key) {
            notes.extend(meaning(key, &value));
        }
    }
    if is_object(schema) {
        close(schema, top, &mut notes);
    }
    for note in notes {
        describe(schema, &note);
    }
    lone_ref(schema);
    each_subschema(schema, &mut |child| {
        if *child == Value::Bool(true) {
            *child = Value::Object(Map::new());
        }
        if let Value::Object(child) = child {
            reshape(child, false);
        }
    });
}

/// Whether the schema is of an object, `null` aside.
fn is_object(schema: &Map<String, Value>) -> bool {
    let object = match schema.get("type") {
        Some(Value::String(kind)) => kind == "object",
        Some(Value::Array(kinds)) => kinds.iter().any(|k| k == "object"),
        _ => false,
    };
    object || schema.contains_key("properties")
}

/// A schema that accepts any value, which strict mode cannot show: shown as the plain
/// values, a subset of what is accepted.
fn any_value(schema: &mut Map<String, Value>) {
    const SAYS: [&str; 5] = ["type", "anyOf", "enum", "$ref", "const"];
    if SAYS.iter().any(|key| schema.contains_key(*key)) {
        return;
    }
    let plain = ["string", "number", "boolean", "null"].map(Value::from);
    schema.insert("type".into(), Value::Array(plain.to_vec()));
    describe(
        schema,
        "Any JSON value; strict mode can show only a string, a number, a boolean or null.",
    );
}

/// An object with every property required, `null` allowed for those that were not, and
/// no property but those listed.
fn close(schema: &mut Map<String, Value>, top: bool, notes: &mut Vec<String>) {
    if let Some(values) = schema.remove("additionalProperties")
        && values != Value::Bool(false)
    {
        notes.push(
            "An object of any property names, which strict mode cannot list: send {}.".to_owned(),
        );
    }
    schema.insert("additionalProperties".into(), false.into());
    let required: Vec<Value> = match schema.get("required") {
        Some(Value::Array(names)) => names.clone(),
        _ => Vec::new(),
    };
    let properties = schema
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(properties) = properties else {
        return;
    };
    for (name, property) in properties.iter_mut() {
        let named = Value::String(name.clone());
        if required.contains(&named) {
            continue;
        }
        let defaulted = property.get("default").is_some_and(|d| !d.is_null());
        if top || !defaulted {
            nullable(property);
        }
    }
    let all = properties.keys().cloned().map(Value::String).collect();
    schema.insert("required".into(), Value::Array(all));
}

/// The schema, with `null` also accepted.
fn nullable(property: &mut Value) {
    let Value::Object(schema) = property else {
        return;
    };
    let accepts_null = |schema: &Map<String, Value>| match schema.get("type") {
        Some(Value::String(kind)) => kind == "null",
        Some(Value::Array(kinds)) => kinds.iter().any(|k| k == "null"),
        _ => false,
    };
    // A schema of any value accepts `null` already (see `any_value`).
    let says_nothing = ["type", "anyOf", "enum", "$ref"]
        .iter()
        .all(|k| !schema.contains_key(*k));
    if accepts_null(schema) || says_nothing {
        return;
    }
    if let Some(Value::String(kind)) = schema.get("type").cloned()
        && !schema.contains_key("anyOf")
    {
        schema.insert(
            "type".into(),
            Value::Array(vec![kind.into(), "null".into()]),
        );
        if let Some(Value::Array(values)) = schema.get_mut("enum")
            && !values.contains(&Value::Null)
        {
            values.push(Value::Null);
        }
        return;
    }
    let null = Value::Object(Map::from_iter([("type".to_owned(), "null".into())]));
    if let Some(Value::Array(branches)) = schema.get_mut("anyOf") {
        if !branches
            .iter()
            .any(|b| b.as_object().is_some_and(accepts_null))
        {
            branches.push(null);
        }
        return;
    }
    // A `$ref`, or a schema without a type: the alternatives are it and `null`.
    let description = schema.remove("description");
    let inner = std::mem::take(schema);
    schema.insert(
        "anyOf".into(),
        Value::Array(vec![Value::Object(inner), null]),
    );
    if let Some(description) = description {
        schema.insert("description".into(), description);
    }
}

/// A `$ref` with keywords beside it, as one `anyOf` branch with the keywords around it:
/// strict mode takes a `$ref` only alone.
fn lone_ref(schema: &mut Map<String, Value>) {
    if schema.len() < 2 {
        return;
    }
    let Some(reference) = schema.remove("$ref") else {
        return;
    };
    let branch = Map::from_iter([("$ref".to_owned(), reference)]);
    schema.insert("anyOf".into(), Value::Array(vec![Value::Object(branch)]));
}
