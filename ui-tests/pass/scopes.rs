//! `scopes` on a tool, a prompt and a resource: RFC 6749 scope tokens, kept by the entries.

use mcp_tool::{mcp_prompt, mcp_resource, mcp_tool};

/// Deletes one file by its path.
#[mcp_tool(scopes = ["files:write", "https://example.com/scopes/admin"], destructive)]
fn delete(path: String) -> String {
    path
}

/// Asks the model to review a change.
#[mcp_prompt(scopes = ["prompts:review"])]
fn review(change: String) -> String {
    format!("Review this change: {change}")
}

/// The server's configuration.
#[mcp_resource(uri = "config://server", scopes = ["config:read"])]
fn config() -> String {
    "{}".to_owned()
}

fn main() {
    let server = mcp_tool::Server::from_registry("scoped", "1").build().unwrap();
    let delete = &server.tools()[0];
    assert_eq!(delete.scopes, ["files:write", "https://example.com/scopes/admin"]);
}
