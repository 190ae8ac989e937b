//! The server: every registered tool, built once, served over an `rmcp` transport.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorData, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::{RequestContext, RunningService};
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;

use crate::call::{CallInput, Failure, ToolReply};
use crate::error::ServerError;
use crate::masking;
use crate::registry::{self, ToolEntry};
use crate::report::{self, Detail};
use crate::schema;
use crate::suggest;

/// Builds an MCP server from registered tools.
///
/// ```no_run
/// # async fn run() -> Result<(), mcp_tool::ServerError> {
/// mcp_tool::Server::from_registry("file-search", "1.0.0")
///     .instructions("Search files under the root with a filter.")
///     .serve_stdio()
///     .await
/// # }
/// ```
#[derive(Debug)]
#[must_use = "a server does nothing until it is served"]
pub struct Server {
    name: String,
    version: String,
    instructions: Option<String>,
    entries: Vec<&'static ToolEntry>,
    only: Option<Vec<String>>,
    from_registry: bool,
    detail: Detail,
    timeout: Option<Duration>,
}

impl Server {
    /// A server over every tool registered with `#[mcp_tool]` in this program.
    pub fn from_registry(name: impl Into<String>, version: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            version: version.into(),
            instructions: None,
            entries: registry::registered(),
            only: None,
            from_registry: true,
            detail: Detail::Masked,
            timeout: None,
        }
    }

    /// A server over the given tools only.
    pub fn from_tools(
        name: impl Into<String>,
        version: impl Into<String>,
        tools: impl IntoIterator<Item = &'static ToolEntry>,
    ) -> Self {
        Self {
            entries: tools.into_iter().collect(),
            from_registry: false,
            ..Self::from_registry(name, version)
        }
    }

    /// Instructions for the client on how to use this server's tools.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Hides the text of internal errors and panics from clients: they read only
    /// ``tool `name` failed: internal error (error id …)``, and the log record with
    /// the detail carries the same id. Messages of [`ToolError`](crate::ToolError)s
    /// and argument errors, written for the model, still pass (masked).
    pub fn hide_internal_errors(mut self, hide: bool) -> Self {
        self.detail = if hide { Detail::Hidden } else { Detail::Masked };
        self
    }

    /// Fails a call that runs longer than `limit` (async tools; a sync tool runs to
    /// its end).
    pub fn timeout(mut self, limit: Duration) -> Self {
        self.timeout = Some(limit);
        self
    }

    /// Serves only the tools with these names; naming a tool that does not exist
    /// is an error when the server is built.
    pub fn only<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.only = Some(names.into_iter().map(Into::into).collect());
        self
    }

    /// Validates the tools and computes every schema, once.
    pub fn build(self) -> Result<ToolServer, ServerError> {
        crate::panics::install_hook();
        let mut entries = self.entries;
        if let Some(only) = &self.only {
            for name in only {
                if !entries.iter().any(|e| e.name() == name) {
                    let suggestion = suggest::closest(name, entries.iter().map(|e| e.name()))
                        .map(|s| format!(" (did you mean `{s}`?)"))
                        .unwrap_or_default();
                    return Err(ServerError::UnknownToolName {
                        name: name.clone(),
                        suggestion,
                    });
                }
            }
            entries.retain(|e| only.iter().any(|name| name == e.name()));
        }
        if entries.is_empty() {
            return Err(ServerError::NoTools {
                hint: if self.from_registry {
                    "no function carries `#[mcp_tool]`, or the crate that defines the tools \
                     is never referenced; add `mcp_tool::link!(that_crate);` to the binary"
                } else {
                    "the list of tools given to the server is empty"
                },
            });
        }
        let mut index = HashMap::with_capacity(entries.len());
        for (position, entry) in entries.iter().enumerate() {
            if let Some(&earlier) = index.get(entry.name()) {
                let first: &&ToolEntry = &entries[earlier];
                return Err(ServerError::DuplicateTool {
                    name: entry.name().to_owned(),
                    first: first.location(),
                    second: entry.location(),
                });
            }
            index.insert(entry.name(), position);
        }
        // Looked up on every call: a binary search over the names beats hashing one.
        let mut index: Vec<(&'static str, usize)> = index.into_iter().collect();
        index.sort_unstable();
        let tools: Vec<BuiltTool> = entries.iter().map(|entry| BuiltTool::new(entry)).collect();
        let listing = tools.iter().map(|t| t.tool.clone()).collect();
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(self.name, self.version));
        if let Some(instructions) = self.instructions {
            info = info.with_instructions(instructions);
        }
        Ok(ToolServer {
            shared: Arc::new(Shared {
                info,
                tools,
                index,
                listing,
                detail: self.detail,
                timeout: self.timeout,
            }),
        })
    }

    /// Builds the server and serves it over stdin and stdout until the client leaves.
    pub async fn serve_stdio(self) -> Result<(), ServerError> {
        self.build()?.serve_stdio().await
    }
}

/// A built server: the tool list computed once, shared by every session.
#[derive(Clone, Debug)]
pub struct ToolServer {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    info: ServerConfig,
    tools: Vec<BuiltTool>,
    /// Tool names with their position in `tools`, sorted by name.
    index: Vec<(&'static str, usize)>,
    listing: Vec<Tool>,
    detail: Detail,
    timeout: Option<Duration>,
}

#[derive(Debug)]
struct BuiltTool {
    entry: &'static ToolEntry,
    tool: Tool,
    wrap_output: bool,
}

impl BuiltTool {
    fn new(entry: &'static ToolEntry) -> Self {
        let spec = entry.spec();
        let mut tool = Tool::new(
            spec.name,
            spec.description,
            schema::input_schema(spec.params),
        );
        let mut wrap_output = false;
        if let Some((output, wrap)) = schema::output_schema(spec.output_schema) {
            tool = tool.with_raw_output_schema(Arc::new(output));
            wrap_output = wrap;
        }
        if let Some(title) = spec.title {
            tool = tool.with_title(title);
        }
        if spec.read_only.is_some()
            || spec.destructive.is_some()
            || spec.idempotent.is_some()
            || spec.open_world.is_some()
        {
            tool = tool.with_annotations(ToolAnnotations::from_raw(
                None,
                spec.read_only,
                spec.destructive,
                spec.idempotent,
                spec.open_world,
            ));
        }
        Self {
            entry,
            tool,
            wrap_output,
        }
    }

    fn reply(&self, reply: ToolReply) -> CallToolResult {
        match reply {
            ToolReply::Content(result) => result,
            ToolReply::Structured(value) => {
                let value = if self.wrap_output {
                    let mut object = serde_json::Map::with_capacity(1);
                    object.insert("result".into(), value);
                    Value::Object(object)
                } else {
                    value
                };
                CallToolResult::structured(value)
            }
        }
    }
}

impl ToolServer {
    /// The tools this server lists, with their schemas, as clients see them.
    pub fn tools(&self) -> &[Tool] {
        &self.shared.listing
    }

    /// Serves one session over any `rmcp` transport (a duplex stream, a child's pipes, ...).
    pub async fn serve<T, E, A>(
        self,
        transport: T,
    ) -> Result<RunningService<RoleServer, Self>, ServerError>
    where
        T: rmcp::transport::IntoTransport<RoleServer, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        ServiceExt::serve(self, transport)
            .await
            .map_err(|e| ServerError::Transport(e.to_string()))
    }

    /// Serves over stdin and stdout until the client leaves.
    pub async fn serve_stdio(self) -> Result<(), ServerError> {
        self.serve_lines(tokio::io::stdin(), tokio::io::stdout())
            .await
    }

    /// Serves one session over any pair of byte streams that carry one JSON-RPC
    /// message a line, as stdio does: a pipe, a socket, an in-memory duplex. A line
    /// that is not JSON is answered with a `-32700` error (`"id": null`) and the
    /// session goes on.
    pub async fn serve_lines<R, W>(self, input: R, output: W) -> Result<(), ServerError>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        crate::stdio::serve(self, input, output).await
    }

    /// Runs one call outside any session, as `tools/call` would.
    pub async fn call(
        &self,
        name: &str,
        arguments: serde_json::Map<String, Value>,
    ) -> Result<CallToolResult, ErrorData> {
        let tool = self.find(name)?;
        let input = CallInput::new(arguments);
        let running = (tool.entry.spec().call)(&input);
        let outcome = match self.shared.timeout {
            Some(limit) => tokio::time::timeout(limit, running)
                .await
                .unwrap_or(Err(Failure::Timeout(limit))),
            None => running.await,
        };
        Ok(match outcome {
            Ok(reply) => tool.reply(reply),
            Err(failure) => {
                report::failure(tool.entry.name(), failure, input.args(), self.shared.detail)
            }
        })
    }

    fn find(&self, name: &str) -> Result<&BuiltTool, ErrorData> {
        let index = &self.shared.index;
        match index.binary_search_by(|(known, _)| (*known).cmp(name)) {
            Ok(found) => Ok(&self.shared.tools[index[found].1]),
            Err(_) => Err(unknown_tool(name, index.iter().map(|(known, _)| *known))),
        }
    }
}

fn unknown_tool<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> ErrorData {
    let suggestions = suggest::ranked(name, known);
    let hint = match suggestions.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        many => format!(
            "; did you mean one of {}?",
            many.iter()
                .take(3)
                .map(|s| format!("`{s}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    // The requested name is echoed only as a key the client chose, clipped.
    let shown: String = name.chars().take(64).collect();
    ErrorData::invalid_params(
        masking::mask_failure(&format!("unknown tool `{shown}`{hint}")).into_owned(),
        Some(serde_json::json!({ "suggestions": suggestions })),
    )
}

impl ServerHandler for ToolServer {
    fn get_info(&self) -> ServerConfig {
        self.shared.info.clone()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        if request.as_ref().and_then(|r| r.cursor.as_ref()).is_some() {
            return Err(ErrorData::invalid_params(
                "invalid cursor: this server lists every tool in one page",
                None,
            ));
        }
        Ok(ListToolsResult::with_all_items(self.shared.listing.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.find(name).ok().map(|t| t.tool.clone())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        self.call(&request.name, arguments).await.map(Into::into)
    }
}
