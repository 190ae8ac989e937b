use mcp_tool::mcp_tool;

type Ctx = mcp_tool::Context;

/// Takes a context twice, once through an alias.
#[mcp_tool]
async fn twice(first: mcp_tool::Context, text: String, second: Ctx) -> String {
    drop((first, second));
    text
}

fn main() {}
