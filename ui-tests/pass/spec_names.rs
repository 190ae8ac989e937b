//! Explicit names follow the MCP specification's rule, not Rust's: 1 to 128 characters
//! from `A-Z`, `a-z`, `0-9`, `_`, `-` and `.`.

use mcp_tool::mcp_tool;

/// Returns the weather forecast for a city.
#[mcp_tool(name = "get-weather")]
fn get_weather(city: String) -> String {
    city
}

/// Returns the time zone of a city.
#[mcp_tool(name = "Geo.TimeZone_v2")]
fn time_zone(city: String) -> String {
    city
}

/// Returns its input unchanged; its name is as long as names may be.
#[mcp_tool(name = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")]
fn echo(text: String) -> String {
    text
}

fn main() {
    let mut names: Vec<&str> = mcp_tool::registered().iter().map(|t| t.name()).collect();
    names.sort_unstable();
    assert_eq!(names, ["Geo.TimeZone_v2", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "get-weather"]);
}
