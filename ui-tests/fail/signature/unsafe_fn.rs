use mcp_tool::mcp_tool;

/// Returns the byte at an address.
#[mcp_tool]
unsafe fn peek(address: usize) -> u8 {
    address as u8
}

fn main() {}
