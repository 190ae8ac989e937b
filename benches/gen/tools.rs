//! Writes the same N tools in each style as Rust source: for the 1,000-tool benchmarks
//! (through `build.rs`) and for the build-time crates (through `gen-crates`).
//!
//! Tool `i` is `tool_{i:04}`: it takes `value: i64` and an optional `label`, and returns
//! `value + i` as text, labelled if a label was given.

use std::fmt::Write as _;

/// The line of tool 100's body that the incremental-build benchmark rewrites.
pub(crate) const EDIT_MARKER: &str = "// edited by the incremental-build benchmark";

/// The tool whose body the incremental-build benchmark rewrites.
pub(crate) const EDITED_TOOL: usize = 100;

fn name(i: usize) -> String {
    format!("tool_{i:04}")
}

fn args_type(i: usize) -> String {
    format!("Tool{i:04}Args")
}

fn description(i: usize) -> String {
    format!("Shifts a value by {i} and labels the result.")
}

const VALUE_DOC: &str = "The value to shift.";
const LABEL_DOC: &str = "A label for the result. Defaults to none.";

fn body(i: usize, indent: &str) -> String {
    let marker = if i == EDITED_TOOL {
        format!(" {EDIT_MARKER}")
    } else {
        String::new()
    };
    format!(
        "{indent}let shift: i64 = {i};{marker}\n\
         {indent}match label {{\n\
         {indent}    Some(label) => format!(\"{{label}}: {{}}\", value.wrapping_add(shift)),\n\
         {indent}    None => value.wrapping_add(shift).to_string(),\n\
         {indent}}}\n"
    )
}

/// `count` tools with `#[mcp_tool]` (needs `use mcp_tool::mcp_tool;` in scope).
pub(crate) fn ours(count: usize) -> String {
    let mut out = String::new();
    for i in 0..count {
        let _ = write!(
            out,
            "/// {description}\n\
             #[mcp_tool]\n\
             pub(crate) fn {name}(\n    \
                 /// {VALUE_DOC}\n    \
                 value: i64,\n    \
                 /// {LABEL_DOC}\n    \
                 label: Option<String>,\n\
             ) -> String {{\n\
             {body}}}\n\n",
            description = description(i),
            name = name(i),
            body = body(i, "    "),
        );
    }
    out
}

/// The argument structs of `count` tools, for the styles that decode a struct.
fn arg_structs(count: usize, json_schema: bool) -> String {
    let derives = if json_schema {
        "Debug, serde::Deserialize, schemars::JsonSchema"
    } else {
        "Debug, serde::Deserialize"
    };
    let mut out = String::new();
    for i in 0..count {
        let _ = write!(
            out,
            "#[derive({derives})]\n\
             struct {ty} {{\n    \
                 /// {VALUE_DOC}\n    \
                 value: i64,\n    \
                 /// {LABEL_DOC}\n    \
                 label: Option<String>,\n\
             }}\n\n",
            ty = args_type(i),
        );
    }
    out
}

/// The `#[tool]` methods of the first `count` tools, for a `#[tool_router] impl`.
fn rmcp_methods(count: usize) -> String {
    let mut out = String::new();
    for i in 0..count {
        let _ = write!(
            out,
            "    /// {description}\n    \
                 #[tool]\n    \
                 fn {name}(\n        \
                     &self,\n        \
                     Parameters({ty} {{ value, label }}): Parameters<{ty}>,\n    \
                 ) -> String {{\n\
             {body}    }}\n\n",
            description = description(i),
            name = name(i),
            ty = args_type(i),
            body = body(i, "        "),
        );
    }
    out
}

/// `count` tools with rmcp's macros as one server, `GenServer`, the way rmcp's
/// documentation writes a tools-only server (`#[tool_router(server_handler)]`).
/// Needs `rmcp`, `serde` and `schemars` as dependencies.
pub(crate) fn rmcp_server(count: usize) -> String {
    format!(
        "use rmcp::handler::server::wrapper::Parameters;\n\
         use rmcp::{{tool, tool_router}};\n\n\
         {structs}\
         #[derive(Debug, Clone, Copy, Default)]\n\
         pub(crate) struct GenServer;\n\n\
         #[tool_router(server_handler)]\n\
         impl GenServer {{\n\
         {methods}}}\n",
        structs = arg_structs(count, true),
        methods = rmcp_methods(count),
    )
}

/// The first `n` of `count` tools with rmcp's macros, as one server type per `n`, each
/// able to rebuild its router per request (rmcp's default) or to keep it (`stored`).
pub(crate) fn rmcp_servers(count: usize, sizes: &[usize]) -> String {
    let mut out = String::from(
        "use std::borrow::Cow;\n\
         use rmcp::handler::server::router::tool::ToolRouter;\n\
         use rmcp::handler::server::wrapper::Parameters;\n\
         use rmcp::{ServerHandler, tool, tool_handler, tool_router};\n\n",
    );
    out.push_str(&arg_structs(count, true));
    for &n in sizes {
        let ty = format!("RmcpMany{n}");
        let _ = write!(
            out,
            "/// {n} tools with rmcp's macros.\n\
             #[derive(Debug, Clone, Default)]\n\
             pub(crate) struct {ty} {{\n    \
                 stored: Option<ToolRouter<Self>>,\n\
             }}\n\n\
             impl {ty} {{\n    \
                 /// With `stored`, the router is built once; otherwise on every request.\n    \
                 pub(crate) fn new(stored: bool) -> Self {{\n        \
                     Self {{ stored: stored.then(Self::tool_router) }}\n    \
                 }}\n\n    \
                 fn router(&self) -> Cow<'_, ToolRouter<Self>> {{\n        \
                     match &self.stored {{\n            \
                         Some(router) => Cow::Borrowed(router),\n            \
                         None => Cow::Owned(Self::tool_router()),\n        \
                     }}\n    \
                 }}\n\
             }}\n\n\
             #[tool_router]\n\
             impl {ty} {{\n\
             {methods}}}\n\n\
             #[tool_handler(router = self.router())]\n\
             impl ServerHandler for {ty} {{}}\n\n",
            methods = rmcp_methods(n),
        );
    }
    out
}

/// The fixed part of the hand-written server: the type, its constructor and its
/// `ServerHandler`, over `hand_listing` and `hand_dispatch`.
const HAND_SERVER: &str = "/// The hand-written server over the first `n` tools.\n\
     #[derive(Debug, Clone)]\n\
     pub(crate) struct HandMany {\n    \
         tools: Arc<Vec<Tool>>,\n\
     }\n\n\
     impl HandMany {\n    \
         pub(crate) fn new(n: usize) -> Self {\n        \
             let mut tools = hand_listing();\n        \
             tools.truncate(n);\n        \
             Self { tools: Arc::new(tools) }\n    \
         }\n\
     }\n\n\
     impl ServerHandler for HandMany {\n    \
         fn get_info(&self) -> ServerConfig {\n        \
             ServerConfig::new(ServerCapabilities::builder().enable_tools().build())\n            \
                 .with_server_info(Implementation::new(\"hand-many\", \"0.1.0\"))\n    \
         }\n\n    \
         async fn list_tools(\n        \
             &self,\n        \
             _request: Option<PaginatedRequestParams>,\n        \
             _context: RequestContext<RoleServer>,\n    \
         ) -> Result<ListToolsResult, ErrorData> {\n        \
             Ok(ListToolsResult::with_all_items(self.tools.to_vec()))\n    \
         }\n\n    \
         async fn call_tool(\n        \
             &self,\n        \
             request: CallToolRequestParams,\n        \
             _context: RequestContext<RoleServer>,\n    \
         ) -> Result<CallToolResponse, ErrorData> {\n        \
             match hand_dispatch(&request.name, request.arguments) {\n            \
                 Some(result) => Ok(result.into()),\n            \
                 None => Err(ErrorData::invalid_params(\n                \
                     format!(\"unknown tool `{}`\", request.name),\n                \
                     None,\n            \
                 )),\n        \
             }\n    \
         }\n\
     }\n";

/// `hand_listing()`: every tool of `count`, with its schema written as JSON text.
fn hand_listing(count: usize) -> String {
    let mut out = String::from(
        "/// Every tool, with its schema.\nfn hand_listing() -> Vec<Tool> {\n    vec![\n",
    );
    for i in 0..count {
        let _ = write!(
            out,
            "        tool(\n            \
                 \"{name}\",\n            \
                 \"{description}\",\n            \
                 r#\"{{\"type\": \"object\", \"properties\": {{\
                 \"value\": {{\"type\": \"integer\", \"description\": \"{VALUE_DOC}\"}}, \
                 \"label\": {{\"type\": \"string\", \"description\": \"{LABEL_DOC}\"}}}}, \
                 \"required\": [\"value\"], \"additionalProperties\": false}}\"#,\n        \
             ),\n",
            name = name(i),
            description = description(i),
        );
    }
    out.push_str("    ]\n}\n\n");
    out
}

/// `hand_dispatch(name, args)`: a `match` on the name over `count` tools, `None` for
/// a name it does not know.
fn hand_dispatch(count: usize) -> String {
    let mut out = String::from(
        "fn hand_dispatch(\n    \
             name: &str,\n    \
             args: Option<rmcp::model::JsonObject>,\n\
         ) -> Option<CallToolResult> {\n    \
             let args = args.unwrap_or_default();\n    \
             let text = |text: String| CallToolResult::success(vec![ContentBlock::text(text)]);\n    \
             Some(match name {\n",
    );
    for i in 0..count {
        let _ = write!(
            out,
            "        \"{name}\" => match (integer(&args, \"value\"), optional_string(&args, \"label\")) {{\n            \
                 (Some(value), Some(label)) => text({name}(value, label)),\n            \
                 _ => invalid(\"{name}\"),\n        \
             }},\n",
            name = name(i),
        );
    }
    out.push_str(
        "        _ => return None,\n    \
             })\n\
         }\n\n",
    );
    out
}

/// `count` tools as a hand-written `ServerHandler`, `HandMany`: a listing computed once
/// from schemas written as JSON text, a `match` on the name, arguments read straight from
/// the JSON object. Needs `rmcp` and `serde_json`, and the helpers `tool`, `integer`,
/// `optional_string` and `invalid` in scope (see `mcp_tool_benches::hand`).
pub(crate) fn hand(count: usize) -> String {
    let mut out = String::from(
        "use std::sync::Arc;\n\
         use rmcp::model::{\n    \
             CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,\n    \
             Implementation, ListToolsResult, PaginatedRequestParams, ServerCapabilities,\n    \
             ServerConfig, Tool,\n\
         };\n\
         use rmcp::service::RequestContext;\n\
         use rmcp::{RoleServer, ServerHandler};\n\n",
    );
    for i in 0..count {
        let _ = write!(
            out,
            "fn {name}(value: i64, label: Option<String>) -> String {{\n{body}}}\n\n",
            name = name(i),
            body = body(i, "    "),
        );
    }
    out.push_str(&hand_listing(count));
    out.push_str(&hand_dispatch(count));
    out.push_str(HAND_SERVER);
    out
}
