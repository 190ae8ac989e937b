use mcp_tool::mcp_prompt;

/// Asks the model to review a change.
#[mcp_prompt(scopes = ["prompts:read review"])]
fn review(change: String) -> String {
    format!("Review this change: {change}")
}

fn main() {}
