// Prompts and resources compile beside shadowed names, as tools do.
#![allow(dead_code)]

use mcp_tool::model::PromptMessage;
use mcp_tool::{Context, mcp_prompt, mcp_resource};

mod serde {}
mod schemars {}
type Result<T> = core::result::Result<T, ()>;
struct Option;

/// Asks for a review.
#[mcp_prompt]
async fn review(
    ctx: Context,
    /// The diff.
    diff: String,
    /// How strict, 1 to 3.
    #[arg(range(min = 1, max = 3), complete = strictness)]
    level: core::option::Option<u8>,
) -> Vec<PromptMessage> {
    let _ = ctx.request_id();
    vec![PromptMessage::user(format!("{diff} {level:?}"))]
}

fn strictness(_: &str) -> [&'static str; 3] {
    ["1", "2", "3"]
}

/// A note by title.
#[mcp_resource(template = "notes://{title}", mime_type = "text/markdown")]
fn note(title: String) -> core::result::Result<String, mcp_tool::ToolError> {
    Ok(title)
}

fn main() {
    let server = mcp_tool::Server::from_registry("notes", "1.0.0").build().unwrap();
    let names: Vec<&str> = server.prompts().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["review"]);
    let templates = server.resource_templates().iter();
    let uris: Vec<&str> = templates.map(|r| r.uri_template.as_str()).collect();
    assert_eq!(uris, ["notes://{title}"]);
}
