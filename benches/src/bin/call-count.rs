//! Makes N handler-level calls of one tool in one style, for instruction counts under
//! `valgrind --tool=callgrind`: unlike timings, they do not move with whatever else the
//! machine is doing. `compare.sh` runs it with N = 0 and N > 0 and divides the
//! difference; the `setup` style only builds each call's request and context, so that
//! their cost can be subtracted.
//!
//! Styles: `ours` (`#[mcp_tool]` on an `async fn`, run inline like every other style's
//! tools: the like for like), `ours-sync` (the same tool as a plain `fn`, run on the
//! blocking thread pool, so its count includes that hop), `ours-context` (an `async fn`
//! that takes a `Context` and reports progress once, each request carrying a progress
//! token, so its count includes that notification), `ours-runtime` (the same tool
//! defined at run time, a `RuntimeTool`), `ours-changed` (the `ours` tools on a server
//! whose list changed once), `ours-layer`, `ours-layer-twice` (two of that layer),
//! `ours-audit`, `ours-rate-limit` and
//! `ours-response-limit` (the `ours` tools behind one layer of the request pipeline),
//! `rmcp-default`, `rmcp-stored`, `hand`, and `setup`. A new
//! style here and in `compare.sh`'s loop is all the report needs to show it.
//!
//! Two styles count a whole session over ours' own line transport (the stdio one, on
//! an in-memory pipe) with a client that writes each request as a line and reads lines
//! back without decoding them: `ours-lines` (the `Context` tools, no progress token) and
//! `ours-lines-progress` (the same requests with a progress token, so each call also
//! writes one `notifications/progress` line before its reply). Their difference is what
//! one notification costs the server, written as stdio writes it, with the client's
//! reading of one more line.
//!
//! In place of a tool, `list` makes N `tools/list` requests (the `setup` style then only
//! builds each request's context).
//!
//! ```text
//! call-count ours|ours-sync|ours-context|ours-runtime|ours-changed|ours-layer|ours-layer-twice|\
//!     ours-audit|ours-rate-limit|ours-response-limit|ours-lines|ours-lines-progress|\
//!     rmcp-default|rmcp-stored|hand|setup \
//!     add|summarize|list N
//! ```

use anyhow::{Context, bail};
use mcp_tool_benches::hand::HandServer;
use mcp_tool_benches::payload::{add_arguments, summarize_arguments};
use mcp_tool_benches::rmcp_macros::{RmcpDefault, RmcpStored};
use mcp_tool_benches::session::Session;
use mcp_tool_benches::{ours, runtime};
use rmcp::ServerHandler;
use rmcp::model::{CallToolRequestParams, NumberOrString, ProgressToken};

const USAGE: &str = "usage: call-count \
     ours|ours-sync|ours-context|ours-runtime|ours-changed|\
     ours-layer|ours-layer-twice|ours-audit|ours-rate-limit|ours-response-limit|ours-lines|\
     ours-lines-progress|rmcp-default|rmcp-stored|hand|setup \
     add|summarize|list N";

/// What `tools/list` is asked as, in place of a tool's name.
const LIST: &str = "list";

/// What `run` does with each call.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// Only builds the request and its context.
    Setup,
    /// Calls the tool.
    Call,
    /// Calls the tool with a progress token on the request.
    CallWithProgress,
}

/// `calls` calls of `name` (or `tools/list` requests, for [`LIST`]) on `server`, or only
/// their setup.
async fn run<S: ServerHandler>(
    server: S,
    name: &'static str,
    calls: usize,
    mode: Mode,
) -> anyhow::Result<()> {
    let session = Session::connect(server).await?;
    if name == LIST {
        list(&session, calls, mode).await?;
    } else {
        call(&session, name, calls, mode).await?;
    }
    session.close().await;
    Ok(())
}

/// `calls` calls of the tool `name`, or only their setup.
async fn call<S: ServerHandler>(
    session: &Session<S>,
    name: &'static str,
    calls: usize,
    mode: Mode,
) -> anyhow::Result<()> {
    let setup_only = mode == Mode::Setup;
    let arguments = match name {
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
        let mut context = session.context();
        if mode == Mode::CallWithProgress {
            context
                .meta
                .set_progress_token(ProgressToken(NumberOrString::Number(7)));
        }
        if setup_only {
            std::hint::black_box((params, context));
        } else {
            let result = session.handler().call_tool(params, context).await?;
            std::hint::black_box(result);
        }
    }
    Ok(())
}

/// `calls` `tools/list` requests, or only their setup.
async fn list<S: ServerHandler>(
    session: &Session<S>,
    calls: usize,
    mode: Mode,
) -> anyhow::Result<()> {
    if mode != Mode::Setup {
        // Once through the client: a server that listed nothing would be counted as cheap.
        let listed = session.list().await?.tools.len();
        if listed != mcp_tool_benches::TOOLS.len() {
            bail!("{listed} tools listed");
        }
    }
    for _ in 0..calls {
        let context = session.context();
        if mode == Mode::Setup {
            std::hint::black_box(context);
        } else {
            let result = session.handler().list_tools(None, context).await?;
            std::hint::black_box(result);
        }
    }
    Ok(())
}

/// `calls` calls of `name` to the `Context` tools served over ours' line transport, by a
/// client of raw lines; with [`Mode::CallWithProgress`], each request carries a progress
/// token and each call writes one notification before its reply.
async fn lines(name: &'static str, calls: usize, mode: Mode) -> anyhow::Result<()> {
    use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};

    let server = ours::context_server()?;
    let (mut to_server, server_input) = tokio::io::duplex(1 << 16);
    let (server_output, from_server) = tokio::io::duplex(1 << 16);
    let serving = tokio::spawn(server.serve_lines(server_input, server_output));
    let mut from_server = BufReader::new(from_server);
    let mut line = String::new();
    let initialize = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"call-count","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
"#;
    to_server.write_all(initialize.as_bytes()).await?;
    from_server.read_line(&mut line).await?;
    let arguments = match name {
        "add" => serde_json::Value::Object(add_arguments(40, 2)),
        _ => serde_json::Value::Object(summarize_arguments()),
    };
    let meta = match mode {
        Mode::CallWithProgress => serde_json::json!({ "progressToken": 7 }),
        _ => serde_json::json!({}),
    };
    let request = serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": { "name": name, "arguments": arguments, "_meta": meta }
    });
    let mut request = serde_json::to_vec(&request)?;
    request.push(b'\n');
    // Once more than counted, and checked, in the runs with N = 0 as in the others: a
    // tool that failed, or a notification that did not come, would be counted as cheap.
    let mut notified = 0;
    for call in 0..=calls {
        to_server.write_all(&request).await?;
        loop {
            line.clear();
            if from_server.read_line(&mut line).await? == 0 {
                bail!("the server closed its output");
            }
            if !line.contains("notifications/progress") {
                break;
            }
            notified += 1;
        }
        if call == 0 && !line.contains(r#""isError":false"#) {
            bail!("{name} failed: {line}");
        }
    }
    let expected = if mode == Mode::CallWithProgress {
        calls + 1
    } else {
        0
    };
    if notified != expected {
        bail!("{notified} progress notifications for {} calls", calls + 1);
    }
    drop(to_server);
    serving.await??;
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [style, tool, calls] = args.as_slice() else {
        bail!("{USAGE}");
    };
    let mut tools = mcp_tool_benches::TOOLS.iter().chain([&LIST]);
    let Some(&name) = tools.find(|t| *t == tool) else {
        bail!("unknown tool `{tool}`; {USAGE}");
    };
    let calls: usize = calls.parse().context("N")?;
    match style.as_str() {
        "setup" => run(HandServer::new(), name, calls, Mode::Setup).await,
        "ours" => run(ours::server()?, name, calls, Mode::Call).await,
        "ours-sync" => run(ours::sync_server()?, name, calls, Mode::Call).await,
        "ours-context" => {
            let server = ours::context_server()?;
            run(server, name, calls, Mode::CallWithProgress).await
        }
        "ours-runtime" => run(runtime::server()?, name, calls, Mode::Call).await,
        "ours-changed" => run(ours::changed_server()?, name, calls, Mode::Call).await,
        "ours-layer"
        | "ours-layer-twice"
        | "ours-audit"
        | "ours-rate-limit"
        | "ours-response-limit" => {
            let server = ours::layered_server(&style["ours-".len()..])?;
            run(server, name, calls, Mode::Call).await
        }
        "ours-lines" => lines(name, calls, Mode::Call).await,
        "ours-lines-progress" => lines(name, calls, Mode::CallWithProgress).await,
        "rmcp-default" => run(RmcpDefault, name, calls, Mode::Call).await,
        "rmcp-stored" => run(RmcpStored::new(), name, calls, Mode::Call).await,
        "hand" => run(HandServer::new(), name, calls, Mode::Call).await,
        other => bail!("unknown style `{other}`; {USAGE}"),
    }
}
