//! What the server offers besides tools: the text of each file under the root as a
//! resource, and a prompt that sets the model to find files matching a description.

use mcp_tool::model::ResourceContents;
use mcp_tool::{State, ToolError, mcp_prompt, mcp_resource};

use super::{Root, resolve};

/// The largest file `file` reads whole.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// The contents of one file under the root, by its path relative to the root (as
/// `search` gives it): text as text, anything else as bytes, up to 1 MiB.
#[mcp_resource(template = "files:///{+path}", title = "File under the root")]
fn file(root: State<Root>, path: String) -> Result<ResourceContents, ToolError> {
    let full = resolve(&root, "path", &path)?;
    let metadata = std::fs::metadata(&full)
        .map_err(|error| ToolError::new(format!("cannot read `{path}`: {}", error.kind())))?;
    if metadata.is_dir() {
        return Err(ToolError::new(format!(
            "`{path}` is a directory: `search` lists the files in it"
        )));
    }
    if metadata.len() > MAX_FILE_BYTES {
        return Err(ToolError::new(format!(
            "`{path}` has {} bytes, over the 1 MiB this resource reads",
            metadata.len()
        )));
    }
    let bytes = std::fs::read(&full)
        .map_err(|error| ToolError::new(format!("cannot read `{path}`: {}", error.kind())))?;
    let uri = format!("files:///{path}");
    let guessed = mime_guess::from_path(&full).first_raw();
    // Text is UTF-8 without NUL bytes, as `git` tells text from binary.
    let text = if bytes.contains(&0) {
        Err(bytes)
    } else {
        String::from_utf8(bytes).map_err(|not_text| not_text.into_bytes())
    };
    Ok(match text {
        Ok(text) => {
            ResourceContents::text(uri, text).with_mime_type(guessed.unwrap_or("text/plain"))
        }
        Err(bytes) => ResourceContents::blob(uri, bytes)
            .with_mime_type(guessed.unwrap_or("application/octet-stream")),
    })
}

/// Asks the model to find the files under the root that match a description in words,
/// with `list_attributes` and `search`.
#[mcp_prompt(title = "Find files")]
fn find_files(
    /// The files wanted, in words, such as "Rust files over 10 kB changed this week".
    description: String,
    /// The most files to list. Defaults to 20.
    #[arg(range(min = 1, max = 1000))]
    limit: Option<u32>,
) -> String {
    let limit = limit.unwrap_or(20);
    format!(
        "Find the files under the root that match this description: {description}\n\n\
         First call `list_attributes` to learn which attributes a filter may use. Then call \
         `search` with a CEL filter that says the same as the description, such as \
         `ext == \"rs\" && size > 10000`, and `max_results` {limit}. If the filter is \
         refused, read why, fix it and search again. Answer with the paths found, one per \
         line, then the filter you used."
    )
}
