//! An elicitation form: the schema a type asks with, flattened to what elicitation
//! allows (an object of strings, numbers, integers, booleans and string choices), and
//! the user's answer decoded back into the type.
//!
//! schemars describes a type in full JSON Schema; elicitation takes a small subset, one
//! shape per property (MCP 2025-11-25, SEP-1034 defaults, SEP-1330 choices). Every
//! property is rebuilt from the keywords its shape allows, in a fixed order; a field
//! that fits no shape is named in the error.

use schemars::JsonSchema;
use schemars::generate::Contract;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::call::schema;
use crate::call::serde_message::{self, NamedField};
use crate::model::ElicitationRequest;
use crate::outcome::error::ToolError;

/// The string formats elicitation allows.
const FORMATS: [&str; 4] = ["email", "uri", "date", "date-time"];

/// What every field of a form may be, for error messages.
const SHAPES: &str = "a form's fields are strings, numbers, integers, booleans, enums of \
                      unit variants, or lists of such enums";

impl ElicitationRequest {
    /// The form for `T`: its schema, flattened to what elicitation allows.
    ///
    /// `T` is a struct with named fields, each a string, a number, an integer, a bool,
    /// an enum of unit variants (a choice; variants with a `#[schemars(title = "...")]`
    /// are offered by their titles), a `Vec` or a set of such an enum (a multiple
    /// choice), or an `Option` of one of these (not required). Field doc comments become
    /// descriptions; `#[serde(default)]` values become `default`s; `#[schemars(title =
    /// "...")]` on a field becomes its title; `#[schemars(extend("enumNames" = [...]))]`
    /// is kept, for clients that read only that form of titled choice. Integer widths
    /// become `minimum`/`maximum`; string formats other than `email`, `uri`, `date` and
    /// `date-time`, patterns and `uniqueItems` are left out, as elicitation has no room
    /// for them (the answer is still decoded as `T`).
    ///
    /// A field of another shape (a nested struct, a map, a list of strings, an enum with
    /// data) is an error that names the field.
    ///
    /// ```
    /// use mcp_tool::model::ElicitationRequest;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Address { city: String }
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Customer { name: String, address: Address }
    ///
    /// let error = ElicitationRequest::for_type::<Customer>("Who are you?").unwrap_err();
    /// assert!(error.message().contains("`address`"), "{error}");
    /// ```
    pub fn for_type<T: JsonSchema>(message: impl Into<String>) -> Result<Self, ToolError> {
        let requested_schema = schema_of::<T>().map_err(ToolError::new)?;
        Ok(Self::with_schema(message, requested_schema))
    }
}

/// The requested schema for `T`, or why `T` cannot be a form.
fn schema_of<T: JsonSchema>() -> Result<Map<String, Value>, String> {
    let mut generator = schema::generator(Contract::Deserialize);
    let mut root = generator.root_schema_for::<T>().to_value();
    schema::normalize(&mut root);
    let name = T::schema_name();
    let cannot = |why: String| format!("`{name}` cannot be asked for by elicitation: {why}");
    let Value::Object(mut root) = root else {
        return Err(cannot("it is not a struct with named fields".into()));
    };
    let definitions = match root.remove("$defs") {
        Some(Value::Object(definitions)) => definitions,
        _ => Map::new(),
    };
    let Some(Value::Object(properties)) = root.remove("properties") else {
        return Err(cannot("it is not a struct with named fields".into()));
    };
    if ["allOf", "anyOf", "oneOf"]
        .iter()
        .any(|key| root.contains_key(*key))
    {
        return Err(cannot(
            "it is not a plain struct (it has alternatives, as an enum flattened into it)".into(),
        ));
    }
    if root
        .get("additionalProperties")
        .is_some_and(Value::is_object)
    {
        return Err(cannot(
            "it has a map of extra fields (`#[serde(flatten)]` of a map)".into(),
        ));
    }
    let mut faults = Vec::new();
    let mut flat = Map::new();
    for (field, property) in properties {
        match property_schema(resolve(property, &definitions)) {
            Ok(property) => {
                flat.insert(field, Value::Object(property));
            }
            Err(why) => faults.push(format!("field `{field}` {why}")),
        }
    }
    if !faults.is_empty() {
        return Err(cannot(format!("{}; {SHAPES}", faults.join("; "))));
    }
    let mut form = Map::new();
    form.insert("type".into(), "object".into());
    form.insert("properties".into(), Value::Object(flat));
    if let Some(Value::Array(required)) = root.remove("required")
        && !required.is_empty()
    {
        form.insert("required".into(), Value::Array(required));
    }
    Ok(form)
}

/// The user's answer as `T`, or what in it does not fit the form ("`age`: expected an
/// integer"), naming the field and what was expected, never the value (it may be a
/// secret).
pub(crate) fn decode<T: DeserializeOwned>(
    answer: Value,
    form: &Map<String, Value>,
) -> Result<T, String> {
    let answer = if answer.is_null() {
        Value::Object(Map::new())
    } else {
        answer
    };
    serde_path_to_error::deserialize(&answer).map_err(|error| {
        let path = error.path().to_string();
        let message = error.inner().to_string();
        match serde_message::named_field(&message) {
            Some(NamedField::Missing(field)) => return format!("`{field}` is missing"),
            Some(NamedField::Unknown(field)) => {
                return format!("`{field}` is not a field of the form");
            }
            None => {}
        }
        if error.path().iter().next().is_none() {
            return "it is not an object".to_owned();
        }
        let expected = error
            .path()
            .iter()
            .next()
            .and_then(|segment| match segment {
                serde_path_to_error::Segment::Map { key } => {
                    form.get("properties")?.get(key.as_str())
                }
                _ => None,
            })
            .map(schema::describe)
            .filter(|described| described != "a valid value")
            .or_else(|| serde_message::expected(&message).map(str::to_owned))
            .unwrap_or_else(|| "a valid value".to_owned());
        format!("`{path}`: expected {expected}")
    })
}

/// A property's schema with a `$ref` replaced by its definition (a recursive type's).
fn resolve(property: Value, definitions: &Map<String, Value>) -> Value {
    let Value::Object(mut object) = property else {
        return property;
    };
    let target =
        (object.get("$ref")).and_then(|reference| schema::referenced(reference, definitions));
    if let Some(Value::Object(definition)) = target {
        object.remove("$ref");
        for (key, value) in definition {
            object.entry(key.clone()).or_insert_with(|| value.clone());
        }
    }
    Value::Object(object)
}

/// One property, rebuilt in the shape elicitation allows for it.
fn property_schema(property: Value) -> Result<Map<String, Value>, String> {
    let Value::Object(mut property) = property else {
        return Err("accepts any JSON value".into());
    };
    strip_null(&mut property)?;
    let mut flat = Map::new();
    let kind = property.get("type").and_then(Value::as_str).unwrap_or("");
    match (kind, choices(&property)?) {
        ("array", _) => return list_schema(&property),
        ("string" | "", Some(offered)) => {
            flat.insert("type".into(), "string".into());
            copy(&property, &mut flat, &["title", "description"]);
            if property.contains_key("enumNames") || !offered.titled() {
                flat.insert("enum".into(), offered.values());
                copy(&property, &mut flat, &["enumNames"]);
            } else {
                flat.insert("oneOf".into(), offered.titled_list());
            }
            copy_default(&property, &mut flat, Value::is_string)?;
        }
        ("string", None) => {
            flat.insert("type".into(), "string".into());
            copy(
                &property,
                &mut flat,
                &["title", "description", "minLength", "maxLength"],
            );
            let format = property.get("format").and_then(Value::as_str);
            if let Some(format) = format.filter(|format| FORMATS.contains(format)) {
                flat.insert("format".into(), format.into());
            }
            copy_default(&property, &mut flat, Value::is_string)?;
        }
        ("integer" | "number", None) => number_schema(&property, kind == "integer", &mut flat)?,
        ("boolean", None) => {
            flat.insert("type".into(), "boolean".into());
            copy(&property, &mut flat, &["title", "description"]);
            copy_default(&property, &mut flat, Value::is_boolean)?;
        }
        ("object", _) => return Err("is an object (a struct or a map)".into()),
        ("", None) if has_alternatives(&property) => {
            return Err("has several shapes (an enum with data, or an untagged enum)".into());
        }
        ("", None) => return Err("accepts any JSON value".into()),
        (other, _) => return Err(format!("is of type `{other}`")),
    }
    Ok(flat)
}

/// A list of choices: `type: array` whose items are a `string` enum or titled choices.
fn list_schema(property: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let items = property.get("items").cloned().unwrap_or(Value::Bool(true));
    let Value::Object(mut items) = items else {
        return Err("is a list of any JSON values".into());
    };
    strip_null(&mut items)?;
    let Some(offered) = choices(&items)? else {
        return Err(format!(
            "is a list whose items are not choices (each is {})",
            schema::describe(&Value::Object(items))
        ));
    };
    let mut flat = Map::new();
    flat.insert("type".into(), "array".into());
    copy(
        property,
        &mut flat,
        &["title", "description", "minItems", "maxItems"],
    );
    let items = if offered.titled() {
        Map::from_iter([("anyOf".to_owned(), offered.titled_list())])
    } else {
        Map::from_iter([
            ("type".to_owned(), "string".into()),
            ("enum".to_owned(), offered.values()),
        ])
    };
    flat.insert("items".into(), Value::Object(items));
    copy_default(property, &mut flat, |d| {
        d.as_array()
            .is_some_and(|items| items.iter().all(Value::is_string))
    })?;
    Ok(flat)
}

/// An integer or a number, with its bounds and default.
fn number_schema(
    property: &Map<String, Value>,
    integral: bool,
    flat: &mut Map<String, Value>,
) -> Result<(), String> {
    let kind = if integral { "integer" } else { "number" };
    flat.insert("type".into(), kind.into());
    copy(
        property,
        flat,
        &["title", "description", "minimum", "maximum"],
    );
    copy_default(property, flat, |d| {
        if integral {
            d.is_i64() || d.is_u64()
        } else {
            d.is_number()
        }
    })?;
    if !integral {
        // A number's bounds and default travel as floats (`0.0`), as clients read them.
        for key in ["minimum", "maximum", "default"] {
            if let Some(value) = flat.get_mut(key) {
                *value = value.as_f64().map_or(Value::Null, Value::from);
            }
        }
    }
    Ok(())
}

/// Makes an `Option`'s schema the schema of what it holds: `null` leaves the type, the
/// choices and the alternatives, and a `null` default goes.
fn strip_null(property: &mut Map<String, Value>) -> Result<(), String> {
    if let Some(Value::Array(kinds)) = property.get("type") {
        let kinds: Vec<&Value> = kinds
            .iter()
            .filter(|k| k.as_str() != Some("null"))
            .collect();
        match kinds.as_slice() {
            [kind] => {
                let kind = (*kind).clone();
                property.insert("type".into(), kind);
            }
            _ => return Err("has several types".into()),
        }
    }
    if let Some(Value::Array(values)) = property.get_mut("enum") {
        values.retain(|value| !value.is_null());
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(alternatives)) = property.get_mut(key) else {
            continue;
        };
        alternatives.retain(|alternative| !accepts_only_null(alternative));
        if let [Value::Object(only)] = alternatives.as_slice() {
            let only = only.clone();
            property.remove(key);
            for (inner_key, value) in only {
                property.entry(inner_key).or_insert(value);
            }
        }
    }
    if property.get("default").is_some_and(Value::is_null) {
        property.remove("default");
    }
    Ok(())
}

/// A branch that accepts `null` alone, whether as its type or as its constant.
fn accepts_only_null(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("null")
        || schema.get("const").is_some_and(Value::is_null)
}

fn has_alternatives(property: &Map<String, Value>) -> bool {
    ["anyOf", "oneOf", "allOf"]
        .iter()
        .any(|key| property.contains_key(*key))
}

/// The values of a choice, each with its title if it has one.
struct Choices(Vec<(String, Option<String>)>);

impl Choices {
    fn titled(&self) -> bool {
        self.0.iter().any(|(_, title)| title.is_some())
    }

    fn values(&self) -> Value {
        self.0
            .iter()
            .map(|(value, _)| Value::from(value.as_str()))
            .collect()
    }

    /// `[{"const": ..., "title": ...}]`; a value without a title is its own title.
    fn titled_list(&self) -> Value {
        self.0
            .iter()
            .map(|(value, title)| {
                serde_json::json!({ "const": value, "title": title.as_deref().unwrap_or(value) })
            })
            .collect()
    }
}

/// The choices a schema offers: an `enum`, a `const`, or a `oneOf`/`anyOf` of those
/// (schemars writes one when variants have titles or docs); `None` if it offers none.
fn choices(schema: &Map<String, Value>) -> Result<Option<Choices>, String> {
    let title = schema
        .get("title")
        .and_then(Value::as_str)
        .map(str::to_owned);
    if let Some(Value::Array(values)) = schema.get("enum") {
        return string_values(values).map(|values| {
            Some(Choices(
                values.into_iter().map(|value| (value, None)).collect(),
            ))
        });
    }
    if let Some(value) = schema.get("const") {
        let [value] = string_values(std::slice::from_ref(value))?
            .try_into()
            .map_err(|_| "offers no choice".to_owned())?;
        return Ok(Some(Choices(vec![(value, title)])));
    }
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(alternatives)) = schema.get(key) else {
            continue;
        };
        let mut all = Vec::new();
        for alternative in alternatives {
            let Some(Some(Choices(found))) = alternative.as_object().map(choices).transpose()?
            else {
                return Ok(None);
            };
            all.extend(found);
        }
        return Ok(Some(Choices(all)));
    }
    Ok(None)
}

fn string_values(values: &[Value]) -> Result<Vec<String>, String> {
    values
        .iter()
        .map(|value| value.as_str().map(str::to_owned))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| "is a choice of values that are not all strings".to_owned())
}

fn copy(from: &Map<String, Value>, to: &mut Map<String, Value>, keys: &[&str]) {
    for key in keys {
        if let Some(value) = from.get(*key) {
            to.insert((*key).to_owned(), value.clone());
        }
    }
}

fn copy_default(
    from: &Map<String, Value>,
    to: &mut Map<String, Value>,
    fits: impl Fn(&Value) -> bool,
) -> Result<(), String> {
    let Some(default) = from.get("default") else {
        return Ok(());
    };
    if !fits(default) {
        return Err("has a default of another type than the field's".into());
    }
    to.insert("default".into(), default.clone());
    Ok(())
}
