//! Saved searches: tools defined at run time from a TOML file, each a name, a
//! description and a CEL filter, served beside `search` and run as it runs.
//!
//! ```toml
//! [[search]]
//! name = "large_rust_files"
//! description = "Returns the Rust files over 10 KiB under the root, or under `path`."
//! filter = 'ext == "rs" && size > 10240'
//! ```

use std::path::Path;
use std::sync::Arc;

use anyhow::Context as _;
use mcp_tool::model::{Content, ToolResult};
use mcp_tool::{Arguments, Context, RuntimeTool, ToolError};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{Root, SearchResults, compile, walk};

/// A file of saved searches.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedSearches {
    #[serde(default)]
    search: Vec<SavedSearch>,
}

/// One saved search, served as a tool.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SavedSearch {
    name: String,
    description: String,
    filter: String,
}

// The arguments of every saved search: its doc comment would be the schema's description.
#[derive(JsonSchema)]
#[schemars(deny_unknown_fields)]
#[allow(dead_code)] // Only its schema is used: the handler reads the arguments by name.
struct SavedSearchArguments {
    /// A directory to search in, relative to the root. Defaults to the root.
    path: Option<String>,
    /// The most entries to return. Defaults to 100.
    #[schemars(range(min = 1, max = 1000))]
    max_results: Option<u32>,
}

/// The saved searches of `file` as tools over `root`; an error names the search whose
/// filter does not compile.
pub(crate) fn load(file: &Path, root: &Arc<Root>) -> anyhow::Result<Vec<RuntimeTool>> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the saved searches in {}", file.display()))?;
    let saved: SavedSearches = toml::from_str(&text)
        .with_context(|| format!("{} is not a file of saved searches", file.display()))?;
    saved
        .search
        .into_iter()
        .map(|search| {
            compile(&search.filter).map_err(|error| {
                anyhow::anyhow!(
                    "the filter of the saved search `{}` in {}: {error}",
                    search.name,
                    file.display()
                )
            })?;
            Ok(tool(search, Arc::clone(root)).origin(file.display().to_string()))
        })
        .collect()
}

/// A saved search as a tool: `search` with its filter fixed.
fn tool(search: SavedSearch, root: Arc<Root>) -> RuntimeTool {
    let filter: Arc<str> = search.filter.into();
    RuntimeTool::new(search.name, search.description)
        .input_schema_for::<SavedSearchArguments>()
        .output_schema_for::<SearchResults>()
        .read_only(true)
        .idempotent(true)
        .tags(["saved-search"])
        .handler(move |mut args: Arguments, ctx: Context| {
            let (root, filter) = (Arc::clone(&root), Arc::clone(&filter));
            async move {
                let path = args.optional_str("path");
                let max_results = args.optional_bounded_i64("max_results", 1, 1000);
                args.finish()?;
                let max_results = max_results.and_then(|n| u32::try_from(n).ok());
                // The walk blocks, and reports progress through the runtime: a thread of its own.
                let found = tokio::task::spawn_blocking(move || {
                    let program = compile(&filter)?;
                    walk(
                        &ctx,
                        &root,
                        Some(&program),
                        path.as_deref(),
                        max_results.unwrap_or(100),
                    )
                })
                .await
                .map_err(|error| ToolError::new(format!("the search stopped: {error}")))??;
                let value = serde_json::to_value(&found)
                    .map_err(|error| ToolError::new(format!("the results: {error}")))?;
                Ok::<_, ToolError>(
                    ToolResult::new(vec![Content::text(value.to_string())]).with_structured(value),
                )
            }
        })
}
