//! Tools defined while the server runs (`mcp_tool::guide::runtime_tools`): one tool a
//! word given on the command line, each made with `RuntimeTool`, and `forget`, an
//! attribute tool that removes one of them, which the client hears as
//! `notifications/tools/list_changed`.
//!
//! ```text
//! cargo run -p mcp-tool --example runtime_tools -- hello goodbye   # serve over stdio
//! ```

use std::sync::OnceLock;

use mcp_tool::{Arguments, RuntimeTool, Server, ServerError, ToolError, ToolServer, mcp_tool};
use serde_json::json;

/// The running server, for `forget` to change its list.
static SERVER: OnceLock<ToolServer> = OnceLock::new();

/// A tool that repeats `word`, as a configuration file might describe it.
fn repeat(word: String) -> RuntimeTool {
    RuntimeTool::new(
        word.clone(),
        format!("Returns `{word}` `times` times, 1 to 10. Defaults to 1."),
    )
    .input_schema(json!({
        "type": "object",
        "properties": { "times": { "type": "integer", "minimum": 1, "maximum": 10 } }
    }))
    .read_only(true)
    .handler(move |mut args: Arguments| {
        let word = word.clone();
        async move {
            let times = args.optional_bounded_i64("times", 1, 10).unwrap_or(1);
            args.finish()?;
            Ok::<_, ToolError>(vec![word; usize::try_from(times).unwrap_or(1)].join(" "))
        }
    })
}

/// Removes the tool named `word`; the client is told that the list changed.
#[mcp_tool(destructive)]
fn forget(word: String) -> Result<String, ToolError> {
    let server = SERVER
        .get()
        .ok_or_else(|| ToolError::new("the server is not serving yet"))?;
    if server.remove_tool(&word) {
        Ok(format!("`{word}` forgotten"))
    } else {
        Err(ToolError::new(format!("no tool is named `{word}`")))
    }
}

#[tokio::main]
async fn main() -> Result<(), ServerError> {
    let mut builder = Server::from_registry("echoes", env!("CARGO_PKG_VERSION"));
    for word in std::env::args().skip(1) {
        builder = builder.tool(repeat(word));
    }
    let server = builder.build()?;
    let _ = SERVER.set(server.clone());
    server.serve_stdio().await
}
