//! What the `arguments` target checks, for libFuzzer (`fuzz_targets/arguments.rs`) and the
//! bounded run on stable (`tests/fuzz-stable`) alike. Feeds arbitrary JSON arguments to a
//! tool with every kind of parameter and checks what must always hold: no panic, a call
//! either succeeds or fails as an argument error naming the tool, and a failure never
//! echoes a string value that was sent (checked with each string value replaced by a
//! marker that no message contains by chance).

use std::collections::BTreeMap;

use mcp_tool::{Server, ToolServer, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum Unit {
    Lines,
    Words,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Range {
    start: u64,
    end: Option<u64>,
}

/// Takes one parameter of every kind and reports how many it got.
#[mcp_tool]
fn every_kind(
    /// Text with a pattern.
    #[arg(length(min = 1, max = 32), pattern = "^[a-z]+$")]
    word: String,
    /// A bounded integer.
    #[arg(range(min = -5, max = 500))]
    count: Option<i32>,
    /// A bounded float.
    #[arg(range(min = 0.0, max = 1.0), default = 0.5)]
    ratio: f64,
    /// An enum.
    unit: Option<Unit>,
    /// A nested struct.
    range: Option<Range>,
    /// A map.
    labels: Option<BTreeMap<String, Vec<bool>>>,
) -> usize {
    word.len()
        + count.map_or(0, |c| c.unsigned_abs() as usize)
        + usize::from(ratio > 0.5)
        + usize::from(unit.is_some())
        + usize::from(range.is_some())
        + labels.map_or(0, |l| l.len())
}

fn server() -> &'static ToolServer {
    static SERVER: std::sync::OnceLock<ToolServer> = std::sync::OnceLock::new();
    SERVER.get_or_init(|| Server::from_registry("fuzz", "1").build().unwrap())
}

/// Replaces every string value (not the keys) with a numbered marker.
fn mark_strings(value: &mut Value, next: &mut usize) {
    match value {
        Value::String(text) => {
            *text = format!("Zq{next:04}Xj");
            *next += 1;
        }
        Value::Array(items) => items.iter_mut().for_each(|item| mark_strings(item, next)),
        Value::Object(map) => map.values_mut().for_each(|v| mark_strings(v, next)),
        _ => {}
    }
}

fn call(arguments: Map<String, Value>) -> mcp_tool::model::ToolResult {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let result = runtime
        .block_on(server().call("every_kind", arguments))
        .expect("the tool exists");
    if result.is_error {
        let text = result.text();
        assert!(
            text.starts_with("invalid arguments for tool `every_kind`: "),
            "{text}"
        );
    } else {
        assert!(result.structured.is_some(), "{result:?}");
    }
    result
}

pub(crate) fn check(data: &[u8]) {
    let Ok(Value::Object(arguments)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    call(arguments.clone());
    let mut marked = Value::Object(arguments);
    let mut markers = 0;
    mark_strings(&mut marked, &mut markers);
    let Value::Object(marked) = marked else {
        unreachable!("an object stays an object")
    };
    let text = call(marked).text();
    assert!(!text.contains("Zq"), "a value sent was echoed: {text}");
}
