use mcp_tool::mcp_tool;

/// Returns the name of a city.
#[mcp_tool(schema = 2020)]
fn city(name: String) -> String {
    name
}

fn main() {}
