//! The tool that runs as a task: `index_files` reads every file under a directory, one
//! at a time, and counts them, their lines and their bytes. A client that declares the
//! tasks extension gets a task id at once and polls it: each file read is the task's
//! status message, the question `confirm` asks makes the task wait for input until the
//! client answers, and a cancellation ends the walk before the next file, saying so in
//! the server's log. Other clients get the counts within their request.

use std::path::PathBuf;
use std::time::Duration;

use mcp_tool::model::Elicitation;
use mcp_tool::{Context, State, ToolError, mcp_tool};

use crate::{Root, resolve};

/// What `index_files` counted.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct Indexed {
    /// The directory indexed, relative to the root.
    path: String,
    /// How many files were read.
    files: u64,
    /// How many lines the UTF-8 text files among them hold.
    lines: u64,
    /// How many bytes they hold.
    bytes: u64,
    /// True when the user was asked and declined: nothing was read.
    declined: bool,
}

/// The form `confirm` shows the user.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Confirm {
    /// Whether to index the files.
    ok: bool,
}

/// Reads every file under the directory `path` (relative to the root; the root when left out) and returns how many files, lines and bytes it holds, reporting each file as progress; runs as a task for a client that declares the tasks extension, which polls it and may cancel it.
#[mcp_tool(read_only, idempotent, task = "optional")]
async fn index_files(
    ctx: Context,
    root: State<Root>,
    /// A directory relative to the root, e.g. `src`. Defaults to the root.
    path: Option<String>,
    /// Milliseconds to wait after each file, to pace the work. Defaults to 0.
    #[arg(range(max = 1_000), default = 0)]
    pause_ms: u64,
    /// Whether to ask the user first, naming how many files would be read.
    #[arg(default = false)]
    confirm: bool,
) -> Result<Indexed, ToolError> {
    let dir = path.unwrap_or_else(|| ".".to_owned());
    let start = resolve(&root, "path", &dir)?;
    if !start.is_dir() {
        return Err(ToolError::new("`path` must name a directory, not a file"));
    }
    let files = tokio::task::spawn_blocking(move || files_under(start))
        .await
        .map_err(|_| ToolError::new("the directory could not be walked"))?;
    let mut indexed = Indexed {
        path: dir,
        files: 0,
        lines: 0,
        bytes: 0,
        declined: false,
    };
    if confirm && !confirmed(&ctx, files.len(), &indexed.path).await? {
        indexed.declined = true;
        return Ok(indexed);
    }
    let pause = Duration::from_millis(pause_ms);
    for (done, file) in files.iter().enumerate() {
        // A file that cannot be read is counted as nothing: the index holds what it can see.
        let Some(bytes) = unless_cancelled(&ctx, tokio::fs::read(file)).await else {
            return Err(cancelled(done, files.len(), &indexed.path));
        };
        let bytes = bytes.unwrap_or_default();
        indexed.files += 1;
        indexed.bytes += bytes.len() as u64;
        if let Ok(text) = std::str::from_utf8(&bytes) {
            indexed.lines += text.lines().count() as u64;
        }
        let name = file.strip_prefix(&root.0).unwrap_or(file).display();
        let message = format!("indexed {name} ({} of {})", done + 1, files.len());
        ctx.progress_with_message(done + 1, files.len(), message)
            .await;
        if !pause.is_zero()
            && unless_cancelled(&ctx, tokio::time::sleep(pause))
                .await
                .is_none()
        {
            return Err(cancelled(done + 1, files.len(), &indexed.path));
        }
    }
    Ok(indexed)
}

/// What `work` gives, or `None` when the call is cancelled first. A cancelled body is
/// dropped where it next waits: each wait watches for the cancellation, so that the
/// body sees it and says so.
async fn unless_cancelled<T>(ctx: &Context, work: impl Future<Output = T>) -> Option<T> {
    tokio::select! {
        biased;
        () = ctx.cancelled() => None,
        done = work => Some(done),
    }
}

/// The regular files under `start`, in path order; links are not followed.
fn files_under(start: PathBuf) -> Vec<PathBuf> {
    walkdir::WalkDir::new(start)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .collect()
}

/// Asks the user whether to index `count` files under `dir`.
async fn confirmed(ctx: &Context, count: usize, dir: &str) -> Result<bool, ToolError> {
    let question = format!("Index {count} files under {dir}?");
    Ok(matches!(
        ctx.elicit::<Confirm>(question).await?,
        Elicitation::Accepted(Confirm { ok: true })
    ))
}

/// Notes in the server's log that a cancellation stopped the walk (the client is told
/// by the task's status, not by this error).
fn cancelled(done: usize, total: usize, dir: &str) -> ToolError {
    tracing::info!(
        tool = "index_files",
        "index_files cancelled after {done} of {total} files under {dir}"
    );
    ToolError::new(format!("cancelled after {done} of {total} files"))
}
