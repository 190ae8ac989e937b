//! Time limits: a tool's own `timeout` over the server's, shorter or longer, and the
//! error that names the tool and the limit it ran into.

use std::time::Duration;

use mcp_tool::testing::TestClient;
use mcp_tool::{Server, mcp_tool};
use serde_json::json;

/// Sleeps for two seconds, past its own limit.
#[mcp_tool(timeout = "100ms")]
async fn hasty() -> String {
    tokio::time::sleep(Duration::from_secs(2)).await;
    "woke".to_owned()
}

/// Sleeps for 300 ms, within its own limit and past the server's.
#[mcp_tool(timeout = "1m30s")]
async fn patient() -> String {
    tokio::time::sleep(Duration::from_millis(300)).await;
    "woke".to_owned()
}

/// Sleeps for 300 ms on a blocking thread, within its own limit and past the server's.
#[mcp_tool(timeout = "2s")]
fn patient_sync() -> String {
    std::thread::sleep(Duration::from_millis(300));
    "woke".to_owned()
}

/// Sleeps for 300 ms, with no limit of its own.
#[mcp_tool]
async fn plain() -> String {
    tokio::time::sleep(Duration::from_millis(300)).await;
    "woke".to_owned()
}

async fn client(timeout: Option<Duration>) -> TestClient {
    let server = Server::from_registry("limits", "1");
    let server = match timeout {
        Some(limit) => server.timeout(limit),
        None => server,
    };
    TestClient::connect(server.build().unwrap()).await.unwrap()
}

#[tokio::test(flavor = "current_thread")]
async fn a_shorter_tool_timeout_ends_the_call_before_the_servers() {
    let client = client(Some(Duration::from_secs(10))).await;
    let result = client.call("hasty", json!({})).await.unwrap();
    assert!(result.is_error, "{result:?}");
    assert_eq!(
        result.text(),
        "tool `hasty` failed: it did not finish within 100 ms"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_tool_timeout_applies_without_a_server_timeout() {
    let client = client(None).await;
    let result = client.call("hasty", json!({})).await.unwrap();
    assert_eq!(
        result.text(),
        "tool `hasty` failed: it did not finish within 100 ms"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_longer_tool_timeout_lets_the_call_outlast_the_servers() {
    let client = client(Some(Duration::from_millis(100))).await;
    for tool in ["patient", "patient_sync"] {
        let result = client.call(tool, json!({})).await.unwrap();
        assert!(!result.is_error, "{tool}: {result:?}");
        assert_eq!(result.text(), "woke");
    }
    let result = client.call("plain", json!({})).await.unwrap();
    assert_eq!(
        result.text(),
        "tool `plain` failed: it did not finish within 100 ms"
    );
}

#[tokio::test(flavor = "current_thread")]
async fn a_direct_call_keeps_the_tools_timeout() {
    let server = Server::from_registry("limits", "1")
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let result = server.call("hasty", Default::default()).await.unwrap();
    assert_eq!(
        result.text(),
        "tool `hasty` failed: it did not finish within 100 ms"
    );
}
