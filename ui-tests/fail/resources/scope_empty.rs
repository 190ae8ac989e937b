use mcp_tool::mcp_resource;

/// The server's configuration.
#[mcp_resource(uri = "config://server", scopes = [""])]
fn config() -> String {
    "{}".to_owned()
}

fn main() {}
