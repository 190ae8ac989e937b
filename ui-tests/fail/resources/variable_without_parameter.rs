use mcp_tool::mcp_resource;

/// One item of the catalogue.
#[mcp_resource(template = "shop://items/{id}/{variant}")]
fn item(id: u32) -> String {
    id.to_string()
}

fn main() {}
