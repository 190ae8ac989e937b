//! The OpenTelemetry end-to-end test's fixture server (`tests/e2e/test_opentelemetry.py`):
//! one item of each kind whose span the test checks, served over stdio, or over
//! Streamable HTTP with sessions at the address given as its only argument, with the
//! spans and durations exported where the `OTEL_*` variables say.
//!
//! ```text
//! telemetry_fixture                   # stdio
//! telemetry_fixture 127.0.0.1:8000    # Streamable HTTP at /mcp
//! ```

use mcp_tool::{Server, ToolError, mcp_prompt, mcp_resource, mcp_tool};

/// Adds two integers and returns their sum.
#[mcp_tool(read_only)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// Divides `a` by `b`; fails when `b` is zero, naming a file and a credential that the
/// masking must keep from every channel.
#[mcp_tool(read_only)]
fn divide(
    /// The dividend.
    a: f64,
    /// The divisor, not zero.
    b: f64,
) -> Result<f64, ToolError> {
    if b == 0.0 {
        return Err(ToolError::new(
            "cannot divide by zero (see /home/builder/config/limits.toml, password=hunter2)",
        ));
    }
    Ok(a / b)
}

/// Panics, for the test of a tool that panics.
#[mcp_tool]
fn explode() -> Result<(), ToolError> {
    panic!("exploded as asked, reading /home/builder/.cargo/credentials.toml with token=hunter2")
}

/// Asks the model to greet someone by name.
#[mcp_prompt]
fn greet(
    /// Whom to greet.
    name: String,
) -> String {
    format!("Say hello to {name}.")
}

/// Today's notes, as plain text.
#[mcp_resource(uri = "notes://today", mime_type = "text/plain")]
fn today() -> String {
    "Nothing planned.".to_owned()
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // Dropped as `main` returns, it exports what is left.
    let _telemetry = mcp_tool::telemetry::init().map_err(|error| anyhow::anyhow!(error))?;
    let server = Server::from_registry("telemetry-fixture", env!("CARGO_PKG_VERSION"));
    match std::env::args().nth(1) {
        Some(address) => server.serve_http(&address).await?,
        None => server.serve_stdio().await?,
    }
    Ok(())
}
