use serde_json::{Value, json};

use super::*;

fn info(input: Value, output: Option<Value>) -> ToolInfo {
    let object = |v: Value| v.as_object().cloned().unwrap();
    ToolInfo {
        name: "t".into(),
        title: None,
        description: Some("d".into()),
        input_schema: object(input),
        output_schema: output.map(object),
        annotations: None,
        icons: Vec::new(),
        meta: None,
        scopes: Vec::new(),
    }
}

#[test]
fn inline_expands_references_and_keeps_the_words_beside_them() {
    let tool = info(
        json!({"type": "object", "properties": {"p": {"$ref": "#/$defs/P", "description": "here"}},
               "$defs": {"P": {"type": "string", "description": "there", "enum": ["a"]}}}),
        None,
    );
    let shown = shown(&tool, SchemaProfile::Inline).unwrap();
    assert_eq!(
        Value::Object(shown.input_schema),
        json!({"type": "object", "properties": {"p": {"type": "string", "description": "here", "enum": ["a"]}}})
    );
}

#[test]
fn inline_refuses_a_type_that_refers_to_itself_by_its_name() {
    let tool = info(
        json!({"type": "object", "properties": {"n": {"$ref": "#/$defs/Node"}},
               "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}}),
        None,
    );
    for profile in [SchemaProfile::Inline, SchemaProfile::Gemini] {
        assert_eq!(
            shown(&tool, profile),
            Err(ProfileError::Recursive("Node".into()))
        );
    }
    let openai = shown(&tool, SchemaProfile::OpenAiStrict).unwrap();
    assert!(openai.input_schema.contains_key("$defs"));
}

#[test]
fn gemini_rewrites_null_unions_and_constants_and_says_what_it_drops() {
    let tool = info(
        json!({"type": "object", "additionalProperties": false, "properties": {
            "a": {"type": ["string", "null"], "format": "uuid"},
            "b": {"const": "x"},
            "c": {"type": "integer", "exclusiveMinimum": 0, "description": "Count"},
            "d": {"anyOf": [{"type": "integer"}, {"type": "null"}]}
        }}),
        None,
    );
    let input = Value::Object(shown(&tool, SchemaProfile::Gemini).unwrap().input_schema);
    assert_eq!(
        input,
        json!({"type": "object", "properties": {
            "a": {"type": "string", "nullable": true, "description": "In uuid format."},
            "b": {"type": "string", "enum": ["x"]},
            "c": {"type": "integer", "description": "Count. Greater than 0."},
            "d": {"type": "integer", "nullable": true}
        }})
    );
}

#[test]
fn openai_strict_requires_every_property_and_lets_optional_ones_be_null() {
    let tool = info(
        json!({"type": "object", "additionalProperties": false, "required": ["a"], "properties": {
            "a": {"type": "string", "format": "date-time", "maxLength": 30},
            "b": {"type": "integer", "minimum": 1},
            "c": {"type": "object", "properties": {"x": {"type": "boolean", "default": true}}}
        }}),
        None,
    );
    let input = Value::Object(
        shown(&tool, SchemaProfile::OpenAiStrict)
            .unwrap()
            .input_schema,
    );
    assert_eq!(
        input,
        json!({"type": "object", "additionalProperties": false, "required": ["a", "b", "c"], "properties": {
            "a": {"type": "string", "description": "In date-time format. At most 30 characters."},
            "b": {"type": ["integer", "null"], "minimum": 1},
            "c": {"type": ["object", "null"], "additionalProperties": false, "required": ["x"],
                  "properties": {"x": {"type": "boolean", "description": "Defaults to true."}}}
        }})
    );
}

#[test]
fn an_output_schema_whose_root_is_no_object_is_left_out_under_every_profile() {
    let tool = info(
        json!({"type": "object"}),
        Some(json!({"anyOf": [{"type": "object"}]})),
    );
    for profile in SchemaProfile::ALL {
        assert_eq!(
            shown(&tool, profile).unwrap().output_schema,
            None,
            "{profile}"
        );
    }
}
