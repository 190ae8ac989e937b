//! Every kind of content a tool can return reaches the client as the tool built it:
//! text, image and audio bytes with their MIME type, embedded text and binary
//! resources, resource links, annotations on each, and a whole result with a
//! structured value and the error flag. Each test goes through a real session, so
//! the values cross the wire as JSON and come back.

use mcp_tool::mcp_tool;
use mcp_tool::model::{Annotations, Content, ResourceContents, ResourceLink, Role, ToolResult};
use mcp_tool::testing::TestClient;
use serde_json::json;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
const WAV: &[u8] = b"RIFF\x24\0\0\0WAVEfmt ";

fn every_block() -> Vec<Content> {
    vec![
        Content::text("plain"),
        Content::text("for the user only").with_annotations(
            Annotations::new()
                .with_audience([Role::User])
                .with_priority(0.25)
                .with_last_modified("2026-01-31T12:00:00Z"),
        ),
        Content::image(PNG, "image/png"),
        Content::audio(WAV, "audio/wav")
            .with_annotations(Annotations::new().with_audience([Role::Assistant, Role::User])),
        Content::resource(
            ResourceContents::text("file:///notes.md", "# Notes").with_mime_type("text/markdown"),
        ),
        Content::resource(ResourceContents::blob("file:///logo.png", PNG))
            .with_annotations(Annotations::new().with_priority(1.0)),
        Content::resource_link(
            ResourceLink::new("file:///data/big.csv", "big.csv")
                .with_title("Measurements")
                .with_description("Every measurement of 2026")
                .with_mime_type("text/csv")
                .with_size(48_213_004),
        ),
    ]
}

/// Returns one block of every kind.
#[mcp_tool]
fn every_kind() -> Vec<Content> {
    every_block()
}

/// Returns a single image.
#[mcp_tool]
async fn one_image() -> Content {
    Content::image(PNG, "image/png")
}

/// Returns content with a structured value, marked failed when asked to.
#[mcp_tool]
fn full_control(
    /// Whether to report a failure.
    fail: bool,
) -> ToolResult {
    ToolResult::new(vec![Content::text("two problems")])
        .with_structured(json!({ "problems": ["a", "b"] }))
        .with_error(fail)
}

/// Returns an image, or fails with a message for the model.
#[mcp_tool]
fn maybe_image(
    /// Whether to fail.
    fail: bool,
) -> Result<Content, mcp_tool::ToolError> {
    if fail {
        Err(mcp_tool::ToolError::new("no image today"))
    } else {
        Ok(Content::image(PNG, "image/png"))
    }
}

async fn client() -> TestClient {
    TestClient::from_registry().await.unwrap()
}

#[tokio::test]
async fn every_kind_of_block_arrives_as_the_tool_built_it() {
    let result = client().await.call("every_kind", json!({})).await.unwrap();
    assert!(!result.is_error);
    assert_eq!(result.structured, None);
    assert_eq!(result.content, every_block());
}

#[tokio::test]
async fn media_keep_their_bytes_and_mime_type() {
    let result = client().await.call("every_kind", json!({})).await.unwrap();
    let (Content::Image(image), Content::Audio(audio)) = (&result.content[2], &result.content[3])
    else {
        panic!("expected an image and a sound: {:?}", result.content);
    };
    assert_eq!(image.bytes().as_deref(), Some(PNG));
    assert_eq!(image.mime_type, "image/png");
    assert_eq!(audio.bytes().as_deref(), Some(WAV));
    assert_eq!(audio.mime_type, "audio/wav");
    let Content::Resource(blob) = &result.content[5] else {
        panic!("expected an embedded resource: {:?}", result.content[5]);
    };
    assert_eq!(blob.contents.bytes().as_deref(), Some(PNG));
    assert_eq!(blob.contents.uri(), "file:///logo.png");
}

#[tokio::test]
async fn a_single_block_is_a_result_of_one_block() {
    let result = client().await.call("one_image", json!({})).await.unwrap();
    assert_eq!(
        result,
        ToolResult::new(vec![Content::image(PNG, "image/png")])
    );
}

#[tokio::test]
async fn a_whole_result_keeps_its_structured_value_and_error_flag() {
    let client = client().await;
    for fail in [false, true] {
        let result = client
            .call("full_control", json!({ "fail": fail }))
            .await
            .unwrap();
        assert_eq!(
            result,
            ToolResult::new(vec![Content::text("two problems")])
                .with_structured(json!({ "problems": ["a", "b"] }))
                .with_error(fail)
        );
    }
}

#[tokio::test]
async fn a_result_of_content_is_content_or_a_tool_error() {
    let client = client().await;
    let image = client
        .call("maybe_image", json!({ "fail": false }))
        .await
        .unwrap();
    assert_eq!(
        image,
        ToolResult::new(vec![Content::image(PNG, "image/png")])
    );
    let failed = client
        .call("maybe_image", json!({ "fail": true }))
        .await
        .unwrap();
    assert!(failed.is_error);
    assert_eq!(failed.text(), "tool `maybe_image` failed: no image today");
}

#[tokio::test]
async fn content_tools_list_no_output_schema() {
    let client = client().await;
    for name in ["every_kind", "one_image", "full_control", "maybe_image"] {
        let tool = client.tool(name).await.unwrap().expect("listed");
        assert_eq!(tool.output_schema, None, "{name}");
    }
}
