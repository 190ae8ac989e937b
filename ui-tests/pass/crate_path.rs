//! A crate that re-exports `mcp_tool` points the attribute at its re-export with
//! `crate = "path"` (as serde and tokio spell it); a bare path is accepted too.

mod reexport {
    pub use ::mcp_tool;
}

use reexport::mcp_tool::mcp_tool;

/// Returns a greeting.
#[mcp_tool(crate = "reexport::mcp_tool")]
fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

/// Returns a greeting, naming the re-export by an absolute path.
#[mcp_tool(crate = "crate::reexport::mcp_tool")]
async fn greet_later(name: String) -> Result<String, reexport::mcp_tool::ToolError> {
    Ok(format!("Hello, {name}!"))
}

/// Returns a greeting; the path may also be written without quotes.
#[mcp_tool(crate = reexport::mcp_tool)]
fn greet_bare(name: String) -> String {
    format!("Hello, {name}!")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    assert_eq!(greet("Ada".to_owned()), "Hello, Ada!");
    assert_eq!(
        greet_later("Ada".to_owned()).await.ok().as_deref(),
        Some("Hello, Ada!")
    );
    let names: Vec<_> = reexport::mcp_tool::registered()
        .iter()
        .map(|t| t.name())
        .collect();
    assert_eq!(greet_bare("Ada".to_owned()), "Hello, Ada!");
    assert_eq!(names, ["greet", "greet_bare", "greet_later"]);
}
