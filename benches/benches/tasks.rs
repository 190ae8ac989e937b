//! A tool run as a task against the same tool called plainly, in one run, at the
//! server's handler: `plain` is one `tools/call` answered with its result; `memory` is
//! the round trip of a task kept in the server's memory (the `tools/call` that creates
//! it, then `tasks/get` until it has completed, its result inlined); `redis` the same
//! with the tasks kept in Redis (feature `redis`, a `redis-server` started by the
//! benchmark on a free port of 127.0.0.1, as two replicas would share it).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_tool::{Server, ToolServer, mcp_tool};
use mcp_tool_benches::session::Session;
use rmcp::RoleServer;
use rmcp::ServerHandler;
use rmcp::model::{CallToolRequestParams, CallToolResponse, GetTaskParams, TaskStatus};
use rmcp::service::RequestContext;
use serde_json::{Map, Value, json};
use tokio::runtime::Runtime;

/// Adds two numbers; a task for a client that declares the tasks extension.
#[mcp_tool(task = "optional")]
async fn add_task(a: i64, b: i64) -> i64 {
    a + b
}

fn tokio_runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

fn arguments() -> Map<String, Value> {
    json!({ "a": 40, "b": 2 })
        .as_object()
        .cloned()
        .unwrap_or_default()
}

/// A request context of protocol 2026-07-28, from a client that declares the tasks
/// extension (or none).
fn context(session: &Session<ToolServer>, tasks: bool) -> RequestContext<RoleServer> {
    let mut context = session.context();
    let mut capabilities = json!({});
    if tasks {
        capabilities["extensions"] = json!({ "io.modelcontextprotocol/tasks": {} });
    }
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": { "name": "bench", "version": "1" },
        "io.modelcontextprotocol/clientCapabilities": capabilities
    });
    if let Value::Object(meta) = meta {
        context.meta.0.0 = meta;
    }
    context
}

/// One plain call: its result.
async fn plain(session: &Session<ToolServer>) -> CallToolResponse {
    let params = CallToolRequestParams::new("add_task").with_arguments(arguments());
    let answer = session
        .handler()
        .call_tool(params, context(session, false))
        .await;
    answer.expect("answers")
}

/// One task: created, then read with `tasks/get` until it has completed.
async fn task(session: &Session<ToolServer>) -> Value {
    let params = CallToolRequestParams::new("add_task").with_arguments(arguments());
    let created = session
        .handler()
        .call_tool(params, context(session, true))
        .await;
    let CallToolResponse::Task(created) = created.expect("answers") else {
        panic!("no task was created");
    };
    loop {
        let get = GetTaskParams::new(created.task.task_id.clone());
        let got = session
            .handler()
            .get_task(get, context(session, true))
            .await;
        let got = got.expect("the task is there");
        if got.task.status() == TaskStatus::Completed {
            return serde_json::to_value(got).expect("serializes");
        }
        // The task runs on this thread: let it.
        tokio::task::yield_now().await;
    }
}

fn bench(c: &mut Criterion, rt: &Runtime, style: &str, server: Server) {
    let server = server.only(["add_task"]).build().expect("builds");
    let session = rt.block_on(Session::connect(server)).expect("connects");
    let checked = rt.block_on(task(&session));
    assert_eq!(
        checked["result"]["structuredContent"],
        json!({ "result": 42 })
    );
    let mut group = c.benchmark_group("tasks/round-trip");
    if style == "memory" {
        group.bench_function("plain", |b| {
            b.to_async(rt)
                .iter(|| async { black_box(plain(&session).await) });
        });
    }
    group.bench_function(style, |b| {
        b.to_async(rt)
            .iter(|| async { black_box(task(&session).await) });
    });
    group.finish();
    rt.block_on(session.close());
}

fn tasks(c: &mut Criterion) {
    let rt = tokio_runtime();
    // A task's record is kept a minute, in memory as in Redis, so the stores stay small.
    let server =
        || Server::from_registry("bench", "1").task_ttl(std::time::Duration::from_secs(60));
    bench(c, &rt, "memory", server());
    #[cfg(feature = "redis")]
    match redis::Redis::start() {
        Ok(redis) => {
            let store = mcp_tool::tasks::RedisStore::new(&redis.url).expect("a Redis URL");
            let shared = server().task_store(store);
            bench(c, &rt, "redis", shared);
        }
        Err(why) => eprintln!("tasks: no Redis row: {why}"),
    }
}

#[cfg(feature = "redis")]
mod redis {
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    /// A `redis-server` of the benchmark's own; stopped when dropped.
    pub(super) struct Redis {
        child: Child,
        pub(super) url: String,
    }

    impl Redis {
        pub(super) fn start() -> Result<Self, String> {
            let binary =
                std::env::var("REDIS_SERVER").unwrap_or_else(|_| "redis-server".to_owned());
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|listener| listener.local_addr())
                .map_err(|error| format!("no free port: {error}"))?
                .port();
            let child = Command::new(&binary)
                .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
                .args(["--save", "", "--appendonly", "no"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map_err(|error| format!("cannot start {binary}: {error}"))?;
            let redis = Self {
                child,
                url: format!("redis://127.0.0.1:{port}"),
            };
            let began = Instant::now();
            while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
                if began.elapsed() > Duration::from_secs(10) {
                    return Err(format!("redis-server did not listen on {port}"));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Ok(redis)
        }
    }

    impl Drop for Redis {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

criterion_group!(benches, tasks);
criterion_main!(benches);
