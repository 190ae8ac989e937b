//! Lenient arguments: a value sent as another JSON type than its schema wants, converted
//! where nothing is lost (`"10"` for an integer, `"true"` for a boolean, `1.0` for an
//! integer, `"{\"a\":1}"` for an object), for the tools and parameters that opt in.
//!
//! The conversion reads the parameter's JSON schema, never its Rust type: what the schema
//! accepts as sent is left alone (a string parameter keeps `"10"`), a boolean never
//! becomes a number, and a value that would change on the way (`1.5` or `"1e400"` for an
//! integer) is not converted, so the argument check reports it as it does for any tool.
//! Readers call it only once a value has failed the check: a call whose arguments are
//! right, lenient or not, never comes here.

use serde_json::{Map, Number, Value};

use crate::call::future::CallInput;

/// Schemas nest references at most this deep before the conversion stops following them
/// (a recursive type refers to itself).
const MAX_DEPTH: usize = 64;

/// A float converts to an integer only below this magnitude, where every whole number is
/// a float exactly (2^53).
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// One conversion made: where in the argument, from which JSON type to which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conversion {
    /// The path inside the argument (`""` for the argument itself, else `.field` and
    /// `[index]` steps).
    pub(crate) path: String,
    pub(crate) from: &'static str,
    pub(crate) to: &'static str,
}

/// `value` with every part its schema does not accept as sent converted, or `None` when
/// nothing converts. `definitions` resolves `$ref`s (`#/$defs/Name`); each conversion is
/// added to `made`.
pub(crate) fn convert(
    value: &Value,
    schema: &Value,
    definitions: &Map<String, Value>,
    made: &mut Vec<Conversion>,
) -> Option<Value> {
    Converter { definitions, made }.value(value, schema, String::new(), 0)
}

/// Converts every argument of `args` against its property of the object schema `schema`
/// (a run-time tool's input schema), in place, and reports each conversion for the call
/// `input`.
pub(crate) fn convert_call(
    args: &mut Map<String, Value>,
    schema: &Map<String, Value>,
    input: &CallInput<'_>,
) {
    let converted = convert_arguments(args, schema);
    if converted.is_empty() {
        return;
    }
    let client = client_name(input);
    for (argument, conversion) in &converted {
        let made = std::slice::from_ref(conversion);
        report(input.tool, client.as_deref(), argument, made);
    }
}

/// The name the client of a call gave itself, when it came through a session.
pub(crate) fn client_name(input: &CallInput<'_>) -> Option<String> {
    (input.request)
        .and_then(|request| request.session().client_info())
        .map(|client| client.name)
}

/// Converts every argument of `args` against its property of the object schema `schema`,
/// in place; what was converted, by argument name.
fn convert_arguments(
    args: &mut Map<String, Value>,
    schema: &Map<String, Value>,
) -> Vec<(String, Conversion)> {
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Vec::new();
    };
    let empty = Map::new();
    let definitions = match schema.get("$defs") {
        Some(Value::Object(definitions)) => definitions,
        _ => &empty,
    };
    let mut converted = Vec::new();
    for (name, value) in args.iter_mut() {
        let Some(property) = properties.get(name) else {
            continue;
        };
        let mut made = Vec::new();
        if let Some(new) = convert(value, property, definitions, &mut made) {
            *value = new;
            converted.extend(made.into_iter().map(|made| (name.clone(), made)));
        }
    }
    converted
}

/// Tells the log (at debug, target `mcp_tool::lenient`) and the telemetry (the counter
/// `mcp_tool.argument.conversions`, target `mcp_tool::metrics`) of each conversion made in
/// `tool`'s argument `argument`, for the client named `client`. Never the value: it is the
/// client's, and may be secret.
pub(crate) fn report(tool: &str, client: Option<&str>, argument: &str, made: &[Conversion]) {
    let client = client.unwrap_or("unknown");
    for conversion in made {
        tracing::debug!(
            target: "mcp_tool::lenient",
            tool,
            client,
            argument = %format_args!("{argument}{}", conversion.path),
            from = conversion.from,
            to = conversion.to,
            "an argument sent as another JSON type was converted",
        );
        // The counter's points name the argument, not the path in it: indexes are unbounded.
        tracing::event!(
            target: "mcp_tool::metrics",
            tracing::Level::INFO,
            monotonic_counter.mcp_tool.argument.conversions = 1u64,
            gen_ai.tool.name = tool,
            mcp_tool.argument.name = argument,
            mcp_tool.conversion.from = conversion.from,
            mcp_tool.conversion.to = conversion.to,
            mcp_tool.client.name = client,
        );
    }
}

struct Converter<'a, 'm> {
    definitions: &'a Map<String, Value>,
    made: &'m mut Vec<Conversion>,
}

impl<'a> Converter<'a, '_> {
    fn value(
        &mut self,
        value: &Value,
        schema: &'a Value,
        path: String,
        depth: usize,
    ) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        let schema = self.resolve(schema)?;
        if let Some(Value::Array(branches)) = schema.get("anyOf").or_else(|| schema.get("oneOf")) {
            return self.branches(value, branches, path, depth);
        }
        let wanted = wanted_types(schema);
        if wanted.is_empty() || wanted.iter().any(|kind| accepts(kind, value)) {
            return self.inside(value, schema, path, depth);
        }
        let (to, converted) = wanted
            .iter()
            .find_map(|kind| scalar(value, kind).map(|converted| (*kind, converted)))?;
        let from = json_type(value);
        // A string of JSON may hold values that convert in turn.
        let converted = self
            .inside(&converted, schema, path.clone(), depth)
            .unwrap_or(converted);
        self.made.push(Conversion {
            path,
            from,
            to: static_type(to),
        });
        Some(converted)
    }

    /// `anyOf`/`oneOf`: left alone when a branch takes the value's type, else the first
    /// branch that converts it.
    fn branches(
        &mut self,
        value: &Value,
        branches: &'a [Value],
        path: String,
        depth: usize,
    ) -> Option<Value> {
        let resolved: Vec<&Map<String, Value>> =
            branches.iter().filter_map(|b| self.resolve(b)).collect();
        let taking = resolved.iter().find(|branch| {
            let wanted = wanted_types(branch);
            wanted.is_empty() || wanted.iter().any(|kind| accepts(kind, value))
        });
        if let Some(branch) = taking {
            return self.inside(value, branch, path, depth);
        }
        branches
            .iter()
            .find_map(|branch| self.value(value, branch, path.clone(), depth + 1))
    }

    /// The fields of an object and the items of an array, each against its schema.
    fn inside(
        &mut self,
        value: &Value,
        schema: &'a Map<String, Value>,
        path: String,
        depth: usize,
    ) -> Option<Value> {
        match value {
            Value::Object(fields) => {
                let properties = schema.get("properties").and_then(Value::as_object);
                let others = schema.get("additionalProperties").filter(|s| s.is_object());
                let mut changed: Option<Map<String, Value>> = None;
                for (key, field) in fields {
                    let Some(field_schema) = properties.and_then(|p| p.get(key)).or(others) else {
                        continue;
                    };
                    let field_path = format!("{path}.{key}");
                    if let Some(new) = self.value(field, field_schema, field_path, depth + 1) {
                        changed
                            .get_or_insert_with(|| fields.clone())
                            .insert(key.clone(), new);
                    }
                }
                changed.map(Value::Object)
            }
            Value::Array(items) => {
                let item_schema = schema.get("items").filter(|s| s.is_object())?;
                let mut changed: Option<Vec<Value>> = None;
                for (index, item) in items.iter().enumerate() {
                    let item_path = format!("{path}[{index}]");
                    if let Some(new) = self.value(item, item_schema, item_path, depth + 1) {
                        changed.get_or_insert_with(|| items.clone())[index] = new;
                    }
                }
                changed.map(Value::Array)
            }
            _ => None,
        }
    }

    /// The schema itself, or the definition its `$ref` names.
    fn resolve(&self, schema: &'a Value) -> Option<&'a Map<String, Value>> {
        let object = schema.as_object()?;
        match object.get("$ref").and_then(Value::as_str) {
            Some(reference) => {
                let name = reference.strip_prefix("#/$defs/")?;
                self.definitions.get(name)?.as_object()
            }
            None => Some(object),
        }
    }
}

/// The JSON types a schema names (`type`, a string or a list); empty when it names none.
fn wanted_types(schema: &Map<String, Value>) -> Vec<&str> {
    match schema.get("type") {
        Some(Value::String(kind)) => vec![kind.as_str()],
        Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Whether a value of the JSON type `kind` is `value` as sent: `1.0` is no integer here,
/// since serde does not read it as one (the conversion does, when the tool is lenient).
fn accepts(kind: &str, value: &Value) -> bool {
    match (kind, value) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("string", Value::String(_)) => true,
        ("number", Value::Number(_)) => true,
        ("integer", Value::Number(number)) => !number.is_f64(),
        ("object", Value::Object(_)) | ("array", Value::Array(_)) => true,
        _ => false,
    }
}

/// The JSON type of a value, as its schema would name it.
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn static_type(kind: &str) -> &'static str {
    ["integer", "number", "boolean", "object", "array"]
        .into_iter()
        .find(|known| *known == kind)
        .unwrap_or("value")
}

/// One row of the table: `value` as a value of the JSON type `kind`, when it converts
/// without loss.
fn scalar(value: &Value, kind: &str) -> Option<Value> {
    match (kind, value) {
        ("integer", Value::String(text)) => whole(&number_in(text)?).map(Value::Number),
        ("integer", Value::Number(number)) => whole(number).map(Value::Number),
        ("number", Value::String(text)) => number_in(text).map(Value::Number),
        ("boolean", Value::String(text)) => match text.as_str() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        ("object", Value::String(text)) => serde_json::from_str::<Value>(text)
            .ok()
            .filter(Value::is_object),
        ("array", Value::String(text)) => serde_json::from_str::<Value>(text)
            .ok()
            .filter(Value::is_array),
        // Never a boolean to a number, nor a number to a string or a boolean.
        _ => None,
    }
}

/// The number a string holds, written as JSON writes one and nothing around it; `None`
/// for what JSON cannot hold (`"1e400"`, `"NaN"`).
fn number_in(text: &str) -> Option<Number> {
    if text.is_empty() || text.trim() != text {
        return None;
    }
    serde_json::from_str::<Number>(text).ok()
}

/// `number` as an integer, when it is one exactly.
fn whole(number: &Number) -> Option<Number> {
    if !number.is_f64() {
        return Some(number.clone());
    }
    let float = number.as_f64()?;
    if float.fract() != 0.0 || float.abs() >= EXACT_INTEGERS {
        return None;
    }
    // Exact below 2^53, which fits an i64.
    Some(Number::from(float as i64))
}

#[cfg(test)]
mod tests;
