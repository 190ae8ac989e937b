use mcp_tool::mcp_resource;

/// One item of the catalogue.
#[mcp_resource(template = "shop://items/{id}")]
fn item(id: u32, verbose: bool) -> String {
    format!("{id} {verbose}")
}

fn main() {}
