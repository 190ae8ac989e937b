//! Per-call latency of `add` and `summarize` in each style: through an rmcp client over
//! an in-memory duplex stream, and at the server's handler alone (no transport). `ours`
//! is the tools as `async fn`, run inline like the other styles' tools; `ours-sync` the
//! same tools as plain `fn`, run on the blocking thread pool.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use mcp_tool_benches::hand::HandServer;
use mcp_tool_benches::ours;
use mcp_tool_benches::payload::{add_arguments, summarize_arguments};
use mcp_tool_benches::rmcp_macros::{RmcpDefault, RmcpStored};
use mcp_tool_benches::session::Session;
use rmcp::ServerHandler;
use rmcp::model::CallToolRequestParams;
use serde_json::{Map, Value};
use tokio::runtime::Runtime;

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// One tool, called through the client and at the handler, in one style.
fn bench_style<S: ServerHandler>(
    c: &mut Criterion,
    rt: &Runtime,
    style: &str,
    server: S,
    tool: &'static str,
    arguments: &Map<String, Value>,
) {
    let session = rt.block_on(Session::connect(server)).expect("connects");
    let check = rt
        .block_on(session.call(tool, arguments.clone()))
        .expect("the tool answers");
    assert_eq!(check.is_error, Some(false), "{style} {tool}: {check:?}");

    c.benchmark_group(format!("call-{tool}-duplex"))
        .bench_function(style, |b| {
            b.to_async(rt).iter_batched(
                || arguments.clone(),
                |args| async { black_box(session.call(tool, args).await.expect("answers")) },
                BatchSize::SmallInput,
            )
        });
    c.benchmark_group(format!("call-{tool}-handler"))
        .bench_function(style, |b| {
            b.to_async(rt).iter_batched(
                || {
                    let params = CallToolRequestParams::new(tool).with_arguments(arguments.clone());
                    (params, session.context())
                },
                |(params, context)| async {
                    black_box(
                        session
                            .handler()
                            .call_tool(params, context)
                            .await
                            .expect("answers"),
                    )
                },
                BatchSize::SmallInput,
            )
        });
    rt.block_on(session.close());
}

fn calls(c: &mut Criterion) {
    let rt = runtime();
    for (tool, arguments) in [
        ("add", add_arguments(40, 2)),
        ("summarize", summarize_arguments()),
    ] {
        let server = ours::server().expect("builds");
        bench_style(c, &rt, "ours", server, tool, &arguments);
        let server = ours::sync_server().expect("builds");
        bench_style(c, &rt, "ours-sync", server, tool, &arguments);
        bench_style(c, &rt, "rmcp-default", RmcpDefault, tool, &arguments);
        bench_style(c, &rt, "rmcp-stored", RmcpStored::new(), tool, &arguments);
        bench_style(c, &rt, "hand", HandServer::new(), tool, &arguments);
    }
}

criterion_group!(benches, calls);
criterion_main!(benches);
