use mcp_tool::mcp_resource;

/// A search's results.
#[mcp_resource(template = "search://results{?query,page}")]
fn results(query: String, page: u32) -> String {
    format!("{query} {page}")
}

fn main() {}
