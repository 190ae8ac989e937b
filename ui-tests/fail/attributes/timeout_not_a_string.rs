use mcp_tool::mcp_tool;

/// Searches the web and returns the first page of results.
#[mcp_tool(timeout = 30)]
async fn search(query: String) -> String {
    query
}

fn main() {}
