//! What a call returns: structured output with a text fallback, plain content,
//! tool errors that name the tool, and protocol errors for unknown tools.

use mcp_tool::CallError;
use mcp_tool::model::{Content, ToolResult};
use mcp_tool::testing::{TestClient, TestError};
use mcp_tool::{ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

#[derive(Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
struct Stats {
    lines: u32,
    words: u32,
}

/// Returns the line and word counts of a text.
#[mcp_tool]
fn stats(
    /// The text.
    text: String,
) -> Stats {
    Stats {
        lines: text.lines().count() as u32,
        words: text.split_whitespace().count() as u32,
    }
}

/// Returns the length of a text in characters.
#[mcp_tool]
async fn length(
    /// The text.
    text: String,
) -> usize {
    text.chars().count()
}

/// Returns the words of a text, or an error for an empty text.
#[mcp_tool]
fn words(
    /// The text.
    text: String,
) -> Result<Vec<String>, ToolError> {
    if text.trim().is_empty() {
        return Err(ToolError::new("the text is empty: pass at least one word"));
    }
    Ok(text.split_whitespace().map(str::to_owned).collect())
}

/// Echoes a text back as plain text.
#[mcp_tool]
fn echo(
    /// The text.
    text: String,
) -> String {
    text
}

/// Does nothing and returns nothing.
#[mcp_tool]
fn noop() {}

/// Returns two text blocks.
#[mcp_tool]
fn two_blocks() -> Vec<Content> {
    vec![Content::text("one"), Content::text("two")]
}

/// Returns a result built by hand.
#[mcp_tool]
fn by_hand() -> ToolResult {
    ToolResult::new(vec![Content::text("made by hand")])
}

/// Reads a file that does not exist and fails with the I/O error.
#[mcp_tool]
async fn read_missing() -> Result<String, std::io::Error> {
    Err(std::io::Error::new(
        std::io::ErrorKind::NotFound,
        "no such file: report.csv",
    ))
}

/// Fails with a plain string error.
#[mcp_tool]
fn fails_with_text() -> Result<u8, String> {
    Err("quota exceeded".to_owned())
}

async fn client() -> TestClient {
    TestClient::from_registry().await.unwrap()
}

#[tokio::test]
async fn an_object_is_structured_with_a_json_text_fallback() {
    let result = client()
        .await
        .call("stats", json!({ "text": "a b\nc" }))
        .await
        .unwrap();
    assert!(!result.is_error);
    assert_eq!(result.structured, Some(json!({ "lines": 2, "words": 3 })));
    let fallback: serde_json::Value = serde_json::from_str(&result.text()).unwrap();
    assert_eq!(fallback, json!({ "lines": 2, "words": 3 }));
}

#[tokio::test]
async fn typed_decoding_of_structured_output() {
    let client = client().await;
    let stats: Stats = client
        .call_as("stats", json!({ "text": "x y" }))
        .await
        .unwrap();
    assert_eq!(stats, Stats { lines: 1, words: 2 });
    let words: Vec<String> = client
        .call_as("words", json!({ "text": "x y" }))
        .await
        .unwrap();
    assert_eq!(words, ["x", "y"]);
}

#[tokio::test]
async fn a_non_object_is_wrapped_as_result() {
    let result = client()
        .await
        .call("length", json!({ "text": "héllo" }))
        .await
        .unwrap();
    assert_eq!(result.structured, Some(json!({ "result": 5 })));
    assert_eq!(result.text(), r#"{"result":5}"#);
}

#[tokio::test]
async fn strings_unit_and_content_pass_through() {
    let client = client().await;
    let echo = client.call("echo", json!({ "text": "hi" })).await.unwrap();
    assert_eq!((echo.text().as_str(), echo.structured), ("hi", None));
    let noop = client.call("noop", json!({})).await.unwrap();
    assert!(noop.content.is_empty() && !noop.is_error, "{noop:?}");
    let blocks = client.call("two_blocks", json!(null)).await.unwrap();
    assert_eq!(blocks.text(), "one\ntwo");
    let by_hand = client.call("by_hand", json!({})).await.unwrap();
    assert_eq!(by_hand.text(), "made by hand");
}

#[tokio::test]
async fn errors_are_tool_errors_that_name_the_tool() {
    let client = client().await;
    let cases = [
        (
            "words",
            json!({ "text": " " }),
            "tool `words` failed: the text is empty: pass at least one word",
        ),
        (
            "read_missing",
            json!({}),
            "tool `read_missing` failed: no such file: report.csv",
        ),
        (
            "fails_with_text",
            json!({}),
            "tool `fails_with_text` failed: quota exceeded",
        ),
    ];
    for (name, args, expected) in cases {
        let result = client.call(name, args).await.unwrap();
        assert!(result.is_error, "{name}");
        assert_eq!(result.text(), expected);
    }
    let failed = client.call_as::<u8>("fails_with_text", json!({})).await;
    assert!(
        matches!(
            &failed,
            Err(TestError::ToolFailed(text)) if text == "tool `fails_with_text` failed: quota exceeded"
        ),
        "{failed:?}"
    );
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error_with_suggestions() {
    let client = client().await;
    let error = match client.call("stat", json!({})).await {
        Err(TestError::Call(error)) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    };
    assert_eq!(error.code(), -32602);
    assert_eq!(
        error,
        CallError::UnknownTool {
            name: "stat".into(),
            suggestions: vec!["stats".into()],
            message: "unknown tool `stat`; did you mean `stats`?".into(),
        }
    );

    let error = match client.call("zzzzzz", json!({})).await {
        Err(TestError::Call(error)) => error,
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    };
    assert_eq!(error.to_string(), "unknown tool `zzzzzz`");
    assert!(matches!(&error, CallError::UnknownTool { suggestions, .. } if suggestions.is_empty()));
    // The session goes on.
    let echo = client
        .call("echo", json!({ "text": "still here" }))
        .await
        .unwrap();
    assert_eq!(echo.text(), "still here");
}
