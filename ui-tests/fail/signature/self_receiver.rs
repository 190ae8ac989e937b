use mcp_tool::mcp_tool;

struct Counter;

impl Counter {
    /// Counts the lines of a text.
    #[mcp_tool]
    fn count_lines(&self, text: String) -> usize {
        text.lines().count()
    }
}

fn main() {}
