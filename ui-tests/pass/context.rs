//! `Context` and `State<T>` are recognised by their type: through a type alias, a
//! renamed import and any parameter name, in any position, in sync and async tools;
//! neither is in the input schema.

use mcp_tool::Context as Ctx;
use mcp_tool::{State, mcp_tool};

type Call = mcp_tool::Context;
type Shared<T> = mcp_tool::State<T>;

struct Limits {
    max: u32,
}

/// Clamps a number to the server's limit, reporting progress.
#[mcp_tool]
async fn clamp(value: u32, progress: Call, limits: Shared<Limits>) -> u32 {
    progress.progress(1, 1).await;
    value.min(limits.max)
}

/// Returns the name of the tool called.
#[mcp_tool]
fn named(context: Ctx, limits: State<Limits>) -> String {
    format!("{} (max {})", context.tool_name(), limits.max)
}

/// Returns whether the call was cancelled, with an optional context.
#[mcp_tool]
fn cancelled(maybe: Option<Call>) -> bool {
    maybe.is_some_and(|ctx| ctx.is_cancelled())
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let server = mcp_tool::Server::from_registry("context", "1.0.0")
        .state(Limits { max: 10 })
        .build()
        .unwrap();
    for tool in server.tools().iter() {
        let properties = tool.input_schema["properties"].as_object().unwrap();
        let expected: &[&str] = if tool.name == "clamp" { &["value"] } else { &[] };
        assert_eq!(properties.keys().collect::<Vec<_>>(), expected, "{}", tool.name);
    }
    let arguments = serde_json::json!({ "value": 42 });
    let result = server
        .call("clamp", arguments.as_object().unwrap().clone())
        .await
        .unwrap();
    assert_eq!(result.structured, Some(serde_json::json!({ "result": 10 })));
    let result = server.call("named", serde_json::Map::new()).await.unwrap();
    assert_eq!(result.text(), "named (max 10)");
}
