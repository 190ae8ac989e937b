//! Fields named after JSON Schema keywords are fields like any other: their schemas get
//! the same treatment (integer formats become bounds), they stay listed and required,
//! and the tool takes them.

use mcp_tool::{mcp_tool, testing::TestClient};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Settings whose field names are JSON Schema keywords.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
struct Keywords {
    default: Option<u32>,
    examples: Option<u8>,
    r#enum: u16,
    r#const: i8,
    properties: u32,
    #[serde(rename = "$schema")]
    schema: u8,
    r#type: u16,
    items: u8,
    required: u32,
    not: i16,
    #[serde(rename = "anyOf")]
    any_of: u8,
    #[serde(rename = "additionalProperties")]
    additional_properties: u8,
}

/// Returns the settings it was given.
#[mcp_tool]
fn echo_keywords(
    /// Settings whose field names are JSON Schema keywords.
    settings: Keywords,
) -> Keywords {
    settings
}

async fn settings_schema() -> Value {
    let client = TestClient::from_registry().await.unwrap();
    let tools = client.list().await.unwrap();
    let tool = tools.iter().find(|t| t.name == "echo_keywords").unwrap();
    tool.input_schema["properties"]["settings"].clone()
}

#[tokio::test]
async fn every_keyword_named_field_gets_its_bounds_and_no_format() {
    let schema = settings_schema().await;
    let properties = schema["properties"].as_object().unwrap();
    let expected = [
        ("default", json!(0), json!(u32::MAX)),
        ("examples", json!(0), json!(u8::MAX)),
        ("enum", json!(0), json!(u16::MAX)),
        ("const", json!(i8::MIN), json!(i8::MAX)),
        ("properties", json!(0), json!(u32::MAX)),
        ("$schema", json!(0), json!(u8::MAX)),
        ("type", json!(0), json!(u16::MAX)),
        ("items", json!(0), json!(u8::MAX)),
        ("required", json!(0), json!(u32::MAX)),
        ("not", json!(i16::MIN), json!(i16::MAX)),
        ("anyOf", json!(0), json!(u8::MAX)),
        ("additionalProperties", json!(0), json!(u8::MAX)),
    ];
    assert_eq!(properties.len(), expected.len(), "{schema:#}");
    for (field, min, max) in expected {
        let field_schema = &properties[field];
        assert_eq!(field_schema["type"], "integer", "{field}: {field_schema}");
        assert_eq!(field_schema["minimum"], min, "{field}: {field_schema}");
        assert_eq!(field_schema["maximum"], max, "{field}: {field_schema}");
        assert!(
            field_schema.get("format").is_none(),
            "{field}: {field_schema}"
        );
    }
}

#[tokio::test]
async fn a_field_named_schema_is_listed_and_required_like_the_others() {
    let schema = settings_schema().await;
    let required: Vec<&str> = (schema["required"].as_array().unwrap().iter())
        .map(|name| name.as_str().unwrap())
        .collect();
    for field in ["$schema", "enum", "const", "type", "properties", "not"] {
        assert!(required.contains(&field), "{field} in {required:?}");
        assert!(
            schema["properties"].get(field).is_some(),
            "{field}: {schema:#}"
        );
    }
    // Optional ones are not required.
    assert!(!required.contains(&"default") && !required.contains(&"examples"));
}

#[tokio::test]
async fn the_tool_takes_keyword_named_fields_and_refuses_them_out_of_range() {
    let client = TestClient::from_registry().await.unwrap();
    let settings = json!({
        "default": 7, "enum": 3, "const": -2, "properties": 4, "$schema": 5, "type": 6,
        "items": 1, "required": 2, "not": -9, "anyOf": 8, "additionalProperties": 9
    });
    let result = client
        .call("echo_keywords", json!({ "settings": settings }))
        .await
        .unwrap();
    assert!(!result.is_error, "{result:?}");
    let mut expected = settings.clone();
    expected["default"] = json!(7);
    expected["examples"] = Value::Null;
    assert_eq!(result.structured, Some(expected));

    let mut too_big = settings;
    too_big["examples"] = json!(300);
    let result = client
        .call("echo_keywords", json!({ "settings": too_big }))
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "invalid arguments for tool `echo_keywords`: `settings.examples`: expected an integer \
         from 0 to 255"
    );
}
