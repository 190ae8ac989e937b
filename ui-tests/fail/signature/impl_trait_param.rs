use mcp_tool::mcp_tool;

/// Echoes its input back.
#[mcp_tool]
fn echo(value: impl ToString) -> String {
    value.to_string()
}

fn main() {}
