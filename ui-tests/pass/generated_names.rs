//! A tool's function may have the name of anything the attribute generates (items,
//! locals, the crate alias), at module level or in a block, and a call still reaches it.
//! Each function returns its own tag, so a call that reached a generated item instead
//! would fail to compile or give the wrong answer.

#![allow(non_snake_case)]

use mcp_tool::mcp_tool;
use mcp_tool::testing::{TestClient};

/// Names the adapter.
#[mcp_tool(name = "call")]
fn __mcp_call(text: String, #[arg(range(min = 1, max = 3), default = 1)] times: usize) -> String {
    format!("call:{}", text.repeat(times))
}

/// Names the output ladder.
#[mcp_tool(name = "output")]
fn __mcp_output(#[arg(range(max = 10))] n: Option<u32>) -> u32 {
    n.unwrap_or(7)
}

/// Names the output schema.
#[mcp_tool(name = "output_schema")]
async fn __mcp_output_schema(text: String) -> Result<String, mcp_tool::ToolError> {
    Ok(format!("output_schema:{text}"))
}

/// Names the crate alias.
#[mcp_tool(name = "crate_alias")]
fn __mcp_crate(text: String) -> String {
    format!("crate:{text}")
}

/// Names the parameter table.
#[mcp_tool(name = "params")]
fn __MCP_PARAMS(#[arg(length(min = 1))] text: String) -> String {
    format!("params:{text}")
}

/// Names a parameter's type const.
#[mcp_tool(name = "type_const")]
fn __MCP_TYPE_0(text: String) -> String {
    format!("type:{text}")
}

/// Names a parameter's pattern.
#[mcp_tool(name = "pattern")]
fn __MCP_PATTERN_0(#[arg(pattern = "^[a-z]+$")] text: String) -> String {
    format!("pattern:{text}")
}

/// Names a parameter's default.
#[mcp_tool(name = "default_value")]
fn __mcp_default_0(#[arg(default = "d")] text: String) -> String {
    format!("default:{text}")
}

/// Names a parameter's default as JSON.
#[mcp_tool(name = "default_json")]
fn __mcp_default_json_0(#[arg(default = "j")] text: String) -> String {
    format!("default_json:{text}")
}

/// Names the argument reader.
#[mcp_tool(name = "args")]
fn __mcp_args(text: String) -> String {
    format!("args:{text}")
}

/// Names the adapter's input.
#[mcp_tool(name = "input")]
fn __mcp_input(text: String) -> String {
    format!("input:{text}")
}

/// Names an argument as read.
#[mcp_tool(name = "arg_slot")]
fn __mcp_arg_0(text: String) -> String {
    format!("arg:{text}")
}

/// Names an argument once read.
#[mcp_tool(name = "value_0")]
async fn __mcp_value_0(text: String) -> String {
    format!("value_0:{text}")
}

/// Names the checked value.
#[mcp_tool(name = "value")]
fn __mcp_value(#[arg(length(max = 8))] text: String) -> String {
    format!("value:{text}")
}

/// Names the reader's failure.
#[mcp_tool(name = "failure")]
fn __mcp_failure(text: String) -> String {
    format!("failure:{text}")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // In a block, as in a doctest: here `self::__mcp_call` would name the module's.
    /// Names the adapter, in a block.
    #[mcp_tool(name = "call_in_block")]
    fn __mcp_call(text: String) -> String {
        format!("block:{text}")
    }
    assert_eq!(__mcp_call("x".to_owned()), "block:x");

    let client = TestClient::from_registry()
        .await
        .expect("the server starts");
    let text = |name: &'static str| {
        let client = &client;
        async move {
            let result = client
                .call(name, serde_json::json!({ "text": "ab" }))
                .await
                .expect("the call is answered");
            result.text()
        }
    };
    assert_eq!(text("call").await, "call:ab");
    assert_eq!(text("call_in_block").await, "block:ab");
    assert_eq!(text("output_schema").await, "output_schema:ab");
    assert_eq!(text("crate_alias").await, "crate:ab");
    assert_eq!(text("params").await, "params:ab");
    assert_eq!(text("type_const").await, "type:ab");
    assert_eq!(text("pattern").await, "pattern:ab");
    assert_eq!(text("default_value").await, "default:ab");
    assert_eq!(text("default_json").await, "default_json:ab");
    assert_eq!(text("args").await, "args:ab");
    assert_eq!(text("input").await, "input:ab");
    assert_eq!(text("arg_slot").await, "arg:ab");
    assert_eq!(text("value_0").await, "value_0:ab");
    assert_eq!(text("value").await, "value:ab");
    assert_eq!(text("failure").await, "failure:ab");

    let repeated = client
        .call("call", serde_json::json!({ "text": "ab", "times": 2 }))
        .await
        .expect("the call is answered");
    assert_eq!(repeated.text(), "call:abab");
    let n: u32 = client
        .call_as("output", serde_json::json!({}))
        .await
        .expect("the call succeeds");
    assert_eq!(n, 7);
    let defaulted = client
        .call("default_value", serde_json::json!({}))
        .await
        .expect("the call is answered");
    assert_eq!(defaulted.text(), "default:d");
}
