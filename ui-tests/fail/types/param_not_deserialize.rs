use mcp_tool::mcp_tool;

struct Point {
    x: f64,
    y: f64,
}

/// Returns the distance of a point from the origin.
#[mcp_tool]
fn norm(point: Point) -> f64 {
    (point.x * point.x + point.y * point.y).sqrt()
}

fn main() {}
