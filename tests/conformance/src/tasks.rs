//! The tools of the tasks scenarios (the tasks extension, SEP-2663): plain tools with
//! `task = "optional"` or `task = "required"`, whose bodies sleep, fail, panic and ask
//! the user as any tool does; the server runs them as tasks for a client that declares
//! the extension.

use std::time::Duration;

use mcp_tool::model::{Elicitation, ElicitationRequest};
use mcp_tool::{Context, ToolError, mcp_tool};
use schemars::JsonSchema;
use serde::Deserialize;

/// Greets `name`; never a task.
#[mcp_tool]
fn greet(name: String) -> String {
    format!("Hello, {name}!")
}

/// Sleeps `seconds`, then says it is done; a task for a client that declares the
/// extension, and a plain call otherwise.
#[mcp_tool(task = "optional")]
async fn slow_compute(
    ctx: Context,
    /// How long to work.
    #[arg(range(max = 600))]
    seconds: u64,
    /// What the result is labelled.
    label: Option<String>,
) -> String {
    ctx.progress_with_message(0, seconds, "working").await;
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    let label = label.unwrap_or_else(|| "compute".to_owned());
    format!("{label}: done after {seconds} s")
}

/// Fails after about a second, as a tool fails: the task completes with `isError`.
#[mcp_tool(task = "required")]
async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(Duration::from_secs(1)).await;
    Err(ToolError::new("the job failed: the input was rejected"))
}

/// Panics: the task fails with a protocol error.
#[mcp_tool(task = "optional")]
async fn protocol_error_job() -> String {
    tokio::time::sleep(Duration::from_millis(100)).await;
    panic!("the job crashed")
}

#[derive(Deserialize, JsonSchema)]
struct Confirm {
    confirm: bool,
}

/// Asks the user to confirm, then deletes `filename` (it says it did).
#[mcp_tool(task = "optional")]
async fn confirm_delete(ctx: Context, filename: String) -> Result<String, ToolError> {
    let answer = ctx
        .elicit::<Confirm>(&format!("Delete {filename}?"))
        .await?;
    Ok(match answer {
        Elicitation::Accepted(Confirm { confirm: true }) => format!("Deleted {filename}"),
        _ => format!("Kept {filename}"),
    })
}

#[derive(Deserialize, JsonSchema)]
struct Detail {
    name: Option<String>,
    confirm: Option<bool>,
}

/// Asks two questions at once, and reports both answers.
#[mcp_tool(task = "optional")]
async fn multi_input(ctx: Context) -> Result<String, ToolError> {
    let (first, second) = tokio::join!(
        ctx.elicit::<Detail>("First detail?"),
        ctx.elicit::<Detail>("Second detail?"),
    );
    let show = |answer: Elicitation<Detail>| match answer {
        Elicitation::Accepted(detail) => format!(
            "{} ({})",
            detail.name.unwrap_or_default(),
            detail.confirm.unwrap_or_default()
        ),
        other => other.action().to_owned(),
    };
    Ok(format!(
        "first: {}, second: {}",
        show(first?),
        show(second?)
    ))
}

#[derive(Deserialize, JsonSchema)]
struct Name {
    name: String,
}

/// Asks the user's name within the request (in rounds, on protocol 2026-07-28), then
/// goes on as a task that greets them.
#[mcp_tool(task = "required", task_begins = "in_body")]
async fn test_tool_with_task(ctx: Context) -> Result<String, ToolError> {
    let form = ElicitationRequest::for_type::<Name>("What is your name?")?.with_key("user_name");
    let Elicitation::Accepted(Name { name }) = ctx.elicit_with::<Name>(form).await? else {
        return Ok("no name given".to_owned());
    };
    ctx.begin_task().await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    Ok(format!("Hello, {name}, from a task!"))
}
