use mcp_tool::{ToolError, mcp_tool, testing::TestClient};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Adds two integers and returns their sum.
#[mcp_tool(read_only)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend. Defaults to 0.
    b: Option<i64>,
) -> i64 {
    a + b.unwrap_or(0)
}

#[derive(Debug, Deserialize, Serialize, JsonSchema, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Order {
    Asc,
    Desc,
}

#[derive(Debug, Serialize, JsonSchema)]
struct Page {
    items: Vec<String>,
    total: u32,
}

/// Lists numbered items in the given order, at most `limit` of them.
#[mcp_tool(title = "List items")]
async fn list_items(
    /// How many items.
    #[arg(range(min = 1, max = 100))]
    limit: u32,
    /// The order. Defaults to asc.
    order: Option<Order>,
    /// A name prefix.
    #[arg(length(min = 1, max = 8), pattern = "^[a-z]+$", default = "item")]
    prefix: String,
) -> Result<Page, ToolError> {
    let mut items: Vec<String> = (1..=limit).map(|i| format!("{prefix}{i}")).collect();
    if order == Some(Order::Desc) {
        items.reverse();
    }
    Ok(Page {
        total: items.len() as u32,
        items,
    })
}

#[tokio::test]
async fn smoke() {
    let client = TestClient::from_registry().await.unwrap();
    let tools = client.list().await.unwrap();
    for t in &tools {
        println!("{}", serde_json::to_string_pretty(t).unwrap());
    }
    let sum: i64 = client
        .call_as("add", serde_json::json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(sum, 5);
    let r = client.call("list_items", serde_json::json!({"limit": 500, "order": "sideways", "prefix": "AB", "colour": 1, "limt": 3})).await.unwrap();
    println!("{}", serde_json::to_string_pretty(&r).unwrap());
    let r = client
        .call(
            "list_items",
            serde_json::json!({"limit": 3, "order": "desc"}),
        )
        .await
        .unwrap();
    println!("{}", serde_json::to_string_pretty(&r).unwrap());
    let r = client.call("ad", serde_json::json!({})).await;
    println!("{r:?}");
}
