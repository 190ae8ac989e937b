use mcp_tool::mcp_tool;

/// Returns the weather forecast for a city.
#[mcp_tool(name = "get weather")]
fn get_weather(city: String) -> String {
    city
}

fn main() {}
