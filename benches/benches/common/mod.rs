//! What the `tools/list` and start-up benchmarks of every style share.
//!
//! Each style's 1,000 tools live in their own benchmark binary, so that the three
//! compile in parallel.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BatchSize, BenchmarkId, Criterion, SamplingMode};
use mcp_tool_benches::session::Session;
use rmcp::ServerHandler;
use tokio::runtime::Runtime;

/// The listing sizes.
pub(crate) const SIZES: [usize; 3] = [10, 100, 1000];

/// A single-threaded runtime: the client and the server take turns on one thread.
pub(crate) fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// `tools/list` over `n` tools: through the client over a duplex stream, and at the handler.
pub(crate) fn bench_list<S: ServerHandler>(
    c: &mut Criterion,
    rt: &Runtime,
    style: &str,
    n: usize,
    server: S,
) {
    let session = rt.block_on(Session::connect(server)).expect("connects");
    let listed = rt.block_on(session.list()).expect("lists").tools.len();
    assert_eq!(listed, n, "{style} lists {listed} tools, not {n}");
    let samples = if n >= 1000 { 20 } else { 50 };

    let mut group = c.benchmark_group("list-duplex");
    group.sample_size(samples).sampling_mode(SamplingMode::Flat);
    group.bench_function(BenchmarkId::new(style, n), |b| {
        b.to_async(rt)
            .iter(|| async { black_box(session.list().await.expect("lists")) })
    });
    group.finish();

    let mut group = c.benchmark_group("list-handler");
    group.sample_size(samples).sampling_mode(SamplingMode::Flat);
    group.bench_function(BenchmarkId::new(style, n), |b| {
        b.to_async(rt).iter_batched(
            || session.context(),
            |context| async {
                black_box(
                    session
                        .handler()
                        .list_tools(None, context)
                        .await
                        .expect("lists"),
                )
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
    rt.block_on(session.close());
}

/// Start-up with 1,000 tools: from the tool definitions to a server that has finished
/// the handshake. Each start-up runs on a fresh thread, so that no per-thread cache
/// (rmcp keeps its schemas in thread-locals) survives from one to the next.
pub(crate) fn bench_startup<S, F>(c: &mut Criterion, style: &str, start: F)
where
    S: ServerHandler,
    F: Fn() -> S + Send + Sync + Copy + 'static,
{
    let mut group = c.benchmark_group("startup");
    group.sample_size(20).sampling_mode(SamplingMode::Flat);
    group.bench_function(BenchmarkId::new(style, 1000), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                total += std::thread::spawn(move || {
                    let rt = runtime();
                    rt.block_on(async move {
                        let began = Instant::now();
                        let session = Session::connect(start()).await.expect("connects");
                        let elapsed = began.elapsed();
                        session.close().await;
                        elapsed
                    })
                })
                .join()
                .expect("the start-up thread finishes");
            }
            total
        })
    });
    group.finish();
}
