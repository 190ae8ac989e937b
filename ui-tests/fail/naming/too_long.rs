use mcp_tool::mcp_tool;

/// Reads a text file and returns its contents.
#[mcp_tool(name = "read_a_text_file_from_the_workspace_and_return_its_contents_as_utf8_text_after_checking_that_the_path_is_inside_the_workspace_root")]
fn read_file(path: String) -> String {
    path
}

fn main() {}
