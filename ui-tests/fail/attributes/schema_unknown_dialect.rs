use mcp_tool::mcp_tool;

/// Returns the name of a city.
#[mcp_tool(schema = "draft-07")]
fn city(name: String) -> String {
    name
}

fn main() {}
