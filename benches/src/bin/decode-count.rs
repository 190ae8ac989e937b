//! Decodes one `tools/call` N times in one style, for instruction counts under
//! `valgrind --tool=callgrind`: `compare.sh` runs it with N = 0 and N > 0 and divides the
//! difference, as for `call-count`.
//!
//! ```text
//! decode-count ours|rmcp small|large N
//! ```

use anyhow::{Context, bail};
use mcp_tool_benches::decode::{SIZES, STYLES, decode, message};

const USAGE: &str = "usage: decode-count ours|rmcp small|large N";

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [style, size, count] = args.as_slice() else {
        bail!(USAGE);
    };
    if !STYLES.contains(&style.as_str()) || !SIZES.contains(&size.as_str()) {
        bail!(USAGE);
    }
    let count: usize = count.parse().context(USAGE)?;
    let bytes = message(size).context(USAGE)?;
    // Once in every run, N = 0 included: a message refused would be counted as cheap.
    if decode(style, &bytes).is_none() {
        bail!("{style} did not decode the {size} message");
    }
    for _ in 0..count {
        std::hint::black_box(decode(style, std::hint::black_box(&bytes)));
    }
    Ok(())
}
