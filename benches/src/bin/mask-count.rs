//! Masks an adversarial failure message of SIZE bytes N times with `mask_failure`, for
//! instruction counts under `valgrind --tool=callgrind`. `compare.sh` runs it with N = 0
//! and N > 0 at several sizes; the difference over N is one masking's count, and the
//! report divides it by SIZE: masking is linear when that figure stays flat.
//!
//! ```text
//! mask-count SIZE N
//! ```

use anyhow::{Context, bail};
use mcp_tool::masking::mask_failure;
use mcp_tool_benches::masking::adversarial_message;

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [size, masks] = args.as_slice() else {
        bail!("usage: mask-count SIZE N");
    };
    let size: usize = size.parse().context("SIZE")?;
    let masks: usize = masks.parse().context("N")?;
    let message = adversarial_message(size);
    // Once in the runs with N = 0 as in the others: the patterns compile on first use,
    // and a message that masked nothing would be counted as cheap.
    if mask_failure(&message) == message {
        bail!("nothing masked in {size} bytes");
    }
    for _ in 0..masks {
        std::hint::black_box(mask_failure(std::hint::black_box(&message)));
    }
    Ok(())
}
