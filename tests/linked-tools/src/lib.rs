//! Tools defined in a library that the test binaries never call directly.

use mcp_tool::mcp_tool;

/// Returns the text it was given, reversed.
#[mcp_tool]
pub fn reverse(
    /// The text to reverse.
    text: String,
) -> String {
    text.chars().rev().collect()
}
