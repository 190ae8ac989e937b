//! The tools with `#[mcp_tool]`, twice over, both served as `add` and `summarize`:
//!
//! - [`async_tools`], as `async fn`: the runtime runs them inline on the async worker,
//!   as rmcp's macros and the hand-written server run every tool. The style `ours`, the
//!   like for like, the one the targets judge ([`server`]).
//! - [`sync_tools`], as plain `fn`: the runtime runs them on tokio's blocking thread
//!   pool, so that a tool that blocks never stalls other calls and the server's timeout
//!   can end its call; that costs a thread hop per call, on purpose. The style
//!   `ours-sync` ([`sync_server`]).
//!
//! - [`context_tools`], as `async fn` that take a [`Context`](mcp_tool::Context) and
//!   report progress once per call: what a tool that uses the context pays. The style
//!   `ours-context` ([`context_server`]), whose requests carry a progress token.
//!
//! The registry then holds three tools of each name, so a server picks its pair by
//! [`ToolEntry::module_path`](mcp_tool::ToolEntry::module_path), not by name.

use mcp_tool::{Arguments, RuntimeTool, Server, ServerError, ToolError, ToolServer};

/// `add` and `summarize` as `async fn`, run inline on the async worker.
pub mod async_tools {
    use mcp_tool::mcp_tool;

    use crate::payload::{self, Report, Summary};

    /// The module path of these tools, as their registry entries give it.
    pub const MODULE: &str = module_path!();

    /// Adds two integers and returns their sum.
    #[mcp_tool]
    pub async fn add(
        /// The first addend.
        a: i64,
        /// The second addend.
        b: i64,
    ) -> i64 {
        a.wrapping_add(b)
    }

    /// Summarizes a report: its section count, word count, total views and busiest section.
    #[mcp_tool]
    pub async fn summarize(
        /// The report to summarize.
        report: Report,
    ) -> Summary {
        payload::summarize(&report)
    }
}

/// The same `add` and `summarize` as plain `fn`, run on the blocking thread pool.
pub mod sync_tools {
    use mcp_tool::mcp_tool;

    use crate::payload::{self, Report, Summary};

    /// The module path of these tools, as their registry entries give it.
    pub const MODULE: &str = module_path!();

    /// Adds two integers and returns their sum.
    #[mcp_tool]
    pub fn add(
        /// The first addend.
        a: i64,
        /// The second addend.
        b: i64,
    ) -> i64 {
        a.wrapping_add(b)
    }

    /// Summarizes a report: its section count, word count, total views and busiest section.
    #[mcp_tool]
    pub fn summarize(
        /// The report to summarize.
        report: Report,
    ) -> Summary {
        payload::summarize(&report)
    }
}

/// `add` and `summarize` as `async fn` that take a `Context` and report progress once.
pub mod context_tools {
    use mcp_tool::{Context, mcp_tool};

    use crate::payload::{self, Report, Summary};

    /// The module path of these tools, as their registry entries give it.
    pub const MODULE: &str = module_path!();

    /// Adds two integers and returns their sum.
    #[mcp_tool]
    pub async fn add(
        ctx: Context,
        /// The first addend.
        a: i64,
        /// The second addend.
        b: i64,
    ) -> i64 {
        ctx.progress(1u32, 1u32).await;
        a.wrapping_add(b)
    }

    /// Summarizes a report: its section count, word count, total views and busiest section.
    #[mcp_tool]
    pub async fn summarize(
        ctx: Context,
        /// The report to summarize.
        report: Report,
    ) -> Summary {
        ctx.progress(1u32, 1u32).await;
        payload::summarize(&report)
    }
}

/// The style `ours`: a server over the `async fn` tools, whatever else the program
/// registers.
pub fn server() -> Result<ToolServer, ServerError> {
    server_over(async_tools::MODULE)
}

/// The builder of the style `ours`, for a server with options of its own.
pub fn builder() -> Server {
    builder_over(async_tools::MODULE)
}

/// The style `ours-changed`: the `async fn` tools on a server to which a tool was added
/// and removed, so that every call finds its tool in the shared snapshot of a changed
/// list rather than in the list built at start-up.
pub fn changed_server() -> Result<ToolServer, ServerError> {
    let server = server()?;
    let probe = RuntimeTool::new("probe", "Returns nothing.")
        .handler(|_args: Arguments| async { Ok::<_, ToolError>(()) });
    server.add_tool(probe)?;
    assert!(server.remove_tool("probe"), "the probe tool was listed");
    Ok(server)
}

/// The styles of the request pipeline: the `async fn` tools behind one layer, `layer` a
/// `from_fn` closure that passes every request on (`layer-twice`: two of them, so that
/// one layer's own cost is the difference, apart from what entering the stack costs),
/// `audit`, `rate-limit` (a limit no
/// request reaches, so every one is counted and served) or `response-limit` (a bound no
/// reply reaches, so every reply is measured).
pub fn layered_server(layer: &str) -> Result<ToolServer, ServerError> {
    use mcp_tool::middleware::{
        self, AuditLayer, Next, RateLimitLayer, Request, ResponseLimitLayer,
    };
    let builder = builder();
    let builder = match layer {
        "layer" => builder.layer(middleware::from_fn(|request: Request, next: Next| {
            next.run(request)
        })),
        "layer-twice" => builder
            .layer(middleware::from_fn(|request: Request, next: Next| {
                next.run(request)
            }))
            .layer(middleware::from_fn(|request: Request, next: Next| {
                next.run(request)
            })),
        "audit" => builder.layer(AuditLayer::new()),
        "rate-limit" => builder.layer(RateLimitLayer::per_second(u32::MAX)),
        "response-limit" => builder.layer(ResponseLimitLayer::new(1 << 30)),
        other => panic!("no layer `{other}`"),
    };
    builder.build()
}

/// The style `ours-sync`: a server over the plain `fn` tools.
pub fn sync_server() -> Result<ToolServer, ServerError> {
    server_over(sync_tools::MODULE)
}

/// The style `ours-context`: a server over the tools that take a `Context`.
pub fn context_server() -> Result<ToolServer, ServerError> {
    server_over(context_tools::MODULE)
}

/// The style `ours` over Streamable HTTP: the `async fn` tools, with sessions or
/// stateless.
pub fn http_server(stateless: bool) -> Result<ToolServer, ServerError> {
    builder_over(async_tools::MODULE)
        .stateless(stateless)
        .build()
}

/// A server over the tools defined in `module`, and only those.
fn server_over(module: &str) -> Result<ToolServer, ServerError> {
    builder_over(module).build()
}

/// The builder of a server over the tools defined in `module`, and only those.
fn builder_over(module: &str) -> Server {
    Server::from_registry("bench-ours", env!("CARGO_PKG_VERSION"))
        .retain_tools(|entry| entry.module_path() == module)
}
