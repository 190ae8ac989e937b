//! Makes N handler-level calls of one tool in one style, for instruction counts under
//! `valgrind --tool=callgrind`: unlike timings, they do not move with whatever else the
//! machine is doing. `compare.sh` runs it with N = 0 and N > 0 and divides the
//! difference; the `setup` style only builds each call's request and context, so that
//! their cost can be subtracted.
//!
//! Styles: `ours` (`#[mcp_tool]` on a plain `fn`), `ours-async` (the same tool as an
//! `async fn`), `rmcp-default`, `rmcp-stored`, `hand`, and `setup`. A new style here and
//! in `compare.sh`'s loop is all the report needs to show it.
//!
//! ```text
//! call-count ours|ours-async|rmcp-default|rmcp-stored|hand|setup add|summarize N
//! ```

use anyhow::{Context, bail};
use mcp_tool_benches::hand::HandServer;
use mcp_tool_benches::payload::{add_arguments, summarize_arguments};
use mcp_tool_benches::rmcp_macros::{RmcpDefault, RmcpStored};
use mcp_tool_benches::session::Session;
use rmcp::ServerHandler;
use rmcp::model::CallToolRequestParams;

const USAGE: &str =
    "usage: call-count ours|ours-async|rmcp-default|rmcp-stored|hand|setup add|summarize N";

/// `calls` calls of `tool` (named `name` by `server`), or only their setup.
async fn run<S: ServerHandler>(
    server: S,
    tool: &str,
    name: &'static str,
    calls: usize,
    setup_only: bool,
) -> anyhow::Result<()> {
    let session = Session::connect(server).await?;
    let arguments = match tool {
        "add" => add_arguments(40, 2),
        _ => summarize_arguments(),
    };
    if !setup_only {
        // Once through the client, in the runs with N = 0 as in the others: a tool that
        // failed would be counted as cheap.
        let check = session.call(name, arguments.clone()).await?;
        if check.is_error != Some(false) {
            bail!("{name} failed: {check:?}");
        }
    }
    for _ in 0..calls {
        let params = CallToolRequestParams::new(name).with_arguments(arguments.clone());
        let context = session.context();
        if setup_only {
            std::hint::black_box((params, context));
        } else {
            let result = session.handler().call_tool(params, context).await?;
            std::hint::black_box(result);
        }
    }
    session.close().await;
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [style, tool, calls] = args.as_slice() else {
        bail!("{USAGE}");
    };
    let Some(index) = mcp_tool_benches::TOOLS.iter().position(|t| t == tool) else {
        bail!("unknown tool `{tool}`; {USAGE}");
    };
    let (name, async_name) = (
        mcp_tool_benches::TOOLS[index],
        mcp_tool_benches::ours::ASYNC_TOOLS[index],
    );
    let calls: usize = calls.parse().context("N")?;
    match style.as_str() {
        "setup" => run(HandServer::new(), tool, name, calls, true).await,
        "ours" => run(mcp_tool_benches::ours::server()?, tool, name, calls, false).await,
        "ours-async" => {
            let server = mcp_tool_benches::ours::async_server()?;
            run(server, tool, async_name, calls, false).await
        }
        "rmcp-default" => run(RmcpDefault, tool, name, calls, false).await,
        "rmcp-stored" => run(RmcpStored::new(), tool, name, calls, false).await,
        "hand" => run(HandServer::new(), tool, name, calls, false).await,
        other => bail!("unknown style `{other}`; {USAGE}"),
    }
}
