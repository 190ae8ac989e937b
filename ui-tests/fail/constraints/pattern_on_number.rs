use mcp_tool::mcp_tool;

/// Returns the square of a number.
#[mcp_tool]
fn square(#[arg(pattern = "^[0-9]+$")] n: u32) -> u64 {
    u64::from(n) * u64::from(n)
}

fn main() {}
