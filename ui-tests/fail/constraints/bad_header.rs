use mcp_tool::mcp_tool;

/// Runs a query in a region.
#[mcp_tool]
fn query(
    #[arg(header = "The Region")] region: String,
    #[arg(header = "Zone")] zone: String,
    #[arg(header = "zone")] backup_zone: String,
) -> String {
    format!("{region} {zone} {backup_zone}")
}

fn main() {}
