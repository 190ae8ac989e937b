use mcp_tool::mcp_prompt;

#[mcp_prompt]
fn review(diff: String) -> String {
    diff
}

fn main() {}
