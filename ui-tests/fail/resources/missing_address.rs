use mcp_tool::mcp_resource;

/// The settings.
#[mcp_resource(mime_type = "text/plain")]
fn settings() -> String {
    String::new()
}

fn main() {}
