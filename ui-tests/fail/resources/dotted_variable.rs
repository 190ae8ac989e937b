use mcp_tool::mcp_resource;

/// A note's title.
#[mcp_resource(template = "notes://{note.title}")]
fn title(title: String) -> String {
    title
}

fn main() {}
