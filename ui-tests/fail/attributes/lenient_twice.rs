use mcp_tool::mcp_tool;

/// Returns a count, doubled.
#[mcp_tool(lenient)]
fn double(#[arg(lenient)] count: u32) -> u32 {
    count * 2
}

fn main() {}
