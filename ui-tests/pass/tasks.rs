use mcp_tool::model::Elicitation;
use mcp_tool::{Context, ToolError, mcp_tool};

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Year {
    year: u32,
}

/// Builds the index; a task for a client that declares the tasks extension.
#[mcp_tool(task = "optional")]
async fn build_index(ctx: Context) -> String {
    ctx.progress_with_message(1, 2, "halfway").await;
    "built".to_owned()
}

/// Builds the report; always a task.
#[mcp_tool(task = "required", timeout = "10m")]
fn build_report() -> String {
    "built".to_owned()
}

/// Asks which year, then goes on as a task.
#[mcp_tool(task = "required", task_begins = "in_body")]
async fn yearly(ctx: Context) -> Result<String, ToolError> {
    let Elicitation::Accepted(Year { year }) = ctx.elicit("Which year?").await? else {
        return Ok("none".to_owned());
    };
    ctx.begin_task().await?;
    Ok(format!("{year}"))
}

fn main() {
    let server = mcp_tool::Server::from_registry("tasks", "1").build().unwrap();
    assert_eq!(server.tools().len(), 3);
}
