use mcp_tool::mcp_tool;

/// Greets someone by name.
#[mcp_tool]
fn greet(#[arg(pattern = "^[a-z+$")] name: String) -> String {
    format!("Hello, {name}!")
}

fn main() {}
