use mcp_tool::mcp_resource;

/// A note.
#[mcp_resource(template = "notes://{title}}")]
fn note(title: String) -> String {
    title
}

fn main() {}
