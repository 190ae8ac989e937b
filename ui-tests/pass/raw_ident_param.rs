//! A parameter named with a raw identifier is the argument without `r#`.

use mcp_tool::mcp_tool;
use mcp_tool::testing::{TestClient};

/// Describes a value of a kind.
#[mcp_tool]
fn describe(
    /// The kind of the value.
    r#type: String,
    /// The value.
    r#ref: u32,
) -> String {
    format!("{} {}", r#type, r#ref)
}

/// A tool whose own name is a raw identifier.
#[mcp_tool]
fn r#match(r#in: String) -> String {
    r#in
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    assert_eq!(describe("u32".to_owned(), 7), "u32 7");
    let client = TestClient::from_registry()
        .await
        .expect("the server starts");
    let tools = client.list().await.expect("the tools are listed");
    let names: Vec<_> = tools.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(names, ["describe", "match"]);
    let result = client
        .call("describe", serde_json::json!({ "type": "u32", "ref": 7 }))
        .await
        .expect("the call is answered");
    assert_eq!(result.text(), "u32 7");
    let result = client
        .call("match", serde_json::json!({ "in": "x" }))
        .await
        .expect("the call is answered");
    assert_eq!(result.text(), "x");
}
