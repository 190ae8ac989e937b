use mcp_tool::mcp_tool;

type Name = String;

/// Greets someone by name.
#[mcp_tool]
fn greet(#[arg(range(min = 1, max = 64))] name: Name) -> String {
    format!("Hello, {name}!")
}

fn main() {}
