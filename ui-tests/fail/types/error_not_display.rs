use mcp_tool::mcp_tool;

#[derive(Debug)]
struct NotDisplay;

/// Parses a decimal number.
#[mcp_tool]
fn parse(text: String) -> Result<u32, NotDisplay> {
    text.parse().map_err(|_| NotDisplay)
}

fn main() {}
