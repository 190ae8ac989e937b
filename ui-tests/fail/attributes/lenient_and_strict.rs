use mcp_tool::mcp_tool;

/// Returns a count, doubled.
#[mcp_tool]
fn double(#[arg(lenient, strict)] count: u32) -> u32 {
    count * 2
}

fn main() {}
