//! Tools defined at run time against the same tools written with `#[mcp_tool]`, in one
//! run: `tools/list`, and calls of `add` and `summarize`, through an rmcp client over an
//! in-memory duplex stream and at the server's handler alone.
//!
//! Styles: `attribute` (the `async fn` tools of `ours`, on a server whose list never
//! changed), `runtime` (the same tools as `RuntimeTool`s) and `attribute-changed` (the
//! attribute tools on a server to which a tool was added and removed, so that every call
//! finds its tool in the shared snapshot rather than the list built at start-up).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use mcp_tool_benches::payload::{add_arguments, summarize_arguments};
use mcp_tool_benches::session::Session;
use mcp_tool_benches::{ours, runtime};
use rmcp::ServerHandler;
use rmcp::model::CallToolRequestParams;
use serde_json::{Map, Value};
use tokio::runtime::Runtime;

fn tokio_runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

fn bench_list<S: ServerHandler>(c: &mut Criterion, rt: &Runtime, style: &str, server: S) {
    let session = rt.block_on(Session::connect(server)).expect("connects");
    assert_eq!(rt.block_on(session.list()).expect("lists").tools.len(), 2);
    c.benchmark_group("runtime-tools/list-duplex")
        .bench_function(style, |b| {
            b.to_async(rt)
                .iter(|| async { black_box(session.list().await.expect("lists")) })
        });
    c.benchmark_group("runtime-tools/list-handler")
        .bench_function(style, |b| {
            b.to_async(rt).iter_batched(
                || session.context(),
                |context| async {
                    black_box((session.handler().list_tools(None, context).await).expect("lists"))
                },
                BatchSize::SmallInput,
            )
        });
    rt.block_on(session.close());
}

fn bench_call<S: ServerHandler>(
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
    c.benchmark_group(format!("runtime-tools/call-{tool}-duplex"))
        .bench_function(style, |b| {
            b.to_async(rt).iter_batched(
                || arguments.clone(),
                |args| async { black_box(session.call(tool, args).await.expect("answers")) },
                BatchSize::SmallInput,
            )
        });
    c.benchmark_group(format!("runtime-tools/call-{tool}-handler"))
        .bench_function(style, |b| {
            b.to_async(rt).iter_batched(
                || {
                    let params = CallToolRequestParams::new(tool).with_arguments(arguments.clone());
                    (params, session.context())
                },
                |(params, context)| async {
                    black_box(
                        (session.handler().call_tool(params, context).await).expect("answers"),
                    )
                },
                BatchSize::SmallInput,
            )
        });
    rt.block_on(session.close());
}

fn benches(c: &mut Criterion) {
    let rt = tokio_runtime();
    bench_list(c, &rt, "attribute", ours::server().expect("builds"));
    bench_list(c, &rt, "runtime", runtime::server().expect("builds"));
    for (tool, arguments) in [
        ("add", add_arguments(40, 2)),
        ("summarize", summarize_arguments()),
    ] {
        let attribute = ours::server().expect("builds");
        bench_call(c, &rt, "attribute", attribute, tool, &arguments);
        let run_time = runtime::server().expect("builds");
        bench_call(c, &rt, "runtime", run_time, tool, &arguments);
        bench_call(
            c,
            &rt,
            "attribute-changed",
            ours::changed_server().expect("builds"),
            tool,
            &arguments,
        );
    }
}

criterion_group!(runtime_tools, benches);
criterion_main!(runtime_tools);
