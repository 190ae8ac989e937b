use mcp_tool::mcp_tool;

/// Echoes its input back.
#[mcp_tool]
fn echo<T: ToString>(value: T) -> String {
    value.to_string()
}

fn main() {}
