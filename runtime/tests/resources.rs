//! `#[mcp_resource]`: fixed resources and templates listed, read as text or as a blob
//! with their MIME types, template variables bound to parameters and read as their types
//! want, completion of variables, subscriptions; and each failure a JSON-RPC error that
//! says what is wrong: an unknown URI (SEP-2164), a variable of the wrong type, a
//! resource's own error, a panic (masked).

use mcp_tool::model::{Notification, ResourceContents};
use mcp_tool::testing::{TestClient, TestError};
use mcp_tool::{CallError, Server, ToolError, mcp_resource};
use serde_json::json;

/// The greeting every session starts with.
#[mcp_resource(uri = "test://greeting", title = "Greeting")]
fn greeting() -> &'static str {
    "Hello, world."
}

/// A one-pixel logo.
#[mcp_resource(uri = "test://logo", mime_type = "image/png")]
fn logo() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

/// One item of the catalogue, as JSON.
#[mcp_resource(template = "test://items/{id}", mime_type = "application/json")]
fn item(#[arg(range(max = 999), complete = item_ids)] id: u32) -> Result<String, ToolError> {
    if id == 0 {
        return Err(ToolError::new("there is no item 0: ids start at 1"));
    }
    Ok(json!({ "id": id, "name": format!("item {id}") }).to_string())
}

fn item_ids(typed: &str) -> Vec<String> {
    ["1", "12", "123", "7"]
        .into_iter()
        .filter(|id| id.starts_with(typed))
        .map(str::to_owned)
        .collect()
}

/// A file's text and its size, under any path.
#[mcp_resource(template = "files:///{+path}")]
async fn file(path: String) -> Vec<ResourceContents> {
    vec![
        ResourceContents::text(format!("files:///{path}"), format!("text of {path}")),
        ResourceContents::text(format!("files:///{path}#size"), "42").with_mime_type("text/x-size"),
    ]
}

/// Fails with a secret in its message.
#[mcp_resource(uri = "test://vault")]
fn vault() -> Result<String, std::io::Error> {
    Err(std::io::Error::other(
        "cannot open /srv/vault/keys.db with password=hunter2",
    ))
}

/// Panics.
#[mcp_resource(uri = "test://broken")]
fn broken() -> String {
    panic!("the index at /var/lib/app/index is corrupt")
}

async fn client() -> TestClient {
    let server = Server::from_registry("resources", "1.0.0").build().unwrap();
    TestClient::connect(server).await.unwrap()
}

fn protocol_error(error: TestError) -> (i32, String, Option<serde_json::Value>) {
    match error {
        TestError::Call(CallError::Protocol {
            code,
            message,
            data,
        }) => (code, message, data),
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test]
async fn resources_and_templates_are_listed() {
    let client = client().await;
    let resources = client.resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "test://broken",
            "test://greeting",
            "test://logo",
            "test://vault"
        ]
    );
    let greeting = resources
        .iter()
        .find(|r| r.uri == "test://greeting")
        .unwrap();
    assert_eq!(greeting.name, "greeting");
    assert_eq!(greeting.title.as_deref(), Some("Greeting"));
    assert_eq!(
        greeting.description.as_deref(),
        Some("The greeting every session starts with.")
    );
    let logo = resources.iter().find(|r| r.uri == "test://logo").unwrap();
    assert_eq!(logo.mime_type.as_deref(), Some("image/png"));

    let templates = client.resource_templates().await.unwrap();
    let templates: Vec<(&str, Option<&str>)> = (templates.iter())
        .map(|t| (t.uri_template.as_str(), t.mime_type.as_deref()))
        .collect();
    assert_eq!(
        templates,
        [
            ("files:///{+path}", None),
            ("test://items/{id}", Some("application/json"))
        ]
    );
}

#[tokio::test]
async fn text_and_bytes_are_read_with_their_mime_types() {
    let client = client().await;
    let text = client.read_resource("test://greeting").await.unwrap();
    assert_eq!(
        text,
        [ResourceContents::text("test://greeting", "Hello, world.").with_mime_type("text/plain")]
    );
    let logo = client.read_resource("test://logo").await.unwrap();
    assert_eq!(logo.len(), 1);
    assert_eq!(logo[0].mime_type(), Some("image/png"));
    assert_eq!(
        logo[0].bytes().as_deref(),
        Some(&[0x89, b'P', b'N', b'G'][..])
    );
}

#[tokio::test]
async fn a_template_binds_its_variables_to_the_parameters() {
    let client = client().await;
    let item = client.read_resource("test://items/12").await.unwrap();
    assert_eq!(item[0].uri(), "test://items/12");
    assert_eq!(item[0].mime_type(), Some("application/json"));
    assert_eq!(item[0].as_text(), Some(r#"{"id":12,"name":"item 12"}"#));

    let file = client.read_resource("files:///src/main.rs").await.unwrap();
    let texts: Vec<(&str, Option<&str>)> = file.iter().map(|c| (c.uri(), c.as_text())).collect();
    assert_eq!(
        texts,
        [
            ("files:///src/main.rs", Some("text of src/main.rs")),
            ("files:///src/main.rs#size", Some("42"))
        ]
    );
}

#[tokio::test]
async fn a_variable_that_does_not_fit_its_type_is_invalid_params_naming_it() {
    let client = client().await;
    let (code, message, _) =
        protocol_error(client.read_resource("test://items/abc").await.unwrap_err());
    assert_eq!(code, -32602);
    assert_eq!(
        message,
        "invalid arguments for resource `test://items/abc`: `id`: expected an integer from 0 \
         to 999"
    );

    let (code, message, _) =
        protocol_error(client.read_resource("test://items/1000").await.unwrap_err());
    assert_eq!(code, -32602);
    assert_eq!(
        message,
        "invalid arguments for resource `test://items/1000`: `id`: expected an integer from 0 \
         to 999"
    );
}

#[tokio::test]
async fn an_unknown_uri_is_invalid_params_with_the_uri_in_data() {
    let client = client().await;
    let uri = "test://nonexistent";
    let (code, message, data) = protocol_error(client.read_resource(uri).await.unwrap_err());
    assert_eq!(code, -32602);
    assert_eq!(
        message,
        "resource not found: no resource of this server is at `test://nonexistent`; \
         `resources/list` and `resources/templates/list` name the ones it has"
    );
    assert_eq!(data, Some(json!({ "uri": uri })));

    // Credentials in an unknown URI stay on the server.
    let secret = "https://admin:hunter2@example.com/db";
    let (code, message, data) = protocol_error(client.read_resource(secret).await.unwrap_err());
    assert_eq!(code, -32602);
    assert_eq!(
        message,
        "resource not found: no resource of this server is at `https://***@example.com/db`; \
         `resources/list` and `resources/templates/list` name the ones it has"
    );
    assert_eq!(data, Some(json!({ "uri": "https://***@example.com/db" })));
}

#[tokio::test]
async fn a_resource_error_is_masked_and_a_panic_is_reported() {
    let client = client().await;
    let (code, message, _) =
        protocol_error(client.read_resource("test://items/0").await.unwrap_err());
    assert_eq!(code, -32603);
    assert_eq!(
        message,
        "resource `test://items/0` failed: there is no item 0: ids start at 1"
    );

    let (code, message, _) =
        protocol_error(client.read_resource("test://vault").await.unwrap_err());
    assert_eq!(code, -32603);
    assert_eq!(
        message,
        "resource `test://vault` failed: cannot open keys.db with password=***"
    );

    let (code, message, _) =
        protocol_error(client.read_resource("test://broken").await.unwrap_err());
    assert_eq!(code, -32603);
    assert_eq!(
        message,
        "resource `test://broken` failed: it panicked: the index at index is corrupt"
    );
    // The session goes on.
    let greeting = client.read_resource("test://greeting").await.unwrap();
    assert_eq!(greeting[0].as_text(), Some("Hello, world."));
}

#[tokio::test]
async fn template_variables_are_completed_by_their_function() {
    let client = client().await;
    let completion = (client.complete_template_variable("test://items/{id}", "id", "1"))
        .await
        .unwrap();
    assert_eq!(completion.values, ["1", "12", "123"]);
    let (code, message, _) = protocol_error(
        (client.complete_template_variable("test://item/{id}", "id", ""))
            .await
            .unwrap_err(),
    );
    assert_eq!(code, -32602);
    assert_eq!(
        message,
        "no resource template is `test://item/{id}`: `resources/templates/list` lists them"
    );
}

#[tokio::test]
async fn a_subscribed_session_hears_of_changes_until_it_unsubscribes() {
    let server = Server::from_registry("resources", "1.0.0").build().unwrap();
    let client = TestClient::connect(server.clone()).await.unwrap();
    client.subscribe("test://greeting").await.unwrap();
    assert_eq!(server.notify_resource_updated("test://greeting").await, 1);
    assert_eq!(server.notify_resource_updated("test://logo").await, 0);
    // The notification travels to the client: wait until it is there.
    let mut heard = Vec::new();
    for _ in 0..100 {
        heard.extend(client.take_notifications());
        if !heard.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(
        heard,
        [Notification::ResourceUpdated("test://greeting".into())]
    );

    client.unsubscribe("test://greeting").await.unwrap();
    assert_eq!(server.notify_resource_updated("test://greeting").await, 0);
}
