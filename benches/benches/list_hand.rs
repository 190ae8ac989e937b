//! `tools/list` with 10, 100 and 1,000 tools in a hand-written `ServerHandler`, and
//! start-up with 1,000.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

#[allow(dead_code, clippy::all)]
mod many {
    use mcp_tool_benches::hand::{integer, invalid, optional_string, tool};
    include!(concat!(env!("OUT_DIR"), "/many_hand.rs"));
}

fn benches(c: &mut Criterion) {
    let rt = common::runtime();
    for n in common::SIZES {
        common::bench_list(c, &rt, "hand", n, many::HandMany::new(n));
    }
    common::bench_startup(c, "hand", || many::HandMany::new(1000));
}

criterion_group!(list, benches);
criterion_main!(list);
