//! A tool that runs as a task, its tasks kept in Redis: the guide's "Tasks across
//! replicas" (`mcp_tool::guide::serving`). Every process started with the same Redis
//! shares the tasks, so a task started through one is polled, and its result read,
//! through any other.
//!
//! ```text
//! redis-server --port 6379 &
//! REDIS_URL=redis://127.0.0.1:6379 cargo run -p mcp-tool --features redis --example tasks_redis
//! ```
//!
//! A client of protocol 2026-07-28 that declares the tasks extension
//! (`io.modelcontextprotocol/tasks`) gets a task id at once for `yearly_report` and polls
//! `tasks/get`; any other client gets the report within its call. A test starts two of
//! these servers on one Redis and reads through the second a task the first runs.

use std::time::Duration;

use mcp_tool::tasks::RedisStore;
use mcp_tool::{Context, Server, mcp_tool};

/// Builds the yearly report, month by month: long work, polled as a task.
#[mcp_tool(read_only, task = "optional")]
async fn yearly_report(
    ctx: Context,
    /// The year to report on.
    #[arg(range(min = 2000, max = 2100))]
    year: u32,
) -> String {
    for month in 1..=12u32 {
        ctx.progress_with_message(month, 12, format!("month {month} of 12"))
            .await;
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    format!("the report of {year}: 12 months")
}

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let url = std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned());
    Server::from_registry("reports", env!("CARGO_PKG_VERSION"))
        .task_store(RedisStore::new(&url)?)
        .run_stdio()?;
    Ok(())
}
