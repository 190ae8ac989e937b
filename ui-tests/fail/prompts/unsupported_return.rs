use mcp_tool::mcp_prompt;

/// Asks for a review of a diff.
#[mcp_prompt]
fn review(diff: String) -> u32 {
    diff.len() as u32
}

fn main() {}
