//! `tools/list` with 10, 100 and 1,000 tools written with `#[mcp_tool]`, and start-up
//! with 1,000.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_tool::mcp_tool;

#[allow(dead_code, clippy::all)]
mod many {
    use super::mcp_tool;
    include!(concat!(env!("OUT_DIR"), "/many_ours.rs"));
}

/// A server over the first `n` generated tools (the program registers a few others).
fn server(n: usize) -> mcp_tool::ToolServer {
    let mut left = n;
    mcp_tool::Server::from_registry("bench-ours", "0.0.0")
        .retain_tools(|entry| {
            let keep = left > 0 && entry.name().starts_with("tool_");
            left -= usize::from(keep);
            keep
        })
        .build()
        .expect("builds")
}

fn benches(c: &mut Criterion) {
    let rt = common::runtime();
    for n in common::SIZES {
        common::bench_list(c, &rt, "ours", n, server(n));
    }
    common::bench_startup(c, "ours", || server(1000));
}

criterion_group!(list, benches);
criterion_main!(list);
