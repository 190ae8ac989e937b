use mcp_tool::mcp_prompt;

/// Reviews a diff.
#[mcp_prompt]
fn review(#[arg(lenient)] diff: String) -> String {
    diff
}

fn main() {}
