use mcp_tool::mcp_tool;

/// Greets someone by name.
#[mcp_tool]
fn greet(name: String) -> impl std::fmt::Display {
    format!("Hello, {name}!")
}

fn main() {}
