//! Tags, icons and `_meta` from the attribute reach `tools/list`; the builder keeps or
//! leaves out tools by tag.

use mcp_tool::testing::TestClient;
use mcp_tool::{Server, ServerError, mcp_tool};
use serde_json::json;

/// Finds files whose name matches a pattern.
#[mcp_tool(
    tags = ["files", "read"],
    icons = ["https://example.com/icons/find.svg", "data:image/png;base64,iVBORw0KGgo="],
    meta = r#"{"com.example/owner": "search-team", "com.example/cost": 2}"#
)]
fn find(pattern: String) -> Vec<String> {
    vec![pattern]
}

/// Deletes one file by its path.
#[mcp_tool(tags = ["files", "write"], destructive)]
fn delete(path: String) -> String {
    path
}

/// Says hello.
#[mcp_tool]
fn hello() -> String {
    "hello".into()
}

#[tokio::test]
async fn tags_icons_and_meta_are_listed() {
    let client = TestClient::from_registry().await.unwrap();
    let find = client.tool("find").await.unwrap().expect("find is listed");
    let listed = serde_json::to_value(&find).unwrap();
    assert_eq!(
        listed["icons"],
        json!([
            { "src": "https://example.com/icons/find.svg", "mimeType": "image/svg+xml" },
            { "src": "data:image/png;base64,iVBORw0KGgo=", "mimeType": "image/png" }
        ])
    );
    assert_eq!(
        listed["_meta"],
        json!({
            "com.example/owner": "search-team",
            "com.example/cost": 2,
            "mcp-tool/tags": ["files", "read"]
        })
    );
    let hello = client
        .tool("hello")
        .await
        .unwrap()
        .expect("hello is listed");
    let listed = serde_json::to_value(&hello).unwrap();
    assert!(
        listed.get("icons").is_none() && listed.get("_meta").is_none(),
        "{listed}"
    );
}

fn names(server: Server) -> Vec<String> {
    let mut names: Vec<String> = (server.build().unwrap().tools().iter())
        .map(|tool| tool.name.clone())
        .collect();
    names.sort();
    names
}

#[test]
fn tools_are_kept_or_left_out_by_tag() {
    let server = || Server::from_registry("tags", "1");
    assert_eq!(names(server().with_tags(["files"])), ["delete", "find"]);
    assert_eq!(names(server().with_tags(["read"])), ["find"]);
    assert_eq!(names(server().without_tags(["write"])), ["find", "hello"]);
    assert_eq!(
        names(server().with_tags(["files"]).without_tags(["write"])),
        ["find"]
    );
    assert_eq!(
        names(server().with_tags(["read", "write"])),
        ["delete", "find"]
    );
    assert_eq!(
        names(server().with_tags(["files"]).only(["delete", "hello"])),
        ["delete"]
    );
}

#[test]
fn an_unknown_tag_is_an_error_with_a_suggestion() {
    let error = Server::from_registry("tags", "1")
        .with_tags(["raed"])
        .build()
        .unwrap_err();
    assert!(
        matches!(&error, ServerError::UnknownTag { tag, .. } if tag == "raed"),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "no registered tool carries the tag `raed` (did you mean `read`?)"
    );
    let error = Server::from_registry("tags", "1")
        .without_tags(["admin"])
        .build()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "no registered tool carries the tag `admin`"
    );
}

#[test]
fn tags_that_leave_no_tool_say_so() {
    let error = Server::from_registry("tags", "1")
        .with_tags(["read"])
        .without_tags(["files"])
        .build()
        .unwrap_err();
    assert!(matches!(error, ServerError::NoTools { .. }), "{error:?}");
    assert_eq!(
        error.to_string(),
        "the server has no tools: the tags given to `with_tags` and `without_tags` leave none"
    );
}
