//! `tools/list` with 10, 100 and 1,000 tools written with rmcp's macros, with the router
//! rebuilt per request (rmcp's default) and kept; and start-up with 1,000.

mod common;

use criterion::{Criterion, criterion_group, criterion_main};

#[allow(dead_code, clippy::all)]
mod many {
    include!(concat!(env!("OUT_DIR"), "/many_rmcp.rs"));
}

use many::{RmcpMany10, RmcpMany100, RmcpMany1000};

fn benches(c: &mut Criterion) {
    let rt = common::runtime();
    for (style, stored) in [("rmcp-default", false), ("rmcp-stored", true)] {
        for n in common::SIZES {
            match n {
                10 => common::bench_list(c, &rt, style, n, RmcpMany10::new(stored)),
                100 => common::bench_list(c, &rt, style, n, RmcpMany100::new(stored)),
                _ => common::bench_list(c, &rt, style, n, RmcpMany1000::new(stored)),
            }
        }
    }
    common::bench_startup(c, "rmcp-stored", || RmcpMany1000::new(true));
}

criterion_group!(list, benches);
criterion_main!(list);
