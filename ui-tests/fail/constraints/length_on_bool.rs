use mcp_tool::mcp_tool;

/// Returns a flag unchanged.
#[mcp_tool]
fn echo_flag(#[arg(length(max = 1))] flag: bool) -> bool {
    flag
}

fn main() {}
