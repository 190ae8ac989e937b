//! Type unions such as `"type": ["integer", "null"]`, which clients that map tool schemas
//! onto a single-`type` dialect (the OpenAPI subset of Gemini's function declarations,
//! among others) reject or misread.
//!
//! schemars writes an `Option<T>` as `T`'s schema with `"null"` added to its `type`. An
//! optional property (one that `required` does not list) is left out rather than sent
//! as `null`: serde accepts an `Option` field that is absent, and a serialized one leaves
//! `required` only through `skip_serializing_if`, in practice `Option::is_none`. There
//! the `null` goes, and `required` alone says the property may be missing. Any union
//! left, such as a required `Option` field that is serialized as `null`, becomes `anyOf`
//! branches of one `type` each, every type's own keywords moved into its branch.

use serde_json::{Map, Value};

/// Annotations that may sit beside the single branch an optional property's `anyOf`
/// is left with: the property's own win.
const ANNOTATIONS: [&str; 4] = ["description", "title", "default", "examples"];

/// Drops `null` from the union of each property of `schema` that `required` does not
/// list.
pub(super) fn drop_null_from_optional(schema: &mut Map<String, Value>) {
    let required: Vec<String> = match schema.get("required") {
        Some(Value::Array(names)) => names
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    let Some(Value::Object(properties)) = schema.get_mut("properties") else {
        return;
    };
    for (name, property) in properties.iter_mut() {
        if let Value::Object(property) = property
            && !required.contains(name)
        {
            drop_null(property);
        }
    }
}

/// `T` for `T or null`, written as a `type` array or as an `anyOf`/`oneOf` branch.
fn drop_null(schema: &mut Map<String, Value>) {
    let mut dropped = false;
    if let Some(Value::Array(types)) = schema.get_mut("type")
        && types.len() > 1
        && types.iter().any(|t| t == "null")
    {
        types.retain(|t| t != "null");
        if let [single] = types.as_mut_slice() {
            let single = single.take();
            schema.insert("type".into(), single);
        }
        dropped = true;
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = schema.get_mut(key) else {
            continue;
        };
        if branches.len() < 2 || !branches.iter().any(is_bare_null) {
            continue;
        }
        branches.retain(|branch| !is_bare_null(branch));
        dropped = true;
        let single = match branches.as_slice() {
            [Value::Object(branch)] => Some(branch.clone()),
            _ => None,
        };
        // The one branch left merges in, unless a keyword of its own would be lost.
        if let Some(branch) = single
            && branch
                .keys()
                .all(|k| !schema.contains_key(k) || ANNOTATIONS.contains(&k.as_str()))
        {
            schema.remove(key);
            for (k, v) in branch {
                schema.entry(k).or_insert(v);
            }
        }
    }
    if dropped {
        if let Some(Value::Array(values)) = schema.get_mut("enum") {
            values.retain(|value| !value.is_null());
        }
        if schema.get("default") == Some(&Value::Null) {
            schema.remove("default");
        }
    }
}

/// `{"type": "null"}` and nothing else, the branch schemars adds for `None`.
fn is_bare_null(schema: &Value) -> bool {
    schema
        .as_object()
        .is_some_and(|object| object.len() == 1 && object.get("type") == Some(&"null".into()))
}

/// Rewrites `"type": [A, B]` as `"anyOf": [{"type": A, ..}, {"type": B, ..}]`, each
/// branch taking the keywords that apply to its type; annotations and type-agnostic
/// keywords (`enum`, `const`) stay beside the `anyOf`.
pub(super) fn split(schema: &mut Map<String, Value>) {
    let Some(Value::Array(types)) = schema.get("type") else {
        return;
    };
    if schema.contains_key("anyOf") || !types.iter().all(Value::is_string) {
        return;
    }
    let mut kinds: Vec<String> = Vec::new();
    for kind in types.iter().filter_map(Value::as_str) {
        if !kinds.iter().any(|k| k == kind) {
            kinds.push(kind.to_owned());
        }
    }
    if kinds.len() < 2 {
        // `["string"]` or `[]`: no union to split; a lone type reads as itself.
        if let [kind] = kinds.as_slice() {
            schema.insert("type".into(), kind.as_str().into());
        }
        return;
    }
    let mut branches: Vec<Map<String, Value>> = kinds
        .iter()
        .map(|kind| Map::from_iter([("type".to_owned(), Value::from(kind.as_str()))]))
        .collect();
    for (keyword, value) in std::mem::take(schema) {
        if keyword == "type" {
            // The `anyOf` takes the place of the `type` it replaces.
            schema.insert("anyOf".into(), Value::Null);
            continue;
        }
        let owners: Vec<usize> = (kinds.iter().enumerate())
            .filter(|(_, kind)| applies_to(&keyword, kind))
            .map(|(index, _)| index)
            .collect();
        if owners.is_empty() {
            schema.insert(keyword, value);
            continue;
        }
        for index in owners {
            branches[index].insert(keyword.clone(), value.clone());
        }
    }
    let branches = branches.into_iter().map(Value::Object).collect();
    schema.insert("anyOf".into(), Value::Array(branches));
}

/// Whether a validation keyword constrains values of the JSON type `kind` only.
fn applies_to(keyword: &str, kind: &str) -> bool {
    let kinds: &[&str] = match keyword {
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
            &["integer", "number"]
        }
        "minLength" | "maxLength" | "pattern" | "format" | "contentEncoding"
        | "contentMediaType" | "contentSchema" => &["string"],
        "items" | "prefixItems" | "contains" | "minContains" | "maxContains" | "minItems"
        | "maxItems" | "uniqueItems" | "unevaluatedItems" => &["array"],
        "properties"
        | "patternProperties"
        | "additionalProperties"
        | "propertyNames"
        | "required"
        | "dependentRequired"
        | "dependentSchemas"
        | "minProperties"
        | "maxProperties"
        | "unevaluatedProperties" => &["object"],
        _ => return false,
    };
    kinds.contains(&kind)
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::call::schema::normalize;

    fn normalized(mut schema: Value) -> Value {
        normalize(&mut schema);
        schema
    }

    #[test]
    fn an_optional_property_drops_null_and_keeps_its_bounds() {
        // An `Option<u64>` output field with `skip_serializing_if = "Option::is_none"`.
        let schema = json!({
            "type": "object",
            "properties": {
                "path": { "type": "string" },
                "lines": {
                    "type": ["integer", "null"],
                    "format": "uint64",
                    "minimum": 0,
                    "description": "Number of lines."
                }
            },
            "required": ["path"]
        });
        assert_eq!(
            normalized(schema)["properties"]["lines"],
            json!({ "type": "integer", "minimum": 0, "description": "Number of lines." })
        );
    }

    #[test]
    fn an_optional_enum_or_object_drops_null_from_its_values_and_default() {
        let schema = json!({
            "type": "object",
            "properties": {
                "unit": { "type": ["string", "null"], "enum": ["bytes", "lines", null] },
                "window": {
                    "type": ["object", "null"],
                    "properties": { "start": { "type": "integer" } },
                    "required": ["start"],
                    "default": null
                },
                "tree": {
                    "description": "The tree.",
                    "anyOf": [{ "$ref": "#/$defs/Node" }, { "type": "null" }]
                }
            }
        });
        let schema = normalized(schema);
        let properties = &schema["properties"];
        assert_eq!(
            properties["unit"],
            json!({ "type": "string", "enum": ["bytes", "lines"] })
        );
        assert_eq!(
            properties["window"],
            json!({
                "type": "object",
                "properties": { "start": { "type": "integer" } },
                "required": ["start"]
            })
        );
        assert_eq!(
            properties["tree"],
            json!({ "description": "The tree.", "$ref": "#/$defs/Node" })
        );
    }

    #[test]
    fn a_required_nullable_property_becomes_any_of_with_each_types_keywords() {
        // An `Option<u8>` output field without `skip_serializing_if`: it may be `null`.
        let schema = json!({
            "type": "object",
            "properties": {
                "level": {
                    "description": "A level.",
                    "type": ["integer", "null"],
                    "format": "uint8",
                    "minimum": 0,
                    "maximum": 255
                },
                "inner": {
                    "type": ["object", "null"],
                    "properties": { "name": { "type": ["string", "null"] } },
                    "required": ["name"]
                }
            },
            "required": ["level", "inner"]
        });
        let schema = normalized(schema);
        assert_eq!(
            schema["properties"]["level"],
            json!({
                "description": "A level.",
                "anyOf": [
                    { "type": "integer", "minimum": 0, "maximum": 255 },
                    { "type": "null" }
                ]
            })
        );
        assert_eq!(
            schema["properties"]["inner"],
            json!({
                "anyOf": [
                    {
                        "type": "object",
                        "properties": {
                            "name": { "anyOf": [{ "type": "string" }, { "type": "null" }] }
                        },
                        "required": ["name"]
                    },
                    { "type": "null" }
                ]
            })
        );
    }

    #[test]
    fn no_type_array_is_left_anywhere() {
        // A wrapped `Option<u32>` result, nullable items, and a union inside `$defs`.
        let schema = json!({
            "type": "object",
            "properties": {
                "result": { "type": ["integer", "null"], "format": "uint32", "minimum": 0 },
                "items": { "type": "array", "items": { "type": ["string", "null"] } }
            },
            "required": ["result", "items"],
            "$defs": { "Node": { "type": ["boolean", "string", "boolean"] } }
        });
        let schema = normalized(schema);
        fn has_type_array(value: &Value) -> bool {
            match value {
                Value::Object(object) => {
                    object.get("type").is_some_and(Value::is_array)
                        || object.values().any(has_type_array)
                }
                Value::Array(items) => items.iter().any(has_type_array),
                _ => false,
            }
        }
        assert!(!has_type_array(&schema), "{schema:#}");
        assert_eq!(
            schema["properties"]["result"]["anyOf"][0],
            json!({ "type": "integer", "minimum": 0, "maximum": 4294967295u32 })
        );
        assert_eq!(
            schema["$defs"]["Node"],
            json!({ "anyOf": [{ "type": "boolean" }, { "type": "string" }] })
        );
    }

    #[test]
    fn values_are_not_schemas() {
        // A default whose JSON looks like a schema with a union is left as it is.
        let schema = json!({
            "type": "object",
            "default": { "type": ["a", "b"], "format": "int32" }
        });
        assert_eq!(normalized(schema.clone()), schema);
    }
}
