//! Decoding one incoming `tools/call`, ours beside rmcp's `ClientJsonRpcMessage`, with
//! small arguments and with about 1 KiB of them (see `mcp_tool_benches::decode`).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mcp_tool_benches::decode::{SIZES, STYLES, decode, message};

fn benches(c: &mut Criterion) {
    for size in SIZES {
        let Some(bytes) = message(size) else { continue };
        let mut group = c.benchmark_group(format!("decode/call-{size}"));
        for style in STYLES {
            assert!(
                decode(style, &bytes).is_some(),
                "{style} refused the {size} message"
            );
            group.bench_function(style, |b| b.iter(|| decode(style, black_box(&bytes))));
        }
        group.finish();
    }
}

criterion_group!(decoding, benches);
criterion_main!(decoding);
