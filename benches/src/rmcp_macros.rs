//! The tools with rmcp's `#[tool_router]`, `#[tool]` and `#[tool_handler]` macros.

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};

use crate::payload::{self, AddArgs, Sum, SummarizeArgs, Summary};

// One definition of the tools for both servers below: a `macro_rules!` that emits the
// whole `#[tool_router] impl`, as rmcp's documentation advises.
macro_rules! bench_tools {
    ($server:ident) => {
        #[tool_router]
        impl $server {
            /// Adds two integers and returns their sum.
            #[tool]
            fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> Json<Sum> {
                Json(Sum {
                    result: a.wrapping_add(b),
                })
            }

            /// Summarizes a report: its section count, word count, total views and busiest section.
            #[tool]
            fn summarize(
                &self,
                Parameters(SummarizeArgs { report }): Parameters<SummarizeArgs>,
            ) -> Json<Summary> {
                Json(payload::summarize(&report))
            }
        }
    };
}

/// rmcp's default: `#[tool_handler]` calls `Self::tool_router()`, rebuilding the router
/// on every `tools/list` and `tools/call`.
#[derive(Debug, Clone, Copy, Default)]
pub struct RmcpDefault;

bench_tools!(RmcpDefault);

#[tool_handler]
impl ServerHandler for RmcpDefault {}

/// The same tools with the router built once and kept in the server
/// (`#[tool_handler(router = self.tool_router)]`).
#[derive(Debug, Clone)]
pub struct RmcpStored {
    tool_router: ToolRouter<Self>,
}

impl RmcpStored {
    /// Builds the router once.
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
        }
    }
}

impl Default for RmcpStored {
    fn default() -> Self {
        Self::new()
    }
}

bench_tools!(RmcpStored);

#[tool_handler(router = self.tool_router)]
impl ServerHandler for RmcpStored {}
