//! A tool's listing as a [`SchemaProfile`] shows it: the schemas reshaped for a client
//! that cannot read some of JSON Schema, from the schemas generated, which are what a
//! call is checked against and stay as they are.
//!
//! An output schema is checked by clients against what the tool returns, so a profile
//! that reshapes an input schema only inlines an output schema: `nullable` or a
//! `required` grown to every property would make a JSON Schema validator refuse results
//! the tool is right to return. Under every profile an output schema whose root is not
//! an object is left out, since clients of the TypeScript SDK 1.x refuse a whole
//! `tools/list` over one (the tool's structured results need no schema).

mod gemini;
mod inline;
mod openai_strict;

use serde_json::{Map, Value};

use crate::model::{SchemaProfile, ToolInfo};

/// Why a tool's schemas cannot be shown under a profile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ProfileError {
    /// A type refers to itself: only a `$ref` can show it.
    #[error(
        "its type `{0}` refers to itself, which only `$ref` can show: serve it under the \
         profile strict or openai-strict, or give the tool a type that is not recursive"
    )]
    Recursive(String),
    /// A `$ref` points at no definition of the schema.
    #[error("its schema refers to `{0}`, which it does not define")]
    Unresolved(String),
}

/// The listing of `info` as `profile` shows it.
pub(crate) fn shown(info: &ToolInfo, profile: SchemaProfile) -> Result<ToolInfo, ProfileError> {
    let mut shown = info.clone();
    match profile {
        SchemaProfile::Strict => {}
        SchemaProfile::Inline => {
            shown.input_schema = inline::inlined(&info.input_schema)?;
            shown.output_schema = (info.output_schema.as_ref().map(inline::inlined)).transpose()?;
        }
        SchemaProfile::Gemini => {
            shown.input_schema = gemini::reshaped(inline::inlined(&info.input_schema)?);
            shown.output_schema = (info.output_schema.as_ref().map(inline::inlined)).transpose()?;
        }
        SchemaProfile::OpenAiStrict => {
            shown.input_schema = openai_strict::reshaped(info.input_schema.clone());
        }
    }
    if (shown.output_schema.as_ref()).is_some_and(|schema| !is_object_root(schema)) {
        tracing::warn!(
            tool = %info.name,
            "the output schema's root is not an object: it is left out of the listing"
        );
        shown.output_schema = None;
    }
    Ok(shown)
}

/// Whether a schema's root says its value is an object, as MCP requires of a tool's
/// schemas.
pub(crate) fn is_object_root(schema: &Map<String, Value>) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// Keywords whose value is one subschema.
const ONE: [&str; 10] = [
    "additionalProperties",
    "items",
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
];
/// Keywords whose value is an array of subschemas.
const MANY: [&str; 4] = ["anyOf", "oneOf", "allOf", "prefixItems"];
/// Keywords whose value maps names to subschemas.
const NAMED: [&str; 4] = [
    "properties",
    "patternProperties",
    "dependentSchemas",
    "$defs",
];

/// Calls `visit` on every direct subschema of `schema`, by the keywords that hold one.
fn each_subschema(schema: &mut Map<String, Value>, visit: &mut dyn FnMut(&mut Value)) {
    for (key, value) in schema.iter_mut() {
        let key = key.as_str();
        if MANY.contains(&key) || (key == "items" && value.is_array()) {
            value
                .as_array_mut()
                .into_iter()
                .flatten()
                .for_each(&mut *visit);
        } else if NAMED.contains(&key) || key == "definitions" {
            (value.as_object_mut().into_iter()).for_each(|m| m.values_mut().for_each(&mut *visit));
        } else if ONE.contains(&key) {
            visit(value);
        }
    }
}

/// Adds `note` to a schema's `description`, after what it says.
fn describe(schema: &mut Map<String, Value>, note: &str) {
    let text = match schema.get("description").and_then(Value::as_str) {
        Some(text) if !text.is_empty() => {
            let stop = if text.ends_with(['.', '!', '?']) {
                ""
            } else {
                "."
            };
            format!("{text}{stop} {note}")
        }
        _ => note.to_owned(),
    };
    schema.insert("description".into(), text.into());
}

/// A JSON value as it reads in a description.
fn plain(value: &Value) -> String {
    match value {
        Value::String(text) => format!("\"{text}\""),
        other => other.to_string(),
    }
}

/// What a dropped keyword meant, in words, for the keywords a profile may drop; `None`
/// for annotations and for keywords whose meaning another keyword keeps.
fn meaning(key: &str, value: &Value) -> Option<String> {
    let v = plain(value);
    Some(match key {
        "exclusiveMinimum" => format!("Greater than {v}."),
        "exclusiveMaximum" => format!("Less than {v}."),
        "minimum" => format!("At least {v}."),
        "maximum" => format!("At most {v}."),
        "multipleOf" => format!("A multiple of {v}."),
        "minLength" => format!("At least {v} characters."),
        "maxLength" => format!("At most {v} characters."),
        "pattern" => format!("Matches the pattern {v}."),
        "format" => format!("In {} format.", value.as_str().unwrap_or("the given")),
        "minItems" => format!("At least {v} items."),
        "maxItems" => format!("At most {v} items."),
        "uniqueItems" if value == &Value::Bool(true) => "Items are unique.".to_owned(),
        "minProperties" => format!("At least {v} properties."),
        "maxProperties" => format!("At most {v} properties."),
        "minContains"
        | "maxContains"
        | "contains"
        | "propertyNames"
        | "patternProperties"
        | "dependentRequired"
        | "dependentSchemas"
        | "not"
        | "if"
        | "then"
        | "else"
        | "prefixItems"
        | "unevaluatedProperties"
        | "unevaluatedItems" => {
            format!("Also `{key}`: {v}.")
        }
        "default" => format!("Defaults to {v}."),
        "const" => format!("Must be {v}."),
        "enum" => match value.as_array() {
            Some(values) => format!(
                "One of {}.",
                values.iter().map(plain).collect::<Vec<_>>().join(", ")
            ),
            None => return None,
        },
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
