//! Writes the 1,000 tools of the listing and start-up benchmarks, in each style, to
//! `OUT_DIR` (they are generated, not committed).

#[path = "gen/tools.rs"]
#[allow(dead_code)]
mod tools;

use std::path::PathBuf;

/// How many tools the largest benchmark registers.
const MANY: usize = 1000;

fn main() -> std::io::Result<()> {
    println!("cargo::rerun-if-changed=gen/tools.rs");
    println!("cargo::rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    std::fs::write(out.join("many_ours.rs"), tools::ours(MANY))?;
    std::fs::write(
        out.join("many_rmcp.rs"),
        tools::rmcp_servers(MANY, &[10, 100, MANY]),
    )?;
    std::fs::write(out.join("many_hand.rs"), tools::hand(MANY))?;
    Ok(())
}
