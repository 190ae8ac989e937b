use mcp_tool::mcp_tool;

/// Builds the index.
#[mcp_tool(task = "sometimes")]
async fn build_index() -> String {
    "built".to_owned()
}

fn main() {}
