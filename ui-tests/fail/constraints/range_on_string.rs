use mcp_tool::mcp_tool;

/// Greets someone by name.
#[mcp_tool]
fn greet(#[arg(range(min = 1, max = 64))] name: String) -> String {
    format!("Hello, {name}!")
}

fn main() {}
