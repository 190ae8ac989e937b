//! `add` and `summarize` defined at run time ([`mcp_tool::RuntimeTool`]), with the
//! names, descriptions, schemas and wire output of the `#[mcp_tool]` tools in
//! [`ours`](crate::ours): the style `ours-runtime`, against which the benchmark
//! `runtime_tools` sets the attribute tools in the same run.

use mcp_tool::{Arguments, RuntimeTool, Server, ServerError, Structured, ToolError, ToolServer};
use serde_json::json;

use crate::descriptions;
use crate::payload::{self, Report, Sum};

/// `add`, reading its two integers by name.
pub fn add() -> RuntimeTool {
    let schema = |description: &str| json!({ "type": "integer", "description": description });
    RuntimeTool::new("add", descriptions::ADD)
        .input_schema(json!({
            "type": "object",
            "properties": { "a": schema("The first addend."), "b": schema("The second addend.") },
            "required": ["a", "b"],
            "additionalProperties": false
        }))
        .output_schema(json!({
            "type": "object",
            "properties": { "result": { "type": "integer" } },
            "required": ["result"]
        }))
        .handler(|mut args: Arguments| async move {
            let a = args.required_i64("a");
            let b = args.required_i64("b");
            args.finish()?;
            // The output the attribute tool's `i64` becomes, `{"result": …}`.
            let result = a.wrapping_add(b);
            Ok::<_, ToolError>(Structured(Sum { result }))
        })
}

/// `summarize`, decoding its report with serde.
pub fn summarize() -> RuntimeTool {
    RuntimeTool::new("summarize", descriptions::SUMMARIZE)
        .input_schema_for::<SummarizeArguments>()
        .output_schema_for::<payload::Summary>()
        .handler(|mut args: Arguments| async move {
            let report = args.required::<Report>("report");
            args.finish()?;
            let report = report.ok_or("unreachable: `finish` reports a missing report")?;
            Ok::<_, ToolError>(Structured(payload::summarize(&report)))
        })
}

// The arguments of `summarize`, for its input schema: undocumented, so that the schema
// has no description, as `#[mcp_tool]` writes none for its tools' arguments.
#[derive(schemars::JsonSchema)]
#[allow(dead_code)]
struct SummarizeArguments {
    /// The report to summarize.
    report: Report,
}

/// The style `ours-runtime`: a server with `add` and `summarize` defined at run time, and
/// no attribute tools.
pub fn server() -> Result<ToolServer, ServerError> {
    Server::new("bench-runtime", env!("CARGO_PKG_VERSION"))
        .tool(add())
        .tool(summarize())
        .build()
}
