//! Makes N handler-level calls of one tool in one style, for instruction counts under
//! `valgrind --tool=callgrind`: unlike timings, they do not move with whatever else the
//! machine is doing. `compare.sh` runs it with N = 0 and N > 0 and divides the
//! difference; the `setup` style only builds each call's request and context, so that
//! their cost can be subtracted.
//!
//! ```text
//! call-count ours|rmcp-default|rmcp-stored|hand|setup add|summarize N
//! ```

use anyhow::{Context, bail};
use mcp_tool_benches::hand::HandServer;
use mcp_tool_benches::payload::{add_arguments, summarize_arguments};
use mcp_tool_benches::rmcp_macros::{RmcpDefault, RmcpStored};
use mcp_tool_benches::session::Session;
use rmcp::ServerHandler;
use rmcp::model::CallToolRequestParams;

async fn run<S: ServerHandler>(
    server: S,
    tool: &'static str,
    calls: usize,
    setup_only: bool,
) -> anyhow::Result<()> {
    let session = Session::connect(server).await?;
    let arguments = match tool {
        "add" => add_arguments(40, 2),
        _ => summarize_arguments(),
    };
    for _ in 0..calls {
        let params = CallToolRequestParams::new(tool).with_arguments(arguments.clone());
        let context = session.context();
        if setup_only {
            std::hint::black_box((params, context));
        } else {
            std::hint::black_box(session.handler().call_tool(params, context).await?);
        }
    }
    session.close().await;
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [style, tool, calls] = args.as_slice() else {
        bail!("usage: call-count ours|rmcp-default|rmcp-stored|hand|setup add|summarize N");
    };
    let tool = match tool.as_str() {
        "add" => "add",
        "summarize" => "summarize",
        other => bail!("unknown tool `{other}`"),
    };
    let calls: usize = calls.parse().context("N")?;
    match style.as_str() {
        "setup" => run(HandServer::new(), tool, calls, true).await,
        "ours" => run(mcp_tool_benches::ours::server()?, tool, calls, false).await,
        "rmcp-default" => run(RmcpDefault, tool, calls, false).await,
        "rmcp-stored" => run(RmcpStored::new(), tool, calls, false).await,
        "hand" => run(HandServer::new(), tool, calls, false).await,
        other => bail!("unknown style `{other}`"),
    }
}
