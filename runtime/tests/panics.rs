//! A panicking tool fails that call only: the client gets a tool error naming the
//! tool, and the session goes on.

use mcp_tool::mcp_tool;
use mcp_tool::testing::TestClient;
use serde_json::json;

/// Divides two integers, panicking on a zero divisor.
#[mcp_tool]
fn divide(
    /// Dividend.
    a: i64,
    /// Divisor.
    b: i64,
) -> i64 {
    a / b
}

/// Waits, then panics with a formatted message.
#[mcp_tool]
async fn explode(
    /// What to say.
    word: String,
) -> String {
    tokio::task::yield_now().await;
    panic!("boom: {word}");
}

#[tokio::test]
async fn a_panicking_sync_tool_is_a_tool_error_and_the_next_call_succeeds() {
    let client = TestClient::from_registry().await.unwrap();
    let result = client
        .call("divide", json!({ "a": 1, "b": 0 }))
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "tool `divide` failed: it panicked: attempt to divide by zero"
    );
    let quotient: i64 = client
        .call_as("divide", json!({ "a": 9, "b": 3 }))
        .await
        .unwrap();
    assert_eq!(quotient, 3);
}

#[tokio::test]
async fn a_panicking_async_tool_is_a_tool_error_and_the_next_call_succeeds() {
    let client = TestClient::from_registry().await.unwrap();
    let result = client
        .call("explode", json!({ "word": "bang" }))
        .await
        .unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "tool `explode` failed: it panicked: boom: bang"
    );
    let quotient: i64 = client
        .call_as("divide", json!({ "a": 8, "b": 2 }))
        .await
        .unwrap();
    assert_eq!(quotient, 4);
}

/// Holds a 4 KiB buffer across an await (its future is too large to be kept inline, so
/// it is boxed), then panics or sums the buffer.
#[mcp_tool]
async fn heavy(
    /// Panic instead of answering.
    fail: bool,
) -> u64 {
    let buffer = [1u8; 4096];
    tokio::task::yield_now().await;
    assert!(!fail, "heavy failed on purpose");
    buffer.iter().map(|&b| u64::from(b)).sum()
}

#[tokio::test]
async fn an_async_tool_with_a_large_future_answers_and_its_panic_is_caught() {
    let client = TestClient::from_registry().await.unwrap();
    let sum: u64 = client
        .call_as("heavy", json!({ "fail": false }))
        .await
        .unwrap();
    assert_eq!(sum, 4096);
    let result = client.call("heavy", json!({ "fail": true })).await.unwrap();
    assert!(result.is_error);
    assert_eq!(
        result.text(),
        "tool `heavy` failed: it panicked: heavy failed on purpose"
    );
}
