use mcp_tool::mcp_tool;

/// Builds the index, after asking.
#[mcp_tool(task_begins = "in_body")]
async fn build_index() -> String {
    "built".to_owned()
}

/// Builds the report, after asking.
#[mcp_tool(task = "required", task_begins = "later")]
async fn build_report() -> String {
    "built".to_owned()
}

fn main() {}
