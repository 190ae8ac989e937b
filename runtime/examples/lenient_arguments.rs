//! Lenient arguments (`mcp_tool::guide::tools`, "Lenient arguments"): `share` converts a
//! total sent as `"10"` or `10.0`, a flag sent as `"true"` and weights sent as a string of
//! JSON; `share_exact`, the same tool without `lenient`, refuses them as every tool does
//! unless it opts in.
//!
//! ```text
//! cargo run -p mcp-tool --example lenient_arguments       # serve over stdio
//! ```

use std::collections::BTreeMap;

use mcp_tool::{Server, ServerError, ToolError, mcp_tool};

/// Splits a whole `total` between the parts named in `weights`, in proportion to each
/// weight, rounding each share down, or up when `round_up`; returns each part's share.
#[mcp_tool(lenient)]
fn share(
    /// The whole to split, e.g. 10.
    total: u32,
    /// Each part's weight, by name, e.g. `{"a": 1, "b": 3}`.
    weights: BTreeMap<String, u32>,
    /// Whether each share is rounded up. Defaults to false.
    round_up: Option<bool>,
) -> Result<BTreeMap<String, u64>, ToolError> {
    split(total, &weights, round_up.unwrap_or(false))
}

/// Splits a whole `total` between the parts named in `weights`, as `share` does, with
/// each argument exactly of its type.
#[mcp_tool]
fn share_exact(
    /// The whole to split, e.g. 10.
    total: u32,
    /// Each part's weight, by name, e.g. `{"a": 1, "b": 3}`.
    weights: BTreeMap<String, u32>,
    /// Whether each share is rounded up. Defaults to false.
    round_up: Option<bool>,
) -> Result<BTreeMap<String, u64>, ToolError> {
    split(total, &weights, round_up.unwrap_or(false))
}

fn split(
    total: u32,
    weights: &BTreeMap<String, u32>,
    round_up: bool,
) -> Result<BTreeMap<String, u64>, ToolError> {
    let sum: u64 = weights.values().map(|&weight| u64::from(weight)).sum();
    if sum == 0 {
        return Err(ToolError::new(
            "the weights add up to 0: give a part a weight above 0",
        ));
    }
    let share = |weight: u32| {
        let scaled = u64::from(total) * u64::from(weight);
        if round_up {
            scaled.div_ceil(sum)
        } else {
            scaled / sum
        }
    };
    Ok(weights
        .iter()
        .map(|(name, &weight)| (name.clone(), share(weight)))
        .collect())
}

#[tokio::main]
async fn main() -> Result<(), ServerError> {
    Server::from_registry("shares", env!("CARGO_PKG_VERSION"))
        .serve_stdio()
        .await
}
