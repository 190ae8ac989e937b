//! The schemas clients see: exact snapshots of what `tools/list` returns, portable by
//! default and full JSON Schema 2020-12 documents with `schema = "2020-12"`.

use std::collections::BTreeMap;

use mcp_tool::{ToolError, mcp_tool, testing::TestClient};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Unit {
    Bytes,
    Lines,
}

/// A window into a file.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Window {
    /// First line, from 1.
    start: u32,
    /// How many lines.
    len: Option<u16>,
}

#[derive(Debug, Serialize, JsonSchema)]
struct Counted {
    count: u64,
    unit: String,
}

/// Counts the bytes or lines of a text file within an optional window.
#[mcp_tool(read_only, idempotent, title = "Count")]
fn count(
    /// Path to a text file.
    path: String,
    /// What to count. Defaults to lines.
    unit: Option<Unit>,
    /// Only count inside this window.
    window: Option<Window>,
    /// Stop after this many units.
    #[arg(range(min = 1, max = 1_000_000), default = 1000)]
    limit: u64,
    /// Labels to attach.
    #[arg(length(max = 4))]
    labels: Vec<String>,
    /// A name for the count.
    #[arg(pattern = "^[a-z_]+$", length(min = 1, max = 32))]
    name: Option<String>,
) -> Result<Counted, ToolError> {
    let _ = (path, unit, window, labels, name);
    Ok(Counted {
        count: limit,
        unit: "lines".into(),
    })
}

/// A node of a tree; recursive, so it keeps a `$ref`.
#[derive(Debug, Deserialize, JsonSchema)]
#[allow(dead_code)]
struct Node {
    name: String,
    children: Vec<Node>,
}

/// Counts the nodes of a tree and returns the number.
#[mcp_tool(name = "count_nodes")]
async fn nodes(
    /// The tree.
    tree: Node,
) -> usize {
    fn walk(node: &Node) -> usize {
        1 + node.children.iter().map(walk).sum::<usize>()
    }
    walk(&tree)
}

/// Returns a greeting for the given name as plain text.
#[mcp_tool(destructive = false, open_world = false)]
fn greet(
    /// Who to greet.
    name: String,
    /// Extra fields.
    extra: Option<BTreeMap<String, i32>>,
) -> String {
    let _ = extra;
    format!("hello, {name}")
}

/// A street address.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
struct Address {
    street: String,
    number: u16,
}

/// A place on a map.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
struct Place {
    /// Degrees north.
    lat: f64,
    /// Degrees east.
    lon: f64,
    address: Option<Address>,
}

/// Returns the known place nearest to a point.
#[mcp_tool(schema = "2020-12")]
fn nearest(
    /// Where to search from.
    from: Place,
    /// Whether to measure in bytes or lines, for no good reason.
    unit: Option<Unit>,
) -> Place {
    let _ = unit;
    from
}

/// Returns the addresses of a street, numbers 1 to `count`.
#[mcp_tool(schema = "2020-12")]
fn street(
    /// The street's name.
    name: String,
    /// How many numbers.
    count: u16,
) -> Vec<Address> {
    let number = 1..=count;
    (number.map(|number| Address {
        street: name.clone(),
        number,
    }))
    .collect()
}

async fn listed(name: &str) -> Value {
    let client = TestClient::from_registry().await.unwrap();
    let tool = client.tool(name).await.unwrap().expect("tool is listed");
    serde_json::to_value(tool).unwrap()
}

#[tokio::test]
async fn full_schema_of_a_tool_with_every_kind_of_parameter() {
    assert_eq!(
        listed("count").await,
        json!({
            "name": "count",
            "title": "Count",
            "description": "Counts the bytes or lines of a text file within an optional window.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "path": { "type": "string", "description": "Path to a text file." },
                    "unit": {
                        "type": "string",
                        "enum": ["bytes", "lines"],
                        "description": "What to count. Defaults to lines."
                    },
                    "window": {
                        "description": "Only count inside this window.",
                        "type": "object",
                        "properties": {
                            "start": {
                                "description": "First line, from 1.",
                                "type": "integer",
                                "minimum": 0,
                                "maximum": 4294967295u64
                            },
                            "len": {
                                "description": "How many lines.",
                                "type": "integer",
                                "minimum": 0,
                                "maximum": 65535
                            }
                        },
                        "required": ["start"]
                    },
                    "limit": {
                        "type": "integer",
                        "minimum": 1,
                        "description": "Stop after this many units.",
                        "maximum": 1000000,
                        "default": 1000
                    },
                    "labels": {
                        "type": "array",
                        "items": { "type": "string" },
                        "description": "Labels to attach.",
                        "maxItems": 4
                    },
                    "name": {
                        "type": "string",
                        "description": "A name for the count.",
                        "minLength": 1,
                        "maxLength": 32,
                        "pattern": "^[a-z_]+$"
                    }
                },
                "required": ["path", "labels"],
                "additionalProperties": false
            },
            "outputSchema": {
                "type": "object",
                "properties": {
                    "count": { "type": "integer", "minimum": 0 },
                    "unit": { "type": "string" }
                },
                "required": ["count", "unit"]
            },
            "annotations": { "readOnlyHint": true, "idempotentHint": true }
        })
    );
}

#[tokio::test]
async fn property_order_follows_parameter_order() {
    let tool = listed("count").await;
    let names: Vec<&str> = tool["inputSchema"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(names, ["path", "unit", "window", "limit", "labels", "name"]);
}

#[tokio::test]
async fn non_recursive_types_are_inlined_and_recursive_ones_keep_one_definition() {
    let count = listed("count").await.to_string();
    assert!(!count.contains("$ref") && !count.contains("$defs") && !count.contains("$schema"));
    assert!(
        !count.contains("\"format\""),
        "Rust integer formats are replaced by bounds"
    );

    let nodes = listed("count_nodes").await;
    let schema = &nodes["inputSchema"];
    assert_eq!(schema["properties"]["tree"]["type"], "object");
    assert_eq!(
        schema["properties"]["tree"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Node"
    );
    assert_eq!(
        schema["$defs"]["Node"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Node"
    );
    assert_eq!(
        nodes["outputSchema"],
        json!({
            "type": "object",
            "properties": { "result": { "type": "integer", "minimum": 0 } },
            "required": ["result"]
        })
    );
}

#[tokio::test]
async fn text_tools_have_no_output_schema_and_keep_their_annotations() {
    assert_eq!(
        listed("greet").await,
        json!({
            "name": "greet",
            "description": "Returns a greeting for the given name as plain text.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "name": { "type": "string", "description": "Who to greet." },
                    "extra": {
                        "type": "object",
                        "additionalProperties": {
                            "type": "integer",
                            "minimum": -2147483648,
                            "maximum": 2147483647
                        },
                        "description": "Extra fields."
                    }
                },
                "required": ["name"],
                "additionalProperties": false
            },
            "annotations": { "destructiveHint": false, "openWorldHint": false }
        })
    );
}

#[tokio::test]
async fn the_tool_list_is_built_once_and_shared() {
    let server = mcp_tool::Server::from_registry("s", "1").build().unwrap();
    let copy = server.clone();
    assert!(std::sync::Arc::ptr_eq(&server.tools(), &copy.tools()));
    let client = TestClient::connect(server).await.unwrap();
    assert_eq!(client.list().await.unwrap(), *copy.tools());
}

#[test]
fn the_function_stays_callable_as_written() {
    assert_eq!(greet("ada".into(), None), "hello, ada");
    let counted = count("x".into(), None, None, 7, vec![], None).unwrap();
    assert_eq!(counted.count, 7);
}

/// `Address` as `$defs` holds it.
fn address_definition() -> Value {
    json!({
        "type": "object",
        "properties": {
            "street": { "type": "string" },
            "number": { "type": "integer", "minimum": 0, "maximum": 65535 }
        },
        "required": ["street", "number"],
        "description": "A street address."
    })
}

#[tokio::test]
async fn a_2020_12_tool_keeps_schema_and_its_named_types_under_defs() {
    let place_properties = json!({
        "lat": { "type": "number", "description": "Degrees north." },
        "lon": { "type": "number", "description": "Degrees east." },
        // Optional in an input: absent, never `null` (see `schema::unions`).
        "address": { "$ref": "#/$defs/Address" }
    });
    let tool = listed("nearest").await;
    assert_eq!(
        tool["inputSchema"],
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "from": { "$ref": "#/$defs/Place", "description": "Where to search from." },
                "unit": {
                    "$ref": "#/$defs/Unit",
                    "description": "Whether to measure in bytes or lines, for no good reason."
                }
            },
            "required": ["from"],
            "additionalProperties": false,
            "$defs": {
                "Place": {
                    "type": "object",
                    "properties": place_properties,
                    "required": ["lat", "lon"],
                    "description": "A place on a map."
                },
                "Address": address_definition(),
                "Unit": { "type": "string", "enum": ["bytes", "lines"] }
            }
        })
    );
    // The root of an output schema is the object itself, not a `$ref` to it; there
    // `address` is always written, `null` when absent.
    let mut output_properties = place_properties.clone();
    output_properties["address"] =
        json!({ "anyOf": [{ "$ref": "#/$defs/Address" }, { "type": "null" }] });
    assert_eq!(
        tool["outputSchema"],
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": output_properties,
            "required": ["lat", "lon", "address"],
            "description": "A place on a map.",
            "$defs": { "Address": address_definition() }
        })
    );
    let keys: Vec<&str> = (tool["inputSchema"].as_object().unwrap().keys())
        .map(String::as_str)
        .collect();
    assert_eq!(keys[0], "$schema", "the dialect comes first");
}

#[tokio::test]
async fn a_2020_12_tool_wraps_a_value_that_is_not_an_object_as_a_portable_one_does() {
    assert_eq!(
        listed("street").await["outputSchema"],
        json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "result": { "type": "array", "items": { "$ref": "#/$defs/Address" } }
            },
            "required": ["result"],
            "$defs": { "Address": address_definition() }
        })
    );
    let client = TestClient::from_registry().await.unwrap();
    let addresses = client
        .call("street", json!({ "name": "Elm", "count": 2 }))
        .await
        .unwrap();
    assert_eq!(
        addresses.structured,
        Some(json!({ "result": [
            { "street": "Elm", "number": 1 },
            { "street": "Elm", "number": 2 }
        ] }))
    );
    let place = json!({ "lat": 1.5, "lon": 2.5, "address": null });
    let nearest = client
        .call("nearest", json!({ "from": place }))
        .await
        .unwrap();
    assert_eq!(nearest.structured, Some(place));
}

#[tokio::test]
async fn an_argument_error_of_a_2020_12_tool_names_the_field_and_what_it_expects() {
    let client = TestClient::from_registry().await.unwrap();
    let result = client
        .call("nearest", json!({ "from": { "lat": "north", "lon": 2.5 } }))
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "invalid arguments for tool `nearest`: `from.lat`: expected a number"
    );
}
