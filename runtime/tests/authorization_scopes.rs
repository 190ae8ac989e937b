//! Scopes on prompts, resources and tools added at run time are checked as a tool's are:
//! a get or a read without them gets `403`, and their lists show a caller only what it
//! may get; over an in-memory session (as over stdio) a tool sees no caller.

#![cfg(feature = "auth")]

mod common;

use mcp_tool::testing::TestClient;
use mcp_tool::{
    Arguments, Context, RuntimeTool, Server, ToolError, mcp_prompt, mcp_resource, mcp_tool,
};
use serde_json::{Value, json};

use common::authorized::{call, send, setup};

/// Says who called.
#[mcp_tool]
fn whoami(ctx: Context) -> String {
    ctx.auth().map_or_else(
        || "nobody".to_owned(),
        |auth| auth.principal().name().to_owned(),
    )
}

/// Asks the model to review a change.
#[mcp_prompt(scopes = ["prompts:review"])]
fn review(change: String) -> String {
    format!("Review this change: {change}")
}

/// Greets someone.
#[mcp_prompt]
fn greet(name: String) -> String {
    format!("Say hello to {name}")
}

/// A secret of the vault, by its name.
#[mcp_resource(template = "vault://secrets/{name}", scopes = ["vault:read"])]
fn secret(name: String) -> String {
    format!("the secret {name}")
}

fn purge() -> RuntimeTool {
    RuntimeTool::new("purge", "Deletes the cache.")
        .scopes(["cache:admin"])
        .handler(|args: Arguments, _ctx: Context| async move {
            args.finish()?;
            Ok::<_, ToolError>("purged".to_owned())
        })
}

async fn rpc(url: &str, token: &str, method: &str, params: Value) -> common::authorized::Reply {
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params });
    send(http::Method::POST, url, Some(token), Some(body)).await
}

#[tokio::test]
async fn prompts_resources_and_run_time_tools_need_their_scopes() {
    let setup = setup(|server| server.tool(purge())).await;
    let url = setup.server.url();
    let weak = setup.token("");
    let review = json!({ "name": "review", "arguments": { "change": "x" } });
    let reply = rpc(&url, &weak, "prompts/get", review.clone()).await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert!(
        reply
            .challenge
            .unwrap()
            .contains("scope=\"prompts:review\"")
    );
    let greet = json!({ "name": "greet", "arguments": { "name": "Ada" } });
    assert_eq!(rpc(&url, &weak, "prompts/get", greet).await.status, 200);
    let read = json!({ "uri": "vault://secrets/db" });
    let reply = rpc(&url, &weak, "resources/read", read.clone()).await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    assert!(reply.challenge.unwrap().contains("scope=\"vault:read\""));
    let reply = call(&url, Some(&weak), "purge", json!({})).await;
    assert_eq!(reply.status, 403, "{}", reply.body);

    let strong = setup.token("prompts:review vault:read cache:admin");
    assert_eq!(rpc(&url, &strong, "prompts/get", review).await.status, 200);
    let reply = rpc(&url, &strong, "resources/read", read).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    assert_eq!(
        reply.json()["result"]["contents"][0]["text"],
        "the secret db"
    );
    let reply = call(&url, Some(&strong), "purge", json!({})).await;
    assert_eq!(reply.json()["result"]["content"][0]["text"], "purged");
    setup.server.stop().await;
}

#[tokio::test]
async fn prompt_and_template_lists_show_only_what_the_token_may_get() {
    let setup = setup(|server| server).await;
    let url = setup.server.url();
    let names = |reply: common::authorized::Reply, key: &str, field: &str| -> Vec<String> {
        let items = reply.json()["result"][key].as_array().unwrap().clone();
        items
            .iter()
            .map(|item| item[field].as_str().unwrap().to_owned())
            .collect()
    };
    let weak = setup.token("");
    let prompts = rpc(&url, &weak, "prompts/list", json!({})).await;
    assert_eq!(names(prompts, "prompts", "name"), ["greet"]);
    let templates = rpc(&url, &weak, "resources/templates/list", json!({})).await;
    assert!(names(templates, "resourceTemplates", "name").is_empty());
    let strong = setup.token("prompts:review vault:read");
    let prompts = rpc(&url, &strong, "prompts/list", json!({})).await;
    assert_eq!(names(prompts, "prompts", "name"), ["greet", "review"]);
    let templates = rpc(&url, &strong, "resources/templates/list", json!({})).await;
    assert_eq!(names(templates, "resourceTemplates", "name"), ["secret"]);
    let metadata = format!(
        "http://{}/.well-known/oauth-protected-resource",
        setup.server.address
    );
    let document = send(http::Method::GET, &metadata, None, None).await.json();
    assert_eq!(
        document["scopes_supported"],
        json!(["prompts:review", "vault:read"])
    );
    setup.server.stop().await;
}

#[tokio::test]
async fn a_tool_called_without_http_sees_no_caller() {
    let server = Server::from_registry("auth-test", "1").build().unwrap();
    let client = TestClient::connect(server).await.unwrap();
    let result = client.call("whoami", json!({})).await.unwrap();
    assert_eq!(result.text(), "nobody");
}
