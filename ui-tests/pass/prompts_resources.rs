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
    let names: Vec<&str> = mcp_tool::registered_prompts().iter().map(|p| p.name()).collect();
    assert_eq!(names, ["review"]);
    let uris: Vec<&str> = mcp_tool::registered_resources().iter().map(|r| r.uri()).collect();
    assert_eq!(uris, ["notes://{title}"]);
}
