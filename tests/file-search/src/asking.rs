//! The tools that ask the client during a call: its user which file (elicitation), its
//! model what a file is (sampling), or both, one after the other. The same bodies serve
//! every protocol version: on 2025-11-25 each question is a request to the client; on
//! 2026-07-28 the call ends with the question and runs again from the start once the
//! client answers, so the tools do nothing before their questions that must happen once.

use mcp_tool::model::{Elicitation, ElicitationRequest, SamplingRequest};
use mcp_tool::{Context, State, ToolError, mcp_tool};

use crate::{Root, resolve};

/// The most bytes of a file the client's model is shown.
const SHOWN_BYTES: usize = 2048;

/// The file the user chose.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Chosen {
    /// Its path relative to the root; absent when the user chose none.
    path: Option<String>,
}

/// What the client's model said a file is.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Described {
    /// The file's path relative to the root; absent when the user chose none.
    path: Option<String>,
    /// The model's sentence; absent when no file was chosen.
    description: Option<String>,
}

/// The form `choose_file` shows the user.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Choice {
    /// The name of the file, as listed.
    name: String,
}

/// The files directly in `dir`, by name, in order.
fn files_in(root: &Root, dir: &str) -> Result<Vec<String>, ToolError> {
    let full = resolve(root, "dir", dir)?;
    let entries = std::fs::read_dir(&full)
        .map_err(|_| ToolError::new("`dir` must name a directory that can be read"))?;
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_file()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(ToolError::new(format!(
            "`{dir}` holds no files to choose from"
        )));
    }
    Ok(names)
}

/// Asks the user which file of `dir` they mean; its path relative to the root.
async fn ask_which(ctx: &Context, root: &Root, dir: &str) -> Result<Option<String>, ToolError> {
    let names = files_in(root, dir)?;
    let message = format!("Which file of {dir}? {}", names.join(", "));
    let form = ElicitationRequest::for_type::<Choice>(message)?;
    match ctx.elicit_with::<Choice>(form).await? {
        Elicitation::Accepted(Choice { name }) if names.contains(&name) => {
            Ok(Some(format!("{}/{name}", dir.trim_end_matches('/'))))
        }
        Elicitation::Accepted(Choice { name }) => Err(ToolError::new(format!(
            "the user chose `{name}`, which is not one of the files listed"
        ))),
        Elicitation::Declined | Elicitation::Cancelled => Ok(None),
    }
}

/// Asks the client's model what the file at `path` is, from its first bytes.
async fn ask_what(ctx: &Context, root: &Root, path: &str) -> Result<String, ToolError> {
    let full = resolve(root, "path", path)?;
    let bytes = std::fs::read(&full)
        .map_err(|_| ToolError::new("`path` must name a file that can be read"))?;
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN_BYTES)]).into_owned();
    let request = SamplingRequest::new(format!("What is this file, in one sentence?\n\n{head}"))
        .with_system_prompt("Answer with one sentence.")
        .with_max_tokens(100);
    ctx.sample(request).await
}

/// Lists the files directly in the directory `dir` (relative to the root) and asks the user which one they mean (elicitation); returns its path relative to the root.
#[mcp_tool(read_only)]
async fn choose_file(
    ctx: Context,
    root: State<Root>,
    /// A directory relative to the root, e.g. `src`.
    dir: String,
) -> Result<Chosen, ToolError> {
    let path = ask_which(&ctx, &root, &dir).await?;
    Ok(Chosen { path })
}

/// Asks the client's model to say in one sentence what the file at `path` (relative to the root) is, from its first 2 KB (sampling).
#[mcp_tool(read_only)]
async fn describe_file(
    ctx: Context,
    root: State<Root>,
    /// The file's path relative to the root, e.g. `src/main.rs`.
    path: String,
) -> Result<Described, ToolError> {
    let description = ask_what(&ctx, &root, &path).await?;
    Ok(Described {
        path: Some(path),
        description: Some(description),
    })
}

/// Asks the user which file of the directory `dir` they mean, then asks the client's model what it is: two questions, in two rounds on protocol 2026-07-28.
#[mcp_tool(read_only)]
async fn choose_and_describe(
    ctx: Context,
    root: State<Root>,
    /// A directory relative to the root, e.g. `src`.
    dir: String,
) -> Result<Described, ToolError> {
    let Some(path) = ask_which(&ctx, &root, &dir).await? else {
        return Ok(Described {
            path: None,
            description: None,
        });
    };
    let description = ask_what(&ctx, &root, &path).await?;
    Ok(Described {
        path: Some(path),
        description: Some(description),
    })
}
